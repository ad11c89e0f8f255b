"""The Score tab on TSAR-2022 and ProLex, on the real bundled data: an upload in our JSONL or in the benchmark's
official format (TSAR's .tsv, ProLex's .csv) scores exactly as `swords evaluate` scores the same file, shown as the
official scorers print their figures, beside TSAR-2022's published rows; every bad upload one clear line."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from .helpers import import_space, write

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_metric import published_systems  # noqa: E402
from swords_space import benchmarks  # noqa: E402
from swords_space.errors import SpaceError  # noqa: E402
from swords_space.tabs.score import on_score, on_score_page, score_predictions  # noqa: E402
from swords_space.tabs.score_judgments import on_split  # noqa: E402

from ..metric.family_sources import PROLEX_DATA, need, tsar_gold_lines  # noqa: E402

# tsar_eval.py's printed names of our keys (the names it prints, in its order).
TSAR_PRINTED = {
    "acc@1": "MAP@1/Potential@1/Precision@1",
    "map@3": "MAP@3",
    "map@5": "MAP@5",
    "map@10": "MAP@10",
    "potential@3": "Potential@3",
    "potential@5": "Potential@5",
    "potential@10": "Potential@10",
    "acc@1@top1": "Accuracy@1@top_gold_1",
    "acc@2@top1": "Accuracy@2@top_gold_1",
    "acc@3@top1": "Accuracy@3@top_gold_1",
}


def swords_evaluate(config: str, split: str, path) -> dict:
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "swords_lexsub.cli",
            "evaluate",
            "--dataset",
            config,
            "--split",
            split,
            "--predictions",
            str(path),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(completed.stdout)


@pytest.fixture(scope="module")
def tsar_en_files(tmp_path_factory) -> tuple:
    """TSAR-2022 English test's gold, each line's annotations ranked by how many annotators gave them (read from the
    raw gold file, not the dataset), as our JSONL and as the official .tsv."""
    folder = tmp_path_factory.mktemp("tsar")
    rows = benchmarks.load_rows("tsar2022_en", "test")
    lines = tsar_gold_lines("en", "test")
    ranked = [
        sorted(dict.fromkeys(annotations), key=lambda word, a=annotations: -a.count(word))
        for _, _, annotations in lines
    ]
    jsonl = folder / "gold-ranked.jsonl"
    jsonl.write_text(
        "".join(
            json.dumps({"id": row["id"], "substitutes": answers}) + "\n"
            for row, answers in zip(rows, ranked, strict=True)
        ),
        encoding="utf-8",
    )
    tsv = folder / "gold-ranked.tsv"
    tsv.write_text(
        "".join(
            "\t".join([sentence, word, *answers]) + "\n"
            for (sentence, word, _), answers in zip(lines, ranked, strict=True)
        ),
        encoding="utf-8",
    )
    return jsonl, tsv


def test_a_tsar_upload_scores_as_swords_evaluate_and_sits_beside_the_published_rows(tsar_en_files):
    jsonl, tsv = tsar_en_files
    expected = swords_evaluate("tsar2022_en", "test", jsonl)
    for path in (jsonl, tsv):  # our JSONL and the shared task's own format: the same figures
        scored = score_predictions(str(path), None, "tsar2022_en test", bootstrap=200)
        for key in TSAR_PRINTED:
            assert scored.result[key] == expected[key], (path.name, key)
        assert scored.result["signature"].split("|bootstrap")[0] == expected["signature"]
    table = scored.metrics_table().set_index("key")
    for key, printed in TSAR_PRINTED.items():  # shown as tsar_eval.py prints it: floored, not rounded
        assert table.loc[key, "value"] == expected["official"][printed] == math.floor(expected[key] * 1e4) / 1e4
        low, high = map(float, table.loc[key, "95% interval"].strip("[]").split(", "))
        assert low <= expected[key] <= high
    assert table.loc["map@10", "value"] < 1 and table.loc["acc@1", "value"] == 1.0  # gold's top first; k=10 > gold
    published = scored.published_table().data
    official = published_systems("tsar2022_en", "test")
    assert len(official) == 33 and len(published) == 1 + 33  # this run, then every team and run on English test
    assert published.iloc[0]["source"] == "this run, measured here"
    assert published.iloc[0]["MAP@3"] == table.loc["map@3", "value"]
    assert published.iloc[1]["system"] == official[0].label and published.iloc[1]["ACC@1"] == 0.8096  # UniHD run 2
    assert "LSG P@1" not in published.columns and "F@10 A" not in published.columns
    summary = scored.summary()
    assert "373 targets" in summary and "TSAR-2022's official metrics" in summary
    assert "apply to SWORDS, CoInCo and SemEval-2007 only" in summary


def test_the_tabs_outputs_for_tsar_hide_the_swords_only_panels(tsar_en_files):
    """TSAR-2022 has no curve, no summary of what a system proposed, no POS: their panels are not shown (hidden,
    not empty with SWORDS headers), and the tables say their unit: fractions."""
    jsonl, _ = tsar_en_files
    out = on_score(str(jsonl), None, "tsar2022_en test", bootstrap=0, progress=lambda *a, **k: None)
    summary, metrics, by_pos, curve, published, signature, classes, relations, worst, *_ = out
    assert signature.startswith("tsar2022-metric:1.0|bench:tsar2022_en|split:test|family:tsar2022")
    assert list(metrics["key"])[:2] == ["acc@1", "acc@1@top1"]
    assert by_pos.empty and curve.empty and classes.empty and relations.empty and worst.empty
    charts, worst_block, by_pos_block, _ = out[-4:]
    assert (charts.visible, worst_block.visible, by_pos_block.visible) == (False, False, False)
    page = on_score_page(str(jsonl), None, "tsar2022_en test", "generative", 0, progress=lambda *a, **k: None)
    assert page[1].label == "Metrics (fraction 0–1)" and page[9].label == "Paired test (fraction 0–1)"
    assert page[4].label == "Beside the published results on this benchmark split (fraction 0–1)"


def test_the_judgments_input_shows_only_where_the_gold_takes_judgements():
    assert on_split("swords test").visible is True and on_split("coinco test").visible is True  # CoInCo: refused
    hidden = [on_split(label) for label in ("tsar2022_en test", "tsar2022_pt trial", "prolex test")]
    assert all(update.visible is False and update.value is None for update in hidden)  # hidden, it holds none


def test_a_prolex_csv_scores_as_swords_evaluate():
    """ProLex's own example predictions (its repository's file, test split) in its official CSV."""
    path = need(PROLEX_DATA / "example_predictions.csv")
    expected = swords_evaluate("prolex", "test", path)
    scored = score_predictions(str(path), None, "prolex test", bootstrap=0)
    keys = [f"{aspect}_{m}@10" for aspect in ("acc", "prof") for m in "prf"]
    assert {key: scored.result[key] for key in keys} == {key: expected[key] for key in keys}
    table = scored.metrics_table().set_index("key")
    assert table.loc["acc_f@10", "value"] == round(expected["acc_f@10"], 4) == 0.4781
    published = scored.published_table().data
    assert len(published) == 1 and published.iloc[0]["F@10, acceptable"] == 0.4781
    assert scored.file_format == "prolex-csv" and "ProLex's official metrics" in scored.summary()


@pytest.mark.parametrize(
    ("name", "content", "setting", "message"),
    [
        (
            "answers.csv",
            b"target word,Sentence,Substitutes\n",
            "generative",
            r"^answers\.csv: a \.csv file is ProLex's official format, not TSAR-2022's; the extension chooses the "
            r"format: \.tsv for TSAR-2022's",
        ),
        (
            "answers.tsv",
            b"a\tb\tc\n",
            "generative",
            r"^answers\.tsv:1: sentence and complex word 'b' are not those of "
            r"tsar2022_en:test:0001",
        ),
        (
            "answers.jsonl",
            b'{"id": "tsar2022_en:test:0001", "substitutes": ["x"]}\n',
            "ranking",
            r"^tsar2022_en is scored with its official metrics, on a system's ranked answers: choose the generative",
        ),
    ],
)
def test_bad_tsar_uploads_are_one_clear_line(tmp_path, name, content, setting, message):
    with pytest.raises(SpaceError, match=message) as caught:
        score_predictions(write(tmp_path / name, content), None, "tsar2022_en test", setting=setting, bootstrap=0)
    assert "\n" not in str(caught.value) and str(tmp_path) not in str(caught.value)


def test_a_large_tsv_upload_is_read_in_bounded_memory_and_a_partial_one_says_what_it_scores(tmp_path):
    """A 19 MB TSV upload held about 28 times its size (20 at once took the Space past its 1.5 GB); now a line at a
    time, what the metrics read kept. A file leaving targets out is said to score them 0, not as tsar_eval.py."""
    import tracemalloc

    rows = benchmarks.load_rows("tsar2022_en", "test")
    words = [f"w{i}x" for i in range(7_600)]
    line = "\t".join(words)
    path = write(
        tmp_path / "large.tsv", "".join(f"{row['context']}\t{row['target']}\t{line}\n" for row in rows).encode()
    )
    assert 18 * 2**20 < (tmp_path / "large.tsv").stat().st_size < 20 * 2**20  # under the upload limit
    tracemalloc.start()
    try:
        scored = score_predictions(path, None, "tsar2022_en test", bootstrap=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert scored.result["targets_scored"] == 373 and scored.result["acc@1"] == 0.0
    assert peak < 40 * 2**20, peak / 2**20
    partial = write(
        tmp_path / "two.jsonl",
        "".join(json.dumps({"id": row["id"], "substitutes": ["x"]}) + "\n" for row in rows[:2]).encode(),
    )
    summary = score_predictions(partial, None, "tsar2022_en test", bootstrap=0).summary()
    assert "**371 without answers** (each scores 0 and counts in the mean)" in summary
    assert "official scorer scores them" not in summary


def test_a_tsv_of_another_split_or_order_names_it_as_a_first_or_a_second_file(tmp_path, tsar_en_files):
    _, tsv = tsar_en_files
    spanish = tsar_gold_lines("es", "test")
    with pytest.raises(
        SpaceError,
        match=r"^gold-ranked\.tsv:1: sentence and complex word 'prototype' are not those "
        r"of tsar2022_es:test:0001",
    ):
        score_predictions(str(tsv), None, "tsar2022_es test", bootstrap=0)
    swapped = [spanish[1], spanish[0], *spanish[2:]]
    path = write(tmp_path / "es.tsv", "".join(f"{s}\t{w}\tx\n" for s, w, _ in swapped).encode())
    with pytest.raises(
        SpaceError,
        match=r"^es\.tsv:1: sentence and complex word .* are not those of "
        r"tsar2022_es:test:0001",
    ):
        score_predictions(path, None, "tsar2022_es test", bootstrap=0)
    ordered = write(tmp_path / "ordered.tsv", "".join(f"{s}\t{w}\tx\n" for s, w, _ in spanish).encode())
    with pytest.raises(SpaceError, match=r"^es\.tsv:1: sentence and complex word .* are not those of "):
        score_predictions(ordered, None, "tsar2022_es test", bootstrap=0, compare_upload=path)  # the second file
