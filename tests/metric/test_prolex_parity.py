"""ProLex's precision, recall and F at k against its own evaluate.py (its Evaluator, taken from the file as it is and
run without the spaCy model it cannot get here; see family_sources.py): its whole hard evaluation (reading the gold
CSV and a predictions CSV, then calculate_metrics) on the real outputs its authors ship (the example predictions;
ParaLS's best and oot outputs, dev and test), and on systems built from the gold for the cases it treats in its own
way (repeats within the first k, case, multiword answers, answers with a comma, more than k answers); empty
answers, which its CSV reading cannot take, through calculate_metrics itself. Every figure is equal to the bit, as
it prints them. Our side reads the rows (in the shared schema, built from the raw files) and the CSV as `swords
evaluate` does."""

from __future__ import annotations

import pytest

from swords_metric import scorer_for

from .family_sources import (
    PROLEX_DATA,
    need,
    parals_answers,
    prolex_gold_file,
    prolex_official,
    prolex_rows,
    write_prolex_predictions,
)

KS = (10, 5, 1)


def figures(result: dict, k: int) -> dict[str, list[float]]:
    return {f"{aspect}@{k}": [result[f"{aspect}_{m}@{k}"] for m in "prf"] for aspect in ("acc", "prof")}


def ours(rows: list[dict], path, k: int) -> dict:
    scorer = scorer_for(rows, k=k)
    return scorer.score(scorer.read(path))


@pytest.fixture(scope="module")
def rows() -> dict[str, list[dict]]:
    return {split: prolex_rows(split) for split in ("dev", "test")}


def gold_edge_answers(row: dict, number: int) -> list[str]:
    acceptable = [s["substitute"] for s in row["substitutes"] if "acceptable" in s["labels"]]
    others = [s["substitute"] for s in row["substitutes"] if "acceptable" not in s["labels"]]
    case = number % 6
    if case == 0:
        return [acceptable[0], acceptable[0], *others, *acceptable]  # a repeat within the first k counts once
    if case == 1:
        return [word.upper() for word in acceptable] + acceptable[:1]  # case: matched exactly
    if case == 2:
        return [" ".join(acceptable[:2]), *acceptable[1:]]  # a multiword answer
    if case == 3:
        return [",".join(acceptable[:2]), *others]  # a comma without a space: one answer, as evaluate.py splits
    if case == 4:
        return [f"filler{i}" for i in range(12)] + acceptable  # more than k answers, the gold after them
    return acceptable[::-1]


@pytest.mark.slow  # 4 s on two cores
def test_the_example_predictions_and_parals_outputs_equal_evaluate_py(rows, tmp_path):
    systems = [("test", need(PROLEX_DATA / "example_predictions.csv"))]
    for split in ("dev", "test"):
        for kind in ("best", "oot"):
            answers = parals_answers(split, kind)
            systems.append((split, write_prolex_predictions(tmp_path / f"parals-{split}-{kind}.csv", split, answers)))
    official = prolex_official(
        [{"gold": str(prolex_gold_file(split)), "predictions": str(path), "ks": list(KS)} for split, path in systems],
        tmp_path,
    )
    for (split, path), printed in zip(systems, official, strict=True):
        for k in KS:
            assert figures(ours(rows[split], path, k), k) == {key: printed[key] for key in figures_keys(k)}, (path, k)


def figures_keys(k: int) -> list[str]:
    return [f"acc@{k}", f"prof@{k}"]


def test_instances_without_proficiency_gold_are_left_out_as_evaluate_py_leaves_them(rows):
    """53 of ProLex test's 680 rows list no proficiency-oriented substitute: evaluate.py skips them (its `continue`),
    so the prof figures count 627 instances; the signature names the family, the benchmark and k."""
    result = ours(rows["test"], need(PROLEX_DATA / "example_predictions.csv"), 10)
    assert result["targets_scored_acc"] == 680 and result["targets_scored_prof"] == 627  # 53 without prof gold
    assert result["signature"].startswith("prolex-metric:1.0|bench:prolex|split:test|family:prolex|k:10|")


@pytest.mark.slow  # 4 s on two busy cores (load 4-6)
def test_edge_case_systems_equal_evaluate_py(rows, tmp_path):
    paths = {
        split: write_prolex_predictions(
            tmp_path / f"edge-{split}.csv", split, [gold_edge_answers(row, i) for i, row in enumerate(rows[split])]
        )
        for split in ("dev", "test")
    }
    official = prolex_official(
        [
            {"gold": str(prolex_gold_file(split)), "predictions": str(path), "ks": list(KS)}
            for split, path in paths.items()
        ],
        tmp_path,
    )
    for (split, path), printed in zip(paths.items(), official, strict=True):
        for k in KS:
            assert figures(ours(rows[split], path, k), k) == {key: printed[key] for key in figures_keys(k)}, (split, k)


def test_empty_answers_through_calculate_metrics(rows, tmp_path):
    """evaluate.py's CSV reading cannot take an empty answer (pandas reads the cell as NaN, which has no split), so
    empty answers go to its calculate_metrics directly: equal to ours; and where it divides by zero (no answer at
    all), ours is 0.0."""
    test = rows["test"]
    gold = {
        aspect: [[s["substitute"] for s in row["substitutes"] if label in s["labels"]] for row in test]
        for aspect, label in (("acc", "acceptable"), ("prof", "proficiency_acceptable"))
    }
    answers = [[] if i % 3 == 0 else [s["substitute"] for s in row["substitutes"]][::-1] for i, row in enumerate(test)]
    official, nothing = prolex_official(
        [
            {"lists": {**gold, "predictions": answers}, "ks": [10, 3]},
            {"lists": {**gold, "predictions": [[] for _ in test]}, "ks": [10]},
        ],
        tmp_path,
    )
    scorer = scorer_for(test, k=10)
    for k in (10, 3):
        result = scorer_for(test, k=k).score({row["id"]: given for row, given in zip(test, answers, strict=True)})
        assert figures(result, k) == {key: official[key] for key in figures_keys(k)}
    assert nothing == {"acc@10": "ZeroDivisionError", "prof@10": "ZeroDivisionError"}
    result = scorer.score([[] for _ in test])
    assert figures(result, 10) == {"acc@10": [0.0, 0.0, 0.0], "prof@10": [0.0, 0.0, 0.0]}
    assert result["targets_without_predictions"] == 680
