"""`swords evaluate --compare` on TSAR-2022 and ProLex: the paired bootstrap test between two real systems' files on
the shipped test splits, in the same layout as the SWORDS metrics' test; its figures are each file's own, and its
interval and p-value are those of the paired bootstrap recomputed here, independently, from the gold file."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import swords_dataset
from swords_metric import scorer_for

from ..baselines.run_helpers import one_line, swords
from .family_sources import (
    PROLEX_DATA,
    need,
    parals_answers,
    tsar_gold_lines,
    write_prolex_predictions,
    write_tsar_predictions,
)
from .test_family_metric import need_config

TSAR_KEYS = ["acc@1", "map@3", "map@5", "map@10", "potential@3", "potential@5", "potential@10"]
TSAR_KEYS += ["acc@1@top1", "acc@2@top1", "acc@3@top1"]
PROLEX_KEYS = ["acc_p@10", "acc_r@10", "acc_f@10", "prof_p@10", "prof_r@10", "prof_f@10"]


def evaluate_json(*args: str) -> dict:
    done = swords("evaluate", "--split", "test", *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def tsar_runs(tmp_path_factory):
    """Two real systems on TSAR-2022's English test: WordNet's synonyms, and with hypernyms and similar-to words."""
    need_config("tsar2022_en")
    folder = tmp_path_factory.mktemp("tsar_runs")
    paths = []
    for name, extra in (("synonyms", ()), ("related", ("--relations", "hypernyms,similar"))):
        path = folder / f"{name}.jsonl"
        done = swords("run", "--system", "wordnet", *extra, "--dataset", "tsar2022_en", "--split", "test",
                      "--output", str(path), "--no-progress", "--bootstrap", "0")  # fmt: skip
        assert done.returncode == 0, done.stderr
        paths.append(path)
    return paths


@pytest.mark.slow  # 6 s on two cores (the two runs)
def test_tsar_compare_is_the_paired_test_of_two_runs(tsar_runs):
    a, b = map(str, tsar_runs)
    result = evaluate_json("--dataset", "tsar2022_en", "--compare", a, b, "--bootstrap", "2000", "--seed", "7")
    assert list(result) == ["a", "b", "metrics", "official", "coverage", "signature", "unit"]
    assert list(result["metrics"]) == TSAR_KEYS
    assert result["coverage"] == {"targets_scored": 373, "a": 373, "b": 373, "both": 373}
    assert result["signature"].endswith("|targets:373|bootstrap:2000,seed:7")
    alone = [evaluate_json("--dataset", "tsar2022_en", "--predictions", path) for path in (a, b)]
    for key, row in result["metrics"].items():
        assert (row["a"], row["b"]) == (alone[0][key], alone[1][key])
        assert row["difference"] == row["a"] - row["b"]
    assert result["official"] == {"a": alone[0]["official"], "b": alone[1]["official"]}  # as --predictions gives
    # The paired bootstrap of ACC@1 and Potential@10, recomputed from the gold file and the two runs: instances
    # drawn with numpy's seeded generator, 1,000 resamples at a time, the same draws for both systems.
    gold = tsar_gold_lines("en", "test")
    values = {key: [] for key in ("acc@1", "potential@10")}
    for path in tsar_runs:
        answers = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            answers[int(record["id"].rsplit(":", 1)[1]) - 1] = [word for word, _ in record["substitutes"]]
        for key in values:
            values[key].append([])
        for position, (_, word, annotated) in enumerate(gold):
            given = list(dict.fromkeys(item.strip() for item in answers.get(position, [])))
            given = [item for item in given if item != word]
            substitutes = set(annotated) - {word}
            values["acc@1"][-1].append(float(bool(given) and given[0] in substitutes))
            values["potential@10"][-1].append(float(any(item in substitutes for item in given[:10])))
    rng, n, differences = np.random.default_rng(7), len(gold), {key: [] for key in values}
    for _ in range(2):
        draws = rng.integers(0, n, size=(1000, n))
        for key, (first, second) in values.items():
            differences[key].append(np.array(first)[draws].mean(axis=1) - np.array(second)[draws].mean(axis=1))
    for key, parts in differences.items():
        difference = np.concatenate(parts)
        assert result["metrics"][key]["interval"] == [np.percentile(difference, 2.5), np.percentile(difference, 97.5)]
        p = min(1.0, 2 * min(np.mean(difference <= 0), np.mean(difference >= 0)))
        assert result["metrics"][key]["p_value"] == p
    assert result["metrics"]["potential@10"]["p_value"] < 0.01  # hypernyms and similar-to words find more gold


@pytest.mark.slow  # 4 s on two cores alone (the two runs)
def test_tsar_compare_prints_the_swords_layout(tsar_runs):
    a, b = map(str, tsar_runs)
    done = swords("evaluate", "--dataset", "tsar2022_en", "--split", "test", "--compare", a, b, "--bootstrap", "200")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("figures: fractions floored to 4 decimals, as tsar_eval.py prints them")  # the unit
    assert lines[1].split() == ["metric", a, b, "A", "-", "B", "95%", "interval", "p"]
    assert [line.split()[0] for line in lines[2:12]] == TSAR_KEYS
    assert lines[12] == "" and lines[13].startswith("signature: tsar2022-metric:1.0|bench:tsar2022_en|split:test|")
    assert len(lines) == 14  # no differences table: the official metrics give no per-substitute details


@pytest.mark.slow  # 3 s on two cores
def test_prolex_compare_of_the_shipped_outputs(tmp_path):
    need_config("prolex")
    example = str(need(PROLEX_DATA / "example_predictions.csv"))
    parals = str(write_prolex_predictions(tmp_path / "parals.csv", "test", parals_answers("test", "best")))
    result = evaluate_json("--dataset", "prolex", "--compare", example, parals)
    assert list(result) == ["a", "b", "metrics", "coverage", "signature", "unit"]
    assert list(result["metrics"]) == PROLEX_KEYS
    assert result["coverage"] == {"targets_scored": 680, "a": 680, "b": 680, "both": 680}
    alone = [evaluate_json("--dataset", "prolex", "--predictions", path) for path in (example, parals)]
    for key, row in result["metrics"].items():
        assert (row["a"], row["b"]) == (alone[0][key], alone[1][key])
        low, high = row["interval"]
        assert low <= high and 0 <= row["p_value"] <= 1
    # The Python API gives the same; a file against itself differs nowhere.
    scorer = scorer_for("prolex", "test")
    assert scorer.compare(scorer.read(example), scorer.read(parals), sources=(example, parals)) == result
    same = scorer.compare(scorer.read(example), scorer.read(example), bootstrap=200)
    assert {row["difference"] for row in same["metrics"].values()} == {0.0}
    assert all(row["interval"] == [0.0, 0.0] and row["p_value"] == 1.0 for row in same["metrics"].values())


def test_family_compare_refuses_what_it_does_not_take(tmp_path):
    need_config("tsar2022_en")
    a, b = str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")  # refused before either file is read
    base = ("evaluate", "--dataset", "tsar2022_en", "--split", "test", "--compare", a, b)
    assert one_line(swords(*base, "--differences", "3")).endswith(
        "--differences belongs to the SWORDS metrics; tsar2022_en is scored with the tsar2022 metrics, as its "
        "official scorer scores it (no per-substitute details, no summary)"
    )
    assert one_line(swords(*base, "--bootstrap", "10")).endswith(
        "the paired test's --bootstrap must be between 100 and 1,000,000 resamples, got 10"
    )


@pytest.mark.slow  # 4 s on two cores
def test_tsar_compare_reads_a_file_of_part_of_the_split_as_tsar_eval_reads_it(tmp_path):
    """A TSV of part of the split, in any order, was refused with advice to use --given-only, which --compare refuses
    (issue 47). --compare reads it as tsar_eval.py reads a file (the lines it holds), scores the instances it leaves
    out without answers, as a JSONL file's missing targets are, and says how many each file covers."""
    need_config("tsar2022_en")
    lines = [(s, t, a[::-1][:4]) for s, t, a in tsar_gold_lines("en", "test")]
    chosen = sorted(random.Random(3).sample(range(len(lines)), 40), reverse=True)  # another order than the split's
    part = write_tsar_predictions(tmp_path / "part.tsv", [lines[i] for i in chosen])
    whole = write_tsar_predictions(tmp_path / "whole.tsv", lines)
    done = swords("evaluate", "--dataset", "tsar2022_en", "--split", "test", "--compare", str(part), str(whole),
                  "--bootstrap", "200", "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["coverage"] == {"targets_scored": 373, "a": 40, "b": 373, "both": 40}
    assert f"the files cover different targets ({part}: 40, {whole}: 373, both: 40 of 373)" in done.stderr
    # The part's figures: those of the same answers keyed by id, every other target without answers.
    ids = [row["id"] for row in swords_dataset.rows("tsar2022_en", "test")]
    keyed = tmp_path / "part.jsonl"
    keyed.write_text("".join(json.dumps({"id": ids[i], "substitutes": lines[i][2]}) + "\n" for i in chosen))
    alone = evaluate_json("--dataset", "tsar2022_en", "--predictions", str(keyed))
    assert {key: row["a"] for key, row in result["metrics"].items()} == {key: alone[key] for key in TSAR_KEYS}
    assert result["official"]["a"] == alone["official"]
