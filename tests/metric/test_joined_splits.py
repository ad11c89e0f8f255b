"""Two splits scored together, as LexSubGen's tables pool them (CoInCo dev+test without the problematic targets,
SemEval-2007 trial+test): each target is scored as in its own split, so every figure of the joined split is the
pooled per-target scores of the two, micro-averaged figures by their pooled counts and macro-averaged ones
(GAP, LexSubGen's) by their pooled per-target values."""

from __future__ import annotations

import json

import pytest

import swords_dataset
from swords_baselines.classic.wordnet import wordnet_substitutes
from swords_lexsub.errors import SwordsError
from swords_metric import Scorer

from ..conftest import run_swords


@pytest.fixture(scope="module")
def semeval_wordnet() -> dict[str, list[str]]:
    """The `wordnet` baseline on SemEval-2007 trial and test, keyed by the dataset's ids of both."""
    return {
        row["id"]: wordnet_substitutes(row)
        for split in ("trial", "test")
        for row in swords_dataset.rows("semeval07", split)
    }


@pytest.mark.slow  # 4 s on two busy cores (load 4-6)
def test_trial_plus_test_is_the_pooled_scores_of_trial_and_test(semeval_wordnet):
    joined = Scorer.from_dataset("semeval07", "trial+test")
    trial, test = Scorer.from_dataset("semeval07", "trial"), Scorer.from_dataset("semeval07", "test")
    together = joined.target_scores(semeval_wordnet)
    apart = [
        scorer.target_scores({t: semeval_wordnet[t] for t in semeval_wordnet if t in scorer.position})
        for scorer in (trial, test)
    ]
    assert together.ids == apart[0].ids + apart[1].ids  # every target, as in its own split
    for name, column in together.columns.items():
        assert column == apart[0].columns[name] + apart[1].columns[name], name
    result = joined.score(semeval_wordnet, by_pos=False)
    assert result["signature"].split("|")[2:3] == ["split:trial+test"]
    assert result["targets_scored"] == len(apart[0]) + len(apart[1]) == 2003  # 300 trial + 1,703 test
    # Micro-averaged: lenient P@10 against acceptable is pooled hits over pooled predictions.
    hits = sum(sum(t.columns["lenient_a:hits"]) for t in apart)
    predicted = sum(sum(t.columns["lenient_a:n_pred"]) for t in apart)
    assert result["lenient_a_p@10"] == pytest.approx(100 * hits / predicted, abs=1e-9)
    # Macro-averaged: LexSubGen's figures are the mean over both splits' targets with gold, i.e. each split's
    # figure weighted by its number of such targets.
    separate = [
        scorer.score({t: semeval_wordnet[t] for t in semeval_wordnet if t in scorer.position}, by_pos=False)
        for scorer in (trial, test)
    ]
    counts = [sum(t.columns["lexsubgen:targets"]) for t in apart]
    for name in ("lexsubgen_p@1", "lexsubgen_p@3", "lexsubgen_r@10", "gap"):
        weights = counts if name.startswith("lexsubgen") else [sum(t.columns["gap_defined"]) for t in apart]
        pooled = sum(w * s[name] for w, s in zip(weights, separate, strict=True)) / sum(weights)
        assert result[name] == pytest.approx(pooled, abs=1e-9), name
    assert separate[0]["lexsubgen_p@1"] != separate[1]["lexsubgen_p@1"]  # a pooled figure, not either split's


def test_rows_of_two_splits_one_after_the_other_are_signed_as_the_joined_split():
    rows = swords_dataset.rows("semeval07", "trial") + swords_dataset.rows("semeval07", "test")
    assert "|split:trial+test|" in Scorer(rows).signature()
    assert "|split:custom|" in Scorer(rows[:-1]).signature()  # not the two whole splits: not signed so


@pytest.mark.slow  # 10 s on two cores
def test_swords_evaluate_scores_coinco_dev_plus_test_keyed_by_either_splits_ids(tmp_path):
    # 20 targets of each split, keyed by the dataset's ids, each answered with its gold reversed.
    answered = {
        split: {
            row["id"]: [s["substitute"] for s in row["substitutes"]][::-1]
            for row in swords_dataset.rows("coinco", split)[:20]
        }
        for split in ("dev", "test")
    }
    path = tmp_path / "both.jsonl"
    path.write_text(
        "".join(
            json.dumps({"id": target, "substitutes": substitutes}) + "\n"
            for split in answered
            for target, substitutes in answered[split].items()
        )
    )
    result = run_swords(
        "evaluate", "--dataset", "coinco", "--split", "dev+test", "--predictions", str(path), "--json", "--no-analysis"
    )
    assert result.returncode == 0, result.stderr
    metrics = json.loads(result.stdout)
    assert "|split:dev+test|" in metrics["signature"] and "problematic:excluded" in metrics["signature"]
    assert metrics["targets_scored"] == 10027 + 5388  # CoInCo dev and test without their problematic targets
    # Pooled: each split's figure over its own targets, weighted by its number of targets (all have gold).
    apart = {split: Scorer.from_dataset("coinco", split).score(answered[split], by_pos=False) for split in answered}
    assert [apart[split]["targets_scored"] for split in ("dev", "test")] == [10027, 5388]
    for name in ("lexsubgen_p@1", "lexsubgen_r@10"):
        pooled = (apart["dev"][name] * 10027 + apart["test"][name] * 5388) / 15415
        assert metrics[name] == pytest.approx(pooled, abs=1e-9) and metrics[name] > 0, name


@pytest.mark.parametrize(
    "config,split,said",
    [
        (
            "coinco",
            "dev+trial",
            "config 'coinco' has no split 'dev+trial': 'trial' is not one of its splits; combine "
            "its splits as dev+test",
        ),
        ("semeval07", "test+test", "config 'semeval07' has no split 'test+test': a split is named twice"),
        (
            "swords_test_subset",
            "test+dev",
            "config 'swords_test_subset' has no split 'test+dev': 'dev' is not one of "
            "its splits; it has one split, test",
        ),
    ],
)
def test_an_unknown_combination_is_one_clear_line(config, split, said, tmp_path):
    with pytest.raises(SwordsError) as error:
        Scorer.from_dataset(config, split)
    assert said in str(error.value)
    path = tmp_path / "p.jsonl"
    path.write_text("")
    result = run_swords("evaluate", "--dataset", config, "--split", split, "--predictions", str(path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert said in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
