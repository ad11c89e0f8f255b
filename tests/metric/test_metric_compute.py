"""The metric's Python entry points with what users actually pass them: compute() and score() with missing or
malformed arguments (one MetricInputError naming the argument or the reference), a shipped split signed with
its name, predictions prepared a target at a time (no second copy), and the Scorer's other views of prepared
predictions (P/R at many k for the Space, a run's subset of targets for the runner)."""

from __future__ import annotations

import json
import random
import tracemalloc

import pytest

import swords_dataset
import swords_metric
from swords_metric import MetricInputError, Scorer

from ..baselines.run_helpers import swords


@pytest.fixture(scope="module")
def metric():
    pytest.importorskip("evaluate")
    return swords_metric.load()


def ranked(rows: list[dict], seed: int = 0, extra: int = 10) -> dict[str, list[list]]:
    rng = random.Random(seed)
    words = [s["substitute"] for row in rows for s in row["substitutes"]]
    return {
        row["id"]: [
            [w, float(rng.randrange(4))]
            for w in [s["substitute"] for s in row["substitutes"]] + rng.sample(words, extra)
        ]
        for row in rows
    }


def faults(rows: list[dict]) -> list[tuple[dict, str]]:
    row = rows[0]
    without_id = {key: value for key, value in row.items() if key != "id"}
    return [
        ({"predictions": [["a"]], "references": [None]}, "references: item 0 is None, expected a benchmark row"),
        ({"predictions": [["a"], ["b"]], "references": ["x", "y"]}, "references: item 0 is 'x', expected a benchmark"),
        ({"predictions": [["a"], ["b"]], "references": [row, without_id]}, "references: item 1 has no 'id'"),
        ({"predictions": [[["a", None]]], "references": [row]}, r"item 0 \('a'\): score is null"),
    ]


def test_compute_names_the_argument_or_reference_at_fault(metric, swords_test):
    cases = faults(swords_test) + [
        ({"predictions": None, "references": swords_test[:2]}, "predictions: none given"),
        ({"predictions": [["a"], ["b"]], "references": None}, "references: none given"),
        ({"predictions": [], "references": []}, "references: none given"),
        ({"predictions": "abc", "references": swords_test[:3]}, "predictions: expected one list of substitutes"),
    ]
    for arguments, message in cases:
        with pytest.raises(MetricInputError, match=message):
            metric.compute(**arguments)
    with pytest.raises(MetricInputError, match="none given .nor added with add or add_batch"):
        metric.compute()
    for row in swords_test[:3]:  # what add and add_batch stored is what compute() scores
        metric.add(prediction=[s["substitute"] for s in row["substitutes"]], reference=row)
    metric.add_batch(predictions=[["a"]] * 2, references=swords_test[3:5])
    assert metric.compute()["targets_scored"] == 5


def test_score_names_the_argument_or_reference_at_fault(swords_test):
    cases = faults(swords_test) + [
        ({"predictions": None, "references": swords_test[:2]}, "predictions: expected a mapping .* got None"),
        ({"predictions": [["a"]], "references": None}, "references: expected benchmark rows .* got None"),
        ({"predictions": [], "references": []}, "references: none given"),
        ({"predictions": {"x": ["a"]}, "references": {"id": "x"}}, "references: expected benchmark rows"),
    ]
    for arguments, message in cases:
        with pytest.raises(MetricInputError, match=message):
            swords_metric.score(arguments["predictions"], arguments["references"])


@pytest.mark.slow  # 5 s on two cores
def test_a_shipped_split_is_signed_with_its_name(metric, swords_test, coinco_test):
    test = swords_dataset.load("swords", split="test")
    predictions = [["fascinating", "incredible"]] * len(test)
    assert "|split:test|" in metric.compute(predictions=predictions, references=test)["signature"]
    assert "|split:test|" in swords_metric.score(ranked(swords_test), swords_test)["signature"]
    dev = swords_dataset.rows("swords", "dev")
    assert "|split:dev|" in Scorer(dev).signature()
    # Not exactly a split: a part of it, or the split in another order with one row left out.
    assert "|split:custom|" in Scorer(swords_test[:100]).signature()
    assert "|split:custom|" in Scorer(swords_test[::-1][1:]).signature()
    # The SWORDS test subset and its reannotation hold the same 89 ids: both are test.
    assert "|split:test|" in Scorer(swords_dataset.rows("swords_test_subset", "test")).signature()
    scorer = Scorer(coinco_test)
    assert scorer.config == "coinco" and "|split:test|" in scorer.signature()
    with pytest.raises(MetricInputError, match="not in coinco test"):
        scorer.score({"nowhere": ["a"]})
    # Given explicitly, the split is what it is said to be.
    assert "|split:mine|" in Scorer(swords_test, split="mine").signature()


@pytest.mark.slow  # 29 s on two cores
def test_predictions_are_prepared_a_target_at_a_time(swords_test):
    """No second copy of the input: 762 targets x 2,000 items normalized at once would hold ~100 MB of tuples;
    prepared one target at a time, what is kept per target is a few dozen lemmas."""
    scorer = Scorer.from_dataset("swords", "test")
    words = sorted({s["substitute"] for row in swords_test for s in row["substitutes"]})
    rng = random.Random(2)
    predictions = [[[w, rng.random()] for w in rng.choices(words, k=2000)] for _ in swords_test]
    scorer.score(predictions)  # the lemmatizer's tables and cache filled first: they are not the input's copy
    tracemalloc.start()
    result = scorer.score(predictions, by_pos=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert result["targets_scored"] == 762 and peak < 25 * 2**20, peak


@pytest.mark.slow  # 21 s on two cores
def test_precision_and_recall_at_each_k_are_the_metrics_at_that_k(coinco_test):
    predictions = ranked(coinco_test, extra=30)
    scorer = Scorer(coinco_test, split="test", config="coinco")
    prepared = scorer.prepare(predictions)
    curve = scorer.precision_recall(prepared)
    assert sorted(curve) == list(range(1, 21))
    for k in (1, 2, 5, 10, 17, 20):
        expected = Scorer(coinco_test, k=k).score(predictions, by_pos=False)
        for family in ("lenient_a", "lenient_c", "strict_a", "strict_c"):
            for kind in ("p", "r"):
                assert curve[k][f"{family}_{kind}"] == expected[f"{family}_{kind}@{k}"], (k, family, kind)
    with pytest.raises(MetricInputError, match="prepared 20 deep; k=25 needs a Scorer with k >= 25"):
        scorer.precision_recall(prepared, ks=[25])
    deeper = scorer.precision_recall(predictions, ks=[25])  # not yet prepared: prepared as deep as asked
    assert deeper[25]["strict_c_p"] == Scorer(coinco_test, k=25).score(predictions)["strict_c_p@25"]


def test_prepared_predictions_belong_to_their_scorer(swords_test):
    one, other = Scorer.from_dataset("swords", "test"), Scorer.from_dataset("swords", "test")
    prepared = one.prepare(ranked(swords_test))
    assert one.score(prepared) == one.score(ranked(swords_test))
    with pytest.raises(MetricInputError, match="prepared by another Scorer"):
        other.score(prepared)


@pytest.mark.slow  # 6 s on two busy cores (load 4-6)
def test_a_run_over_part_of_a_split_is_scored_on_its_targets(coinco_test):
    """What `swords run` does when it reuses a finished run that covers some targets: those are scored, the
    others left out (not scored as empty answers), exactly as a Scorer of just those rows."""
    part = coinco_test[100:900]
    predictions = ranked(part)
    scorer = Scorer.from_dataset("coinco", "test")
    subset_scorer, prepared = scorer.restricted_to_given(scorer.prepare(predictions))
    expected = Scorer(part, split="test", config="coinco").score(predictions, bootstrap=100)
    assert subset_scorer.score(prepared, bootstrap=100) == expected
    assert expected["targets_scored"] == sum(not row["provenance"]["coinco_problematic"] for row in part)


@pytest.mark.parametrize(("key", "scheme"), [("upstream_id", "upstream"), ("id", "dataset")])
def test_compute_says_what_swords_evaluate_says_of_keyed_predictions(metric, key, scheme, tmp_path):
    """Predictions keyed by upstream (or dataset) ids over part of a split: compute() gives what `swords evaluate`
    gives on them in a file, `id_scheme` and the targets left out included; batches keyed alike keep the scheme,
    and lists in reference order (with None for a target left out) have none, as the Scorer says of them."""
    rows = swords_dataset.rows("semeval07", "trial")  # its dataset ids (semeval07:1) are not its upstream ids (t:…)
    predictions = {row[key]: [s["substitute"] for s in row["substitutes"]][::-1] for row in rows[:200]}
    path = tmp_path / "part.jsonl"
    path.write_text("".join(json.dumps({"id": k, "substitutes": v}) + "\n" for k, v in predictions.items()))
    done = swords(
        "evaluate", "--dataset", "semeval07", "--split", "trial", "--predictions", str(path), "--json", "--no-analysis"
    )
    assert done.returncode == 0, done.stderr
    told = json.loads(done.stdout)
    assert told["id_scheme"] == scheme and told["targets_not_in_predictions"] > 90  # 100 rows left out, some unscored
    assert metric.compute(predictions=predictions, references=rows, bootstrap=1000) == told
    first, rest = dict(list(predictions.items())[:100]), dict(list(predictions.items())[100:])
    metric.add_batch(predictions=first, references=rows[:100])
    metric.add_batch(predictions=rest, references=rows[100:])
    assert metric.compute(bootstrap=1000) == told  # two batches keyed alike: the scheme kept
    in_order = [predictions.get(row[key]) for row in rows]  # None: not in the predictions
    expected = Scorer(rows).score(in_order)
    assert (
        expected["id_scheme"] is None and expected["targets_not_in_predictions"] == told["targets_not_in_predictions"]
    )
    assert metric.compute(predictions=in_order, references=rows) == expected
    metric.add_batch(predictions=first, references=rows[:100])
    metric.add_batch(predictions=in_order[100:], references=rows[100:])
    assert metric.compute() == expected  # one batch keyed, one in order: no one scheme names the targets
