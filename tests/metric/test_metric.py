"""swords_metric: the published anchors, its interfaces (core, evaluate, CLI), bad input and properties."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import swords_dataset
from swords_baselines.classic.thesaurus import thesaurus_substitutes
from swords_metric import MetricInputError, Scorer, read_predictions, write_predictions

from ..conftest import REPO_ROOT, run_swords


@pytest.fixture(scope="module")
def swords_test_rows(dataset_rows):
    return dataset_rows[("swords", "test")]


@pytest.fixture(scope="module")
def scorer(swords_test_rows):
    return Scorer(swords_test_rows, split="test")


@pytest.fixture(scope="module")
def thesaurus_oracle(swords_test_rows, sources_dir):
    """Roget's substitutes of the target lemma, senses whose POS includes the target's, thesaurus order."""
    return {
        row["id"]: [s for s in thesaurus_substitutes(row["target_lemma"], row["pos"]) if s.strip()]
        for row in swords_test_rows
    }


# SWORDS paper (arXiv version), thesaurus oracle on SWORDS v1.1 test: Table 4 (lenient F@10, Fc@10) and
# Table 8 (best, best-mode, oot, oot-mode recall; P@1 = strict conceivable precision at 1).
THESAURUS_PUBLISHED = {
    "lenient_a_f@10": 12.0,
    "lenient_c_f@10": 44.9,
    "best_r": 2.1,
    "best_mode_r": 7.9,
    "oot_r": 24.1,
    "oot_mode_r": 24.6,
    "strict_c_p@1": 63.0,
}


@pytest.mark.slow  # 4 s on two cores
def test_thesaurus_oracle_reproduces_tables_4_and_8(scorer, thesaurus_oracle):
    result = scorer.score(thesaurus_oracle)
    assert {name: round(result[name], 1) for name in THESAURUS_PUBLISHED} == THESAURUS_PUBLISHED
    assert result["targets_scored"] == 762 and result["targets_without_predictions"] == 0


@pytest.mark.slow  # 4 s on two cores
def test_evaluate_module_from_the_repository_root_gives_the_same_numbers(
    swords_test_rows, thesaurus_oracle, monkeypatch
):
    import evaluate

    monkeypatch.chdir(REPO_ROOT)
    metric = evaluate.load("swords_metric")
    test = swords_dataset.load("swords", split="test")
    predictions = [thesaurus_oracle[row_id] for row_id in test["id"]]
    result = metric.compute(predictions=predictions, references=test)
    assert {name: round(result[name], 1) for name in THESAURUS_PUBLISHED} == THESAURUS_PUBLISHED
    # add_batch in pieces gives the same as one compute
    metric.add_batch(predictions=predictions[:300], references=test.select(range(300)))
    metric.add_batch(predictions=predictions[300:], references=test.select(range(300, len(test))))
    assert metric.compute()["lenient_c_f@10"] == result["lenient_c_f@10"]
    # scored items ({"substitute", "score"}) rank by score
    scored = [[{"substitute": s, "score": float(-i)} for i, s in enumerate(p)] for p in predictions]
    assert metric.compute(predictions=scored, references=test.to_list())["gap"] == result["gap"]


@pytest.mark.slow  # 7 s on two cores
def test_package_helper_loads_the_module_offline_from_anywhere(tmp_path):
    code = (
        "import swords_dataset, swords_metric\n"
        "test = swords_dataset.load('semeval07', split='trial')\n"
        "r = swords_metric.load().compute(predictions=[[s['substitute'] for s in row['substitutes']] for row in test],"
        " references=test)\n"
        "print(round(r['lenient_c_p@10'], 6), r['targets_scored'], sum(bool(row['substitutes']) for row in test))\n"
    )
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_CACHE": str(tmp_path / "cache"),
        "HF_MODULES_CACHE": str(tmp_path / "modules"),
    }
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    # The gold substitutes themselves: every prediction is a conceivable reference.
    precision, scored, with_gold = result.stdout.split()
    assert precision == "100.0" and scored == with_gold == "300"


# --- Behaviour ----------------------------------------------------------------------------------------


def test_reference_as_prediction_scores_what_the_thresholds_imply(scorer, swords_test_rows):
    from swords_metric import lemmatize

    def predict(keep):
        """For every kept reference lemma, a substitute the reference itself wrote that lemmatizes to it
        (predictions are lemmatized again, and lemmatizing a lemma is not always the identity)."""
        predictions = {}
        for row, ref in zip(swords_test_rows, scorer.references, strict=True):
            written = {lemmatize(s["substitute"], row["pos"]): s["substitute"] for s in row["substitutes"]}
            kept = sorted((i for i in range(len(ref.lemmas)) if keep(ref.score(i))), key=lambda i: -ref.score(i))
            predictions[row["id"]] = [written[ref.lemmas[i]] for i in kept]
        return predictions

    acceptable = scorer.score(predict(lambda score: score > 0.5), by_pos=False)
    assert acceptable["strict_a_p@10"] == acceptable["strict_a_r@10"] == 100.0
    assert acceptable["lenient_a_rs@10"] < 100.0  # some targets have more than 10 acceptable substitutes
    conceivable = scorer.score(predict(lambda score: score >= 0.1), by_pos=False)
    assert conceivable["strict_c_p@10"] == conceivable["strict_c_r@10"] == 100.0
    assert conceivable["strict_a_r@10"] == 100.0 > conceivable["strict_a_p@10"]
    everything = scorer.score(predict(lambda score: True), by_pos=False)
    assert everything["lenient_c_p@10"] == everything["strict_c_p@10"] < 100.0


def test_no_predictions_gives_zeros_not_errors(scorer):
    result = scorer.score({}, by_pos=False)
    assert result["targets_without_predictions"] == 762
    assert all(result[name] == 0.0 for name in ("lenient_a_f@10", "strict_c_p@1", "gap", "best_p", "oot_r"))


def test_signature_records_what_decides_the_numbers(scorer):
    signature = scorer.score({}, bootstrap=10, seed=3, by_pos=False)["signature"]
    for part in (
        "bench:swords-v1.1",
        "split:test",
        "setting:generative",
        "k:10",
        "acc:>0.5",
        "conc:>=0.1",
        "lemma:wordnet3.0+nltk3.5-morphy",
        "targets:762",
        "bootstrap:10,seed:3",
        "swords-metric:",
    ):
        assert part in signature


def test_bootstrap_intervals_are_seeded_and_contain_the_estimate(scorer, thesaurus_oracle):
    first = scorer.score(thesaurus_oracle, bootstrap=200, seed=7, by_pos=False)
    again = scorer.score(thesaurus_oracle, bootstrap=200, seed=7, by_pos=False)
    assert first["confidence_intervals"] == again["confidence_intervals"]
    for name, (low, high) in first["confidence_intervals"].items():
        assert low <= first[name] <= high and high - low > 0.1


def test_paired_test_separates_a_system_from_its_truncation(scorer, thesaurus_oracle):
    truncated = {tid: items[:3] for tid, items in thesaurus_oracle.items()}
    comparison = scorer.compare(thesaurus_oracle, truncated, bootstrap=300)["metrics"]
    assert comparison["gap"]["difference"] > 0 and comparison["gap"]["p_value"] < 0.01
    same = scorer.compare(thesaurus_oracle, thesaurus_oracle, bootstrap=100)["metrics"]
    assert same["gap"]["difference"] == 0 and same["gap"]["p_value"] == 1.0


def test_per_pos_breakdown_adds_up(scorer, thesaurus_oracle):
    result = scorer.score(thesaurus_oracle)
    assert sum(m["targets_scored"] for m in result["by_pos"].values()) == 762
    assert set(result["by_pos"]) == {"NOUN", "VERB", "ADJ", "ADV"}


def test_k_is_configurable(swords_test_rows, thesaurus_oracle):
    result = Scorer(swords_test_rows, k=5).score(thesaurus_oracle, by_pos=False)
    assert "lenient_a_f@5" in result and "lenient_a_f@10" not in result


# --- Properties (hypothesis) ----------------------------------------------------------------------------

SMALL = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def small_rows(swords_test_rows):
    return swords_test_rows[:40]


@SMALL
@given(data=st.data())
def test_permuting_targets_changes_nothing(small_rows, data):
    rng_order = data.draw(st.permutations(range(len(small_rows))))
    predictions = {row["id"]: [s["substitute"] for s in row["substitutes"][::3]] for row in small_rows}
    base = Scorer(small_rows).score(predictions, by_pos=False)
    shuffled = Scorer([small_rows[i] for i in rng_order]).score(predictions, by_pos=False)
    for name, value in base.items():
        if isinstance(value, float):
            assert math.isclose(value, shuffled[name], abs_tol=1e-9), name


@SMALL
@given(data=st.data())
def test_adding_a_substitute_outside_the_reference_never_raises_strict_precision(small_rows, data):
    scorer = Scorer(small_rows)
    row = data.draw(st.sampled_from(small_rows))
    pool = [s["substitute"] for s in row["substitutes"]]
    chosen = data.draw(st.lists(st.sampled_from(pool), max_size=12, unique=True))
    position = data.draw(st.integers(0, len(chosen)))
    outsider = "zzxqv" + data.draw(st.text(alphabet="abcdefgh", min_size=1, max_size=6))
    before = scorer.score({row["id"]: chosen}, by_pos=False)
    after = scorer.score({row["id"]: chosen[:position] + [outsider] + chosen[position:]}, by_pos=False)
    for name in ("strict_a_p@10", "strict_c_p@10", "strict_c_p@1"):
        assert after[name] <= before[name] + 1e-9, name


# --- Files and the CLI ------------------------------------------------------------------------------------


def run_evaluate(*args: str) -> subprocess.CompletedProcess:
    return run_swords("evaluate", *args)


@pytest.fixture(scope="module")
def thesaurus_files(thesaurus_oracle, tmp_path_factory):
    folder = tmp_path_factory.mktemp("predictions")
    ranked = {tid: [(s, -float(i)) for i, s in enumerate(items)] for tid, items in thesaurus_oracle.items()}
    write_predictions(folder / "thesaurus.json", ranked, substitutes_lemmatized=False)
    write_predictions(folder / "thesaurus.jsonl", ranked)
    write_predictions(folder / "top3.jsonl.gz", {tid: items[:3] for tid, items in ranked.items()})
    return folder


def test_both_file_formats_round_trip(thesaurus_files, thesaurus_oracle):
    upstream, meta = read_predictions(thesaurus_files / "thesaurus.json")
    jsonl, meta_jsonl = read_predictions(thesaurus_files / "thesaurus.jsonl")
    assert meta["format"] == "upstream" and meta_jsonl["format"] == "jsonl"
    assert upstream == jsonl
    assert [s for s, _ in upstream[next(iter(thesaurus_oracle))]] == next(iter(thesaurus_oracle.values()))


def test_cli_json_matches_the_published_figures(thesaurus_files):
    result = run_evaluate(
        "--dataset",
        "swords",
        "--split",
        "test",
        "--predictions",
        str(thesaurus_files / "thesaurus.json"),
        "--json",
        "--bootstrap",
        "0",
    )
    assert result.returncode == 0, result.stderr
    metrics = json.loads(result.stdout)
    assert {name: round(metrics[name], 1) for name in THESAURUS_PUBLISHED} == THESAURUS_PUBLISHED


def test_cli_table_and_compare(thesaurus_files):
    table = run_evaluate("--predictions", str(thesaurus_files / "thesaurus.jsonl"), "--bootstrap", "50")
    assert table.returncode == 0, table.stderr
    assert "lenient   12.00" in table.stdout and "signature: swords-metric" in table.stdout
    compare = run_evaluate(
        "--compare",
        str(thesaurus_files / "thesaurus.jsonl"),
        str(thesaurus_files / "top3.jsonl.gz"),
        "--bootstrap",
        "100",
    )
    assert compare.returncode == 0, compare.stderr
    assert "gap" in compare.stdout and "A - B" in compare.stdout


BAD_FILES = {
    "unknown-id.jsonl": ('{"id": "t:nope", "substitutes": ["a"]}\n', "not in swords test"),
    "non-string.jsonl": (None, "is not a string"),
    "nan.json": (None, "is NaN"),
    "text-score.jsonl": (None, "'high' is not a number"),
    "shape.json": ("[1, 2, 3]", "expected a JSON object"),
    "substitutes-list.json": ('{"substitutes_lemmatized": true, "substitutes": [1, 2]}', "must map target ids"),
    "no-substitutes.json": ('{"substitutes_lemmatized": false}', "needs 'substitutes'"),
    "duplicate-key.json": (None, "appears twice in one JSON object"),
    "bad-line.jsonl": (None, ":2: not JSON"),
    "missing-key.jsonl": ('{"substitutes": []}\n', ":1: expected an object with 'id'"),
    "duplicate.jsonl": (None, "appears twice"),
    "empty.jsonl": ("", "empty file"),
    "binary.jsonl": (b'{"id": "x",\n "substitutes": ["\xff"]}', ":2: not UTF-8 text (byte 0xff"),
    "huge-int.jsonl": (None, "too large"),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
@pytest.mark.slow  # 6 s on two cores
def test_bad_prediction_files_get_one_clear_line(name, swords_test_rows, tmp_path):
    tid = swords_test_rows[0]["id"]
    content, message = BAD_FILES[name]
    generated = {
        "non-string.jsonl": json.dumps({"id": tid, "substitutes": [["word", 1.0], [7, 0.5]]}) + "\n",
        # Python's json writes NaN and Infinity, as a careless producer would.
        "nan.json": json.dumps({"substitutes_lemmatized": True, "substitutes": {tid: [["word", float("nan")]]}}),
        "text-score.jsonl": json.dumps({"id": tid, "substitutes": [["word", "high"]]}) + "\n",
        "duplicate-key.json": f'{{"substitutes": {{"{tid}": ["a"], "{tid}": ["b"]}}}}',
        "huge-int.jsonl": f'{{"id": "{tid}", "substitutes": [["word", 1{"0" * 400}]]}}\n',
        "bad-line.jsonl": json.dumps({"id": tid, "substitutes": []}) + "\n{oops\n",
        "duplicate.jsonl": (json.dumps({"id": tid, "substitutes": []}) + "\n") * 2,
    }
    content = generated.get(name, content)
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    result = run_evaluate("--predictions", str(path), "--bootstrap", "0")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert message in lines[0] and (name in lines[0] or "not in" in lines[0])


def test_a_file_for_another_dataset_is_named_as_such(thesaurus_files):
    result = run_evaluate("--dataset", "coinco", "--predictions", str(thesaurus_files / "thesaurus.json"))
    # 55 SWORDS test targets are CoInCo test targets under the same upstream id (same context, word, POS).
    assert result.returncode == 2 and "707 of 762 target ids are not in coinco test" in result.stderr
    assert "an upstream SWORDS id" in result.stderr and "are ids of swords test" in result.stderr
    assert "(use --dataset swords --split test)" in result.stderr and len(result.stderr.splitlines()) == 1


def test_unknown_split_is_one_line():
    result = run_evaluate("--dataset", "semeval07", "--split", "dev", "--predictions", "x.jsonl")
    assert result.returncode == 2 and "has no split 'dev'" in result.stderr


def test_api_errors_name_the_target(scorer, swords_test_rows):
    tid = swords_test_rows[5]["id"]
    with pytest.raises(MetricInputError, match=f"target {tid}: item 1"):
        scorer.score({tid: ["ok", float("nan")]})
    with pytest.raises(MetricInputError, match="prediction lists for 762 references"):
        scorer.score([["a"]] * 3)
    with pytest.raises(MetricInputError, match="unknown setting"):
        Scorer(swords_test_rows[:2], setting="sorting")
