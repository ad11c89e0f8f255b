"""Every form a prediction can take, in every interface (Scorer, the `evaluate` module, `swords evaluate`,
`--compare`, the Space's upload), keyed by either id scheme, on CoInCo test: the same numbers everywhere, CoInCo's
problematic targets left out or included alike, a partial file scored with the rest as empty answers, mixed or
misdirected ids one clear error, and the bootstrap's count checked."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import swords_dataset
from swords_metric import MetricInputError, Scorer, UnknownTargetsError

from ..conftest import run_swords


@pytest.fixture(scope="module")
def coinco_rows(dataset_rows):
    """CoInCo test as `swords_dataset.load` gives it (conftest's `coinco_test` is `swords_dataset.rows`'s)."""
    return dataset_rows[("coinco", "test")]


@pytest.fixture(scope="module")
def coinco_scorer(coinco_rows):
    return Scorer(coinco_rows, split="test", config="coinco")


@pytest.fixture(scope="module")
def system(coinco_rows) -> dict[str, list[tuple[str, float]]]:
    """A seeded system on CoInCo test, every target, with ties, duplicates and the target itself."""
    rng = random.Random(8)
    predictions = {}
    for row in coinco_rows:
        words = [s["substitute"] for s in row["substitutes"]] + list(row["candidates"][:6]) + [row["target"]]
        rng.shuffle(words)
        predictions[row["id"]] = [(word, float(rng.randrange(3))) for word in words]
    return predictions


def metrics(result: dict) -> dict[str, float]:
    return {key: value for key, value in result.items() if isinstance(value, float)}


def evaluate_file(path, *options) -> dict:
    done = run_swords(
        "evaluate",
        "--dataset",
        "coinco",
        "--split",
        "test",
        "--predictions",
        str(path),
        "--bootstrap",
        "0",
        "--json",
        *options,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow  # every input form through every interface: about a minute
def test_every_form_gives_the_cli_numbers(coinco_rows, system, tmp_path):
    import swords_metric

    by_upstream = {row["upstream_id"]: [[s, score] for s, score in system[row["id"]]] for row in coinco_rows}
    path = tmp_path / "upstream.json"
    path.write_text(json.dumps({"substitutes_lemmatized": False, "substitutes": by_upstream}))
    cli = metrics(evaluate_file(path))
    assert cli["lenient_a_f@10"] > 10

    test = swords_dataset.load("coinco", split="test")
    metric = swords_metric.load()
    ranked = [[s for s, _ in sorted(system[row["id"]], key=lambda pair: -pair[1])] for row in coinco_rows]
    forms = {
        "pairs": [[[s, score] for s, score in system[row["id"]]] for row in coinco_rows],
        "tuples": [[(s, score) for s, score in system[row["id"]]] for row in coinco_rows],
        "dicts": [[{"substitute": s, "score": score} for s, score in system[row["id"]]] for row in coinco_rows],
        "numpy pairs": [np.array([[s, score] for s, score in system[row["id"]]], dtype=object) for row in coinco_rows],
        "mapping by dataset id": {row["id"]: system[row["id"]] for row in coinco_rows},
        "mapping by upstream id": by_upstream,
    }
    for name, predictions in forms.items():
        for references in (test, coinco_rows):
            assert metrics(metric.compute(predictions=predictions, references=references)) == cli, name
        assert metrics(Scorer(coinco_rows, split="test").score(predictions, by_pos=False)) == cli, name
    # Ranked strings (and numpy arrays of them) rank by position: equal to the pairs once ties are broken
    # the way the stable sort breaks them.
    strings = metrics(metric.compute(predictions=ranked, references=test))
    assert metrics(metric.compute(predictions=[np.array(r) for r in ranked], references=test)) == strings
    assert metrics(metric.compute(predictions=[[np.str_(s) for s in r] for r in ranked], references=test)) == strings
    assert strings == cli
    jsonl = tmp_path / "ranked.jsonl"
    jsonl.write_text(
        "".join(
            json.dumps({"id": row["id"], "substitutes": r}) + "\n" for row, r in zip(coinco_rows, ranked, strict=True)
        )
    )
    assert metrics(evaluate_file(jsonl)) == cli


@pytest.mark.slow  # 11 s on two cores
def test_include_problematic_agrees_across_interfaces(coinco_rows, system, tmp_path):
    import swords_metric

    path = tmp_path / "all.jsonl"
    path.write_text("".join(json.dumps({"id": tid, "substitutes": items}) + "\n" for tid, items in system.items()))
    default, everything = evaluate_file(path), evaluate_file(path, "--include-problematic")
    assert (default["targets_scored"], everything["targets_scored"]) == (5388, 5450)
    assert default["predictions_for_skipped_targets"] == 62 and default["targets_skipped"] == 62
    assert everything["targets_skipped"] == 0 and "problematic:included" in everything["signature"]
    metric = swords_metric.load()
    predictions = [system[row["id"]] for row in coinco_rows]
    assert metrics(metric.compute(predictions=predictions, references=coinco_rows)) == metrics(default)
    included = metric.compute(predictions=predictions, references=coinco_rows, include_problematic=True)
    assert metrics(included) == metrics(everything)
    scorer = Scorer(coinco_rows, split="test", include_problematic=True)
    assert metrics(scorer.score(system, by_pos=False)) == metrics(everything)


@pytest.mark.slow  # 9 s on two cores
def test_the_space_scores_upstream_keyed_uploads_as_the_cli(coinco_rows, system, tmp_path):
    score = pytest.importorskip("swords_space.tabs.score")
    by_upstream = {row["upstream_id"]: [[s, x] for s, x in system[row["id"]]] for row in coinco_rows}
    path = tmp_path / "upstream.json"
    path.write_text(json.dumps({"substitutes_lemmatized": False, "substitutes": by_upstream}))
    for options, flag in (((), False), (("--include-problematic",), True)):
        cli = evaluate_file(path, *options)
        shown = score.score_predictions(str(path), None, "coinco test", bootstrap=0, include_problematic=flag)
        assert metrics(shown.result) == metrics(cli)
    assert "upstream SWORDS library's target ids" in shown.summary()


@pytest.mark.slow  # 3.1 s on two quiet cores
def test_compare_reads_either_scheme_and_says_when_coverage_differs(coinco_rows, system, tmp_path):
    upstream = tmp_path / "a.json"
    upstream.write_text(json.dumps({"substitutes": {row["upstream_id"]: system[row["id"]] for row in coinco_rows}}))
    half = tmp_path / "b.jsonl"
    half.write_text(
        "".join(json.dumps({"id": row["id"], "substitutes": system[row["id"]][:3]}) + "\n" for row in coinco_rows[::2])
    )
    done = run_swords(
        "evaluate",
        "--dataset",
        "coinco",
        "--split",
        "test",
        "--compare",
        str(upstream),
        str(half),
        "--bootstrap",
        "200",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["coverage"]["a"] == 5388 and result["coverage"]["both"] == result["coverage"]["b"] < 2700
    assert "cover different targets" in done.stderr
    refused = run_swords(
        "evaluate", "--dataset", "coinco", "--split", "test", "--compare", str(upstream), str(half), "--bootstrap", "0"
    )
    assert refused.returncode == 2 and "between 100 and" in refused.stderr


def test_mixed_and_misdirected_ids_are_one_clear_error(coinco_rows, dataset_rows, coinco_scorer):
    mixed = {coinco_rows[0]["id"]: ["a"], coinco_rows[1]["upstream_id"]: ["b"]}
    with pytest.raises(MetricInputError, match="mixes 1 dataset ids .* and 1 upstream SWORDS ids"):
        coinco_scorer.score(mixed)
    dev = {row["upstream_id"]: ["x"] for row in dataset_rows[("coinco", "dev")][:40]}
    owner = "an upstream SWORDS id.*are upstream SWORDS ids of coinco dev"
    with pytest.raises(UnknownTargetsError, match=owner) as error:
        coinco_scorer.score(dev)
    assert error.value.belongs_to == ("coinco", "dev")
    semeval = {row["id"]: ["x"] for row in dataset_rows[("semeval07", "trial")][:10]}
    with pytest.raises(UnknownTargetsError, match="a dataset id.*dataset ids of semeval07 trial"):
        coinco_scorer.score(semeval)
    with pytest.raises(UnknownTargetsError, match="an id of neither scheme.*no shipped benchmark split has them"):
        coinco_scorer.score({"42": ["x"]})


@pytest.mark.slow  # 4 s on two cores
def test_a_partial_file_is_scored_with_the_rest_as_empty_answers(coinco_rows, system, tmp_path):
    path = tmp_path / "partial.jsonl"
    path.write_text(
        "".join(json.dumps({"id": row["id"], "substitutes": system[row["id"]]}) + "\n" for row in coinco_rows[:1000])
    )
    done = run_swords(
        "evaluate", "--dataset", "coinco", "--split", "test", "--predictions", str(path), "--bootstrap", "0"
    )
    assert done.returncode == 0, done.stderr
    scored_in_file = sum(not row["provenance"]["coinco_problematic"] for row in coinco_rows[:1000])
    assert f"{5388 - scored_in_file:,} of 5,388 scored targets are not in" in done.stderr
    empty = {row["id"]: system[row["id"]] if i < 1000 else [] for i, row in enumerate(coinco_rows)}
    expected = Scorer(coinco_rows, split="test").score(empty, by_pos=False)
    assert expected["targets_not_in_predictions"] == 0
    assert metrics(evaluate_file(path)) == metrics(expected)


@pytest.mark.parametrize("bad", [-1, 1.5, "10", True, 10**7])
def test_bootstrap_must_be_a_sensible_count(coinco_scorer, bad):
    with pytest.raises(MetricInputError, match="bootstrap must be"):
        coinco_scorer.score({}, bootstrap=bad)
