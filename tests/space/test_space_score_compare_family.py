"""The Score tab's comparison on TSAR-2022 and ProLex, through its handler, on real files: TSAR-2022 English test's
gold (each line's annotations ranked by how many annotators gave them, read from the raw gold file) against the
wordnet system's answers; ProLex's own example predictions against ParaLS's answers as its authors shipped them. The
paired test is `swords evaluate --compare`'s to the last bit, each file's column is that file's own figure as the
metrics table shows it, and the SWORDS-only table of the targets where the files differ most stays empty."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from .helpers import COINCO_ORACLE, import_space, importable

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_space import benchmarks, systems  # noqa: E402
from swords_space.tabs import score_compare  # noqa: E402
from swords_space.tabs.score import on_score, on_score_page, score_predictions  # noqa: E402

from ..metric.family_sources import PROLEX_DATA, need, parals_answers, tsar_gold_lines, write_prolex_predictions  # noqa: E402
from ..metric.test_family_metric import need_config  # noqa: E402

TSAR_KEYS = ["acc@1", "acc@1@top1", "acc@2@top1", "acc@3@top1", "map@3", "map@5", "map@10"]
TSAR_KEYS += ["potential@3", "potential@5", "potential@10"]
PROLEX_KEYS = ["acc_p@10", "acc_r@10", "acc_f@10", "prof_p@10", "prof_r@10", "prof_f@10"]


def swords_compare(config: str, a, b) -> dict:
    """`swords evaluate --compare A B --json` on a test split (its defaults: 1,000 paired resamples, seed 0)."""
    done = subprocess.run(
        [sys.executable, "-m", "swords_lexsub.cli", "evaluate", "--dataset", config, "--split", "test",
         "--compare", str(a), str(b), "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def tsar_files(tmp_path_factory) -> tuple:
    need_config("tsar2022_en")
    if not importable("wordnet"):
        pytest.skip("the wordnet system is not installed")
    folder = tmp_path_factory.mktemp("tsar_compare")
    rows = benchmarks.load_rows("tsar2022_en", "test")
    ranked = [
        sorted(dict.fromkeys(annotations), key=lambda word, a=annotations: -a.count(word))
        for _, _, annotations in tsar_gold_lines("en", "test")
    ]
    gold, wordnet = folder / "gold-ranked.jsonl", folder / "wordnet.jsonl"
    gold.write_text(
        "".join(json.dumps({"id": r["id"], "substitutes": a}) + "\n" for r, a in zip(rows, ranked, strict=True)),
        encoding="utf-8",
    )
    wordnet.write_text(
        "".join(json.dumps({"id": r["id"], "substitutes": systems.predict("wordnet", r, None)}) + "\n" for r in rows),
        encoding="utf-8",
    )
    return gold, wordnet


def check_comparison(scored, expected: dict, keys: list[str], alone: list) -> None:
    """The tab's paired test is the CLI's (but for the files' names), in the tab's layout."""
    comparison = scored.comparison
    assert {**comparison, "a": expected["a"], "b": expected["b"]} == expected
    assert set(comparison["metrics"]) == set(keys)
    table = score_compare.comparison_table(comparison, scored.family.reader).set_index("metric")
    labels = dict(zip(scored.metrics_table()["key"], scored.metrics_table()["metric"], strict=True))
    assert list(table.index) == [labels[key] for key in keys]  # the metrics table's labels, in its order
    assert list(labels) == keys
    for key in keys:
        row, figures = table.loc[labels[key]], expected["metrics"][key]
        assert row["this file"] == alone[0].loc[key, "value"]  # each file's figure as its metrics table shows it
        assert row["compared file"] == alone[1].loc[key, "value"]
        assert row["difference"] == round(figures["a"] - figures["b"], 4)
        assert row["95% interval"] == f"[{figures['interval'][0]:.4f}, {figures['interval'][1]:.4f}]"
        assert row["p-value"] == f"{figures['p_value']:.4f}"
    assert scored.differences is None and score_compare.differences_table(scored.differences).empty


def test_a_tsar_comparison_is_swords_evaluates(tsar_files):
    gold, wordnet = tsar_files
    scored = score_predictions(str(gold), None, "tsar2022_en test", bootstrap=0, compare_upload=str(wordnet))
    expected = swords_compare("tsar2022_en", gold, wordnet)
    assert (scored.comparison["a"], scored.comparison["b"]) == ("gold-ranked.jsonl", "wordnet.jsonl")
    alone = [
        score_predictions(str(path), None, "tsar2022_en test", bootstrap=0).metrics_table().set_index("key")
        for path in (gold, wordnet)
    ]
    check_comparison(scored, expected, TSAR_KEYS, alone)
    acc = scored.comparison["metrics"]["acc@1"]
    assert alone[0].loc["acc@1", "value"] == 1.0 and alone[1].loc["acc@1", "value"] < 0.5  # gold's top comes first
    assert acc["p_value"] < 0.01 and acc["interval"][0] > 0  # the gold is better, and the test says so
    # TSAR-2022's figures are floored, as tsar_eval.py prints them, in both tables alike.
    assert alone[1].loc["map@3", "value"] == math.floor(expected["metrics"]["map@3"]["b"] * 1e4) / 1e4
    assert "Compared with **wordnet.jsonl** (below)." in scored.summary()
    assert "apply to SWORDS, CoInCo and SemEval-2007 only" in scored.summary()


def test_a_prolex_comparison_of_the_shipped_outputs_is_swords_evaluates(tmp_path):
    need_config("prolex")
    example = need(PROLEX_DATA / "example_predictions.csv")
    parals = write_prolex_predictions(tmp_path / "parals.csv", "test", parals_answers("test", "best"))
    scored = score_predictions(str(example), None, "prolex test", bootstrap=0, compare_upload=str(parals))
    expected = swords_compare("prolex", example, parals)
    alone = [
        score_predictions(str(path), None, "prolex test", bootstrap=0).metrics_table().set_index("key")
        for path in (example, parals)
    ]
    check_comparison(scored, expected, PROLEX_KEYS, alone)
    assert alone[0].loc["acc_f@10", "value"] == 0.4781  # ProLex's example file, as its Score test has it


def test_the_tabs_outputs_show_the_comparison_block_without_differences(tsar_files):
    gold, wordnet = tsar_files
    outputs = on_score(
        str(gold), None, "tsar2022_en test", bootstrap=0, compare_upload=str(wordnet), progress=lambda *a, **k: None
    )
    comparison, chart, differences, *_, block = outputs[9:15]
    assert list(comparison["metric"])[0] == "ACC@1" and len(comparison) == len(TSAR_KEYS)
    assert chart.empty and differences.empty
    assert block.visible is True


def test_the_page_shows_the_targets_where_files_differ_only_where_there_are_some(tsar_files, tmp_path):
    """TSAR-2022's comparison has no per-target details: the page shows its paired test alone. SWORDS's shows the
    targets where the files differ (the CoInCo oracle against its own first 100 answers)."""
    gold, wordnet = tsar_files
    quiet = {"progress": lambda *a, **k: None}
    outputs = on_score_page(
        str(gold), None, "tsar2022_en test", "generative", 0, "lenient", False, str(wordnet), **quiet
    )
    assert len(outputs[9].value["data"]) == len(TSAR_KEYS)
    assert (outputs[-2].visible, outputs[11].visible) == (False, False)  # the chart's column, the table
    first = tmp_path / "first-100.jsonl"
    first.write_text("".join(COINCO_ORACLE.read_text(encoding="utf-8").splitlines(keepends=True)[:100]))
    outputs = on_score_page(
        str(COINCO_ORACLE), None, "swords test", "generative", 0, "lenient", False, str(first), **quiet
    )
    assert len(outputs[11].value["data"]) == score_compare.DIFFERENCES_SHOWN
    assert (outputs[-2].visible, outputs[11].visible) == (True, True)
