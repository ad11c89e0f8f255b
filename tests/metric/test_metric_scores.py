"""swords_metric's scores on SWORDS test: the published anchors (the thesaurus oracle reproduces the SWORDS paper's
Tables 4 and 8, through the Scorer, the `evaluate` module from the repository root and the package's own loader,
offline from anywhere), what the thresholds imply, the signature, bootstrap intervals and the paired test, the
per-POS breakdown, k, and errors from the API that name the target."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import swords_dataset
from swords_metric import MetricInputError, Scorer

from ..conftest import REPO_ROOT
from .conftest import THESAURUS_PUBLISHED


@pytest.fixture(scope="module")
def scorer(swords_test_rows):
    return Scorer(swords_test_rows, split="test")


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


def test_api_errors_name_the_target(scorer, swords_test_rows):
    tid = swords_test_rows[5]["id"]
    with pytest.raises(MetricInputError, match=f"target {tid}: item 1"):
        scorer.score({tid: ["ok", float("nan")]})
    with pytest.raises(MetricInputError, match="prediction lists for 762 references"):
        scorer.score([["a"]] * 3)
    with pytest.raises(MetricInputError, match="setting must be one of generative, ranking, got 'sorting'"):
        Scorer(swords_test_rows[:2], setting="sorting")
