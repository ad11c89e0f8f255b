"""The details file and the summary describe exactly what the metric counted, on real systems on SWORDS test
(the thesaurus oracle, the `wordnet` baseline, the CoInCo oracle and the default system): one record per
predicted substitute; the substitutes classed acceptable (conceivable) in each top-k, summed as the metric sums
them, give its precision to the last bit, the target records' denominators its recall, and the per-target
figures aggregated as the metric aggregates them its P, R and F."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from swords_metric import Scorer, read_predictions

from .real_systems import SYSTEM_PARAMS

PR_FAMILY_NAMES = ("lenient_a", "lenient_c", "strict_a", "strict_c")


@pytest.fixture(scope="module")
def scorer() -> Scorer:
    return Scorer.from_dataset("swords", "test")


def details_of(scorer: Scorer, predictions, path: Path):
    """(prepared predictions, header, substitute records, target records) with the details written to path."""
    if isinstance(predictions, Path):
        prepared = scorer.read(predictions, details=path)
    else:
        prepared = scorer.prepare(predictions, details=path)
    header, *records = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return (
        prepared,
        header,
        [r for r in records if r["kind"] == "substitute"],
        [r for r in records if r["kind"] == "target"],
    )


def given_lists(predictions) -> dict[str, list]:
    return read_predictions(predictions)[0] if isinstance(predictions, Path) else predictions


@pytest.mark.parametrize("name", SYSTEM_PARAMS)
@pytest.mark.slow  # 7 s on two cores
def test_details_reproduce_the_metric_on_real_systems(name, real_systems, scorer, tmp_path):
    if name not in real_systems:
        pytest.skip(f"{name}: its data is not available here")
    predictions = real_systems[name]
    prepared, header, substitutes, targets = details_of(scorer, predictions, tmp_path / "details.jsonl")
    result = scorer.score(prepared)
    assert header["kind"] == "header" and header["signature"] == result["signature"] and header["k"] == 10

    # One record per predicted substitute, one target record per scored target.
    given = given_lists(predictions)
    assert len(substitutes) == sum(len(given.get(row["id"], [])) for row in scorer.rows) > 5000
    assert len(targets) == result["targets_scored"] == 762
    by_target = defaultdict(list)
    for record in substitutes:
        by_target[record["id"]].append(record)

    # Precision: the records in each top-k classed acceptable (or conceivable), summed over targets.
    for setting, flag in (("strict", "in_strict_top_k"), ("lenient", "in_lenient_top_k")):
        top = [r for r in substitutes if r[flag]]
        classes = Counter(r["class"] for r in top)
        acceptable, conceivable = classes["acceptable"], classes["acceptable"] + classes["conceivable"]
        assert 100.0 * acceptable / len(top) == result[f"{setting}_a_p@10"]
        assert 100.0 * conceivable / len(top) == result[f"{setting}_c_p@10"]
        # Recall: the same hits over the target records' min(k, |gold|).
        assert 100.0 * acceptable / sum(t[f"{setting}_a_reference_k"] for t in targets) == result[f"{setting}_a_r@10"]
        assert 100.0 * conceivable / sum(t[f"{setting}_c_reference_k"] for t in targets) == result[f"{setting}_c_r@10"]

    # The per-target figures aggregated as the metric aggregates them.
    for family in PR_FAMILY_NAMES:
        hits = sum(t[f"{family}_hits"] for t in targets)
        p = 100.0 * hits / sum(t[f"{family}_predicted"] for t in targets)
        r = 100.0 * hits / sum(t[f"{family}_reference_k"] for t in targets)
        assert (p, r, 2 * p * r / (p + r)) == tuple(result[f"{family}_{m}@10"] for m in "prf")
        assert 100.0 * hits / sum(t[f"{family}_reference"] for t in targets) == result[f"{family}_rs@10"]
    gaps = [t["gap"] for t in targets if t["gap"] is not None]
    assert sum(gaps) / len(gaps) == pytest.approx(result["gap"], abs=1e-9)

    # Each target record agrees with its substitute records: the strict top-k in rank order, the counts.
    for target in targets:
        records = by_target[target["id"]]
        counted = sorted((r for r in records if r["rank"] is not None), key=lambda r: r["rank"])
        assert [r["lemma"] for r in counted[:10]] == target["top"]
        assert target["substitutes_given"] == len(records) and target["substitutes_counted"] == len(counted)
        strict = [r for r in records if r["in_strict_top_k"]]
        assert target["strict_a_hits"] == sum(r["class"] == "acceptable" for r in strict)
        assert target["strict_a_predicted"] == len(strict) == min(10, len(counted))

    # What was dropped is what the metric's own input notes count.
    notes = result["input_notes"]
    assert sum(r["dropped"] == "target" for r in substitutes) == notes["target_copies"]
    assert sum(r["dropped"] == "duplicate" and not r["empty"] for r in substitutes) == notes["duplicates"]
    assert sum(r["empty"] for r in substitutes) == notes["empty_substitutes"]


@pytest.mark.parametrize("name", SYSTEM_PARAMS)
def test_the_summary_reproduces_strict_precision(name, real_systems, scorer):
    if name not in real_systems:
        pytest.skip(f"{name}: its data is not available here")
    predictions = real_systems[name]
    prepared = scorer.read(predictions) if isinstance(predictions, Path) else scorer.prepare(predictions)
    result = scorer.score(prepared)
    analysis = scorer.analyze(prepared, relations=False)
    by_pos = result["by_pos"]
    groups = [(analysis["all"], result), *((analysis["by_pos"][pos], metrics) for pos, metrics in by_pos.items())]
    for group, metrics in groups:
        classes = group["classes"]
        assert group["class_shares"]["acceptable"] == metrics["strict_a_p@10"]
        assert (
            100.0 * (classes["acceptable"] + classes["conceivable"]) / group["substitutes"] == metrics["strict_c_p@10"]
        )
        assert group["targets"] == metrics["targets_scored"]
    sizes = analysis["by_gold_size"]
    assert sum(g["substitutes"] for g in sizes.values()) == analysis["all"]["substitutes"]
    assert sizes["0"]["classes"]["acceptable"] == 0  # a target without acceptable substitutes has none to hit
    worst = analysis["worst_targets"]
    assert len(worst) == 5 and all(t["acceptable"] > 0 for t in worst)
    assert [t["lenient_a_f"] for t in worst] == sorted(t["lenient_a_f"] for t in worst)
