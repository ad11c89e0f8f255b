"""TSAR-2022 and ProLex scoring on hostile but legal input, as real files: a target with 100,000 answers is scored at
once (the scorer was quadratic in a target's answers: 75-104 s), what is kept of a target is bounded and changes no
figure of the official scorers; references without substitutes (None, [], a Parquet without the column read through
the dataset card by `datasets`) are refused naming the target; and a JSONL file that leaves targets out says what is
computed, labelling as "tsar_eval.py prints" only what tsar_eval.py prints (run beside it)."""

from __future__ import annotations

import json
import shutil

import datasets
import pyarrow.parquet as pq
import pytest

import swords_dataset
import swords_metric
from swords_metric import MetricInputError, Scorer, scorer_for
from swords_metric.families.tsar2022 import TSAR_METRICS

from ..baselines.run_helpers import swords
from .family_sources import (
    prolex_official,
    prolex_rows,
    tsar_gold_file,
    tsar_gold_lines,
    tsar_official_printed,
    tsar_official_unfloored,
    tsar_rows,
    write_tsar_predictions,
)


def test_a_target_of_100000_answers_is_scored_at_once(tmp_path):
    rows = swords_dataset.rows("tsar2022_en", "test")
    path = tmp_path / "many.jsonl"
    best = rows[0]["substitutes"][0]["substitute"]  # the most given substitute: every ACC@k@Top1 and ACC@1 hit
    path.write_text(
        json.dumps({"id": rows[0]["id"], "substitutes": [best] + [f"w{i}" for i in range(99_999)]}) + "\n",
        encoding="utf-8",
    )
    assert path.stat().st_size > 900_000
    done = swords(
        "evaluate", "--dataset", "tsar2022_en", "--split", "test", "--predictions", str(path), "--json", timeout=120
    )
    assert done.returncode == 0 and done.seconds < 20, (done.seconds, done.stderr)
    result = json.loads(done.stdout)
    assert result["acc@1"] == result["acc@1@top1"] == result["potential@10"] == 1 / 373  # one instance of 373 hit
    assert result["map@10"] == (1 / 10) / 373  # precision 1 at rank 1, divided by k, over 373 instances
    assert result["input_notes"]["targets_past_answer_limit"] == 1
    assert (
        "many.jsonl: 1 targets give more than 100 distinct answers; their first 100 are kept (the metrics read "
        "the first 10)" in done.stderr
    )


@pytest.mark.slow  # 6 s on two busy cores (load 4-6)
def test_what_is_kept_of_a_target_changes_no_figure_of_the_official_scorers(tmp_path):
    """Long lists (gold after the 10th and after the 100th answer, the complex word and repeats filling the first
    hundred), long answers (300 characters, repeated: a repeat is still dropped) and long gold-like prefixes: equal
    to tsar_eval.py to the bit; and ProLex's counts with long repeated answers equal to evaluate.py's."""
    lines = []
    for number, (sentence, target, given_by) in enumerate(tsar_gold_lines("en", "test")):
        gold = list(dict.fromkeys(given_by))
        long = [f"{gold[0]}{'x' * 300}{i}" for i in range(3)]
        case = number % 4
        if case == 0:
            given = [f"d{i}" for i in range(150)] + gold  # gold past what is kept
        elif case == 1:
            given = [target] * 120 + [f"d{i}" for i in range(5)] * 30 + gold[:2] + [f"e{i}" for i in range(200)]
        elif case == 2:
            given = long + long + [gold[-1]] + [f"d{i}" for i in range(8)] + gold  # long answers and their repeats
        else:
            given = [f"d{i}" for i in range(9)] + gold + [f"e{i}" for i in range(120)]
        lines.append((sentence, target, given))
    path = write_tsar_predictions(tmp_path / "long.tsv", lines)
    scorer = scorer_for(tsar_rows("en", "test"))
    ours = scorer.score(scorer.read(path))
    assert ours["official"] == tsar_official_printed(tsar_gold_file("en", "test"), path, tmp_path)
    official = tsar_official_unfloored(tsar_gold_file("en", "test"), path)
    assert {key: ours[key] for key in official} == official and 0 < ours["map@10"] < 0.5 < ours["potential@10"]
    assert ours["input_notes"]["targets_past_answer_limit"] == sum(1 for i in range(len(lines)) if i % 4 != 2)
    rows = prolex_rows("test")
    gold = {
        aspect: [[s["substitute"] for s in row["substitutes"] if label in s["labels"]] for row in rows]
        for aspect, label in (("acc", "acceptable"), ("prof", "proficiency_acceptable"))
    }
    given = [
        [f"{words[0] if words else 'w'}{'y' * 250}"] * 2 + words[:3][::-1] + [f"{'z' * 300}{i}" for i in range(3)]
        for words in gold["acc"]
    ]
    for k in (10, 5):
        official = prolex_official([{"lists": {**gold, "predictions": given}, "ks": [k]}], tmp_path)[0]
        ours = scorer_for(rows, k=k).score(given)
        assert official == {f"{aspect}@{k}": [ours[f"{aspect}_{m}@{k}"] for m in "prf"] for aspect in ("acc", "prof")}
    with pytest.raises(
        MetricInputError,
        match=r"^k 101: ProLex's metrics read a target's first k answers, and at "
        r"most 100 are kept of a target; give k up to 100$",
    ):
        scorer_for(rows, k=101)


@pytest.fixture(scope="module")
def without_column(tmp_path_factory):
    """The dataset folder with the substitutes column taken out of three Parquet files, loaded by `datasets` through
    its card, whose features then fill the column with None."""
    folder = tmp_path_factory.mktemp("dataset")
    shutil.copy(swords_dataset.DATASET_DIR / "README.md", folder / "README.md")
    shutil.copytree(swords_dataset.DATASET_DIR / "data", folder / "data")
    for config in ("swords", "prolex", "tsar2022_en"):
        path = folder / swords_dataset.parquet_path(config, "test")
        pq.write_table(pq.read_table(path).drop(["substitutes"]), path)
    cache = tmp_path_factory.mktemp("cache")
    return {
        config: datasets.load_dataset(str(folder), config, split="test", cache_dir=str(cache))
        for config in ("swords", "prolex", "tsar2022_en")
    }


@pytest.fixture(scope="module")
def metric():
    return swords_metric.load()


@pytest.mark.parametrize("config", ["swords", "prolex", "tsar2022_en"])
def test_references_without_substitutes_are_refused_naming_the_target(config, without_column, metric):
    split = without_column[config]
    first = split[0]["id"]
    assert split[0]["substitutes"] is None  # what `datasets` made of the missing column
    told = (
        rf"^reference {first}: no 'substitutes'; a benchmark row holds its gold substitutes \(a list\), so there "
        r"is nothing to score it against$"
    )
    with pytest.raises(MetricInputError, match=told):
        scorer_for(split)
    with pytest.raises(MetricInputError, match=told):
        metric.compute(predictions=[["word"]] * len(split), references=split)
    rows = swords_dataset.rows(config, "test")
    with pytest.raises(
        MetricInputError,
        match=rf"^reference {first}: no gold substitutes, nor has any of the "
        rf"{len(rows):,} references; there is nothing to score against",
    ):
        scorer_for([{**row, "substitutes": []} for row in rows])


def test_rows_of_which_some_have_no_substitutes_score_as_upstream_scores_them():
    """SemEval-2007 test has 7 targets without substitutes (the official scorer leaves them out): still scored."""
    rows = swords_dataset.rows("semeval07", "test")
    assert 0 < sum(not row["substitutes"] for row in rows) < len(rows)
    assert Scorer(rows).score({})["targets_scored"] == len(rows) - 7


@pytest.mark.slow  # 3 s on two cores
def test_a_partial_jsonl_says_what_is_computed_and_labels_only_what_tsar_eval_prints(tmp_path):
    rows = swords_dataset.rows("tsar2022_en", "test")
    lines = tsar_gold_lines("en", "test")
    given = {row["id"]: list(dict.fromkeys(given_by)) for row, (_, _, given_by) in zip(rows[:3], lines, strict=False)}
    path = tmp_path / "three.jsonl"
    path.write_text("".join(json.dumps({"id": k, "substitutes": v}) + "\n" for k, v in given.items()), encoding="utf-8")
    # tsar_eval.py on a file of every line, the 370 others without answers: what the floored figures are
    every = write_tsar_predictions(
        tmp_path / "every.tsv", [(s, t, list(dict.fromkeys(a)) if i < 3 else []) for i, (s, t, a) in enumerate(lines)]
    )
    on_every = tsar_official_printed(tsar_gold_file("en", "test"), every, tmp_path)
    # tsar_eval.py on the three lines alone: what --given-only gives
    three = write_tsar_predictions(tmp_path / "three.tsv", [(s, t, list(dict.fromkeys(a))) for s, t, a in lines[:3]])
    on_three = tsar_official_printed(tsar_gold_file("en", "test"), three, tmp_path)
    assert on_three != on_every
    done = swords("evaluate", "--dataset", "tsar2022_en", "--split", "test", "--predictions", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == (
        f"note: 370 of 373 targets are not in {path}: each scored as an instance without "
        "answers (0 in every metric, counted in the mean); tsar_eval.py, given a file of "
        "the answered lines alone, would leave them out, as --given-only does"
    )
    assert "(tsar_eval.py prints" not in done.stdout and "as the official scorer scores them" not in done.stderr
    for name, figure in on_every.items():
        key = {v: k for k, v in TSAR_METRICS.items()}[name]
        assert f"(floored: {figure})" in next(line for line in done.stdout.splitlines() if f"  {key} " in line)
    assert (
        "floored: what tsar_eval.py prints for a file of all 373 lines, the 370 not in the predictions without "
        "answers (for the lines given alone it prints what --given-only gives)" in done.stdout
    )
    alone = swords(
        "evaluate", "--dataset", "tsar2022_en", "--split", "test", "--predictions", str(path), "--given-only"
    )
    assert alone.returncode == 0 and not alone.stderr, alone.stderr
    for name, figure in on_three.items():
        assert f"(tsar_eval.py prints {name} = {figure})" in alone.stdout
    prolex = swords_dataset.rows("prolex", "test")[:2]
    path.write_text(
        "".join(json.dumps({"id": row["id"], "substitutes": ["word"]}) + "\n" for row in prolex), encoding="utf-8"
    )
    done = swords("evaluate", "--dataset", "prolex", "--split", "test", "--predictions", str(path))
    assert done.stderr.strip() == (
        f"note: 678 of 680 targets are not in {path}: each scored as an empty answer list, "
        "as evaluate.py's calculate_metrics scores one (no hit, its gold counted in "
        "recall); --given-only leaves them out"
    )
