"""The Leaderboard tab's handlers: one benchmark split at a time (SWORDS test first), the stored results and the
published figures in one ranking by the split's main metric, a broken file skipped and named, and the bar chart of
the main metric beside the table."""

from __future__ import annotations

import csv
import html
import json
import os
import re
from datetime import UTC, datetime

import pytest

from ..metric.family_sources import TSAR_DATA, need
from .helpers import HOSTILE_NAMES, LONG_SYSTEM, RESULTS, hostile_results, import_space

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_metric import family_of, published_benchmarks, published_systems  # noqa: E402
from swords_space.tabs.leaderboard import (  # noqa: E402
    DEFAULT_BENCHMARK,
    MEASURED,
    SHIPPED,
    YOURS,
    benchmark_choices,
    leaderboard,
    main_metric,
    on_board,
    on_leaderboard,
)

PUBLISHED_FILE = RESULTS.parents[1] / "swords_metric" / "published-results.json"


def ranked(column) -> bool:
    """Best first, the rows that do not report the figure last."""
    figures = list(column)
    reported = [value for value in figures if value == value and value is not None]  # NaN != NaN
    return reported == sorted(reported, reverse=True) and figures[: len(reported)] == reported


def test_the_default_board_is_swords_test_ranked_by_lenient_f10_measured_and_published_together(tmp_path):
    assert benchmark_choices()[0] == DEFAULT_BENCHMARK == "swords test"
    table, note = leaderboard()
    # The source third, in view at 1,280 px beside the system and its main figure.
    assert list(table.columns[:3]) == ["system", "lenient F@10", "source"] and table.columns[-1] == "targets"
    assert ranked(table["lenient F@10"])
    # The paper's best lenient F@10 on SWORDS test, read from the published results file itself: 34.6 (GPT-3, and
    # Wordtune reranked by BERT), above the CoInCo oracle measured here (33.88… in its metrics file, shown 33.9).
    rows = json.loads(PUBLISHED_FILE.read_text())["rows"]
    best = max(
        row["metrics"]["lenient_a_f@10"]
        for row in rows
        if (row["config"], row["split"]) == ("swords", "test") and "lenient_a_f@10" in row["metrics"]
    )
    assert best == 34.6 and table["lenient F@10"].iloc[0] == best
    oracle = json.loads((RESULTS / "coinco-oracle.swords.test.metrics.json").read_text())
    measured = table[table["source"] == SHIPPED]
    # The default system, the two oracles; humans are on swords_test_subset.
    assert set(measured["system"]) == {"wordnet+embedding", "coinco-oracle", "thesaurus-oracle"}
    default = measured[measured["system"] == "wordnet+embedding"].iloc[0]
    assert (default["lenient F@10"], default["strict F@10"]) == (26.5, 17.5)  # its page's figures, 26.51 and 17.50
    coinco = measured[measured["system"] == "coinco-oracle"].iloc[0]
    assert coinco["lenient F@10"] == round(oracle["lenient_a_f@10"], 1) == 33.9
    assert 0 < coinco.name < len(table) - 1  # among the published rows, where its figure ranks it
    thesaurus = measured[measured["system"] == "thesaurus-oracle"].iloc[0]
    assert (thesaurus["lenient F@10"], thesaurus["lenient Fc@10"]) == (12.0, 44.9)  # reproduces Table 4
    published = table[table["source"].str.startswith("published: ")]
    assert len(published) == len(published_systems("swords", "test")) == len(table) - 3
    assert "published: Wada et al. 2022, Table 1" in set(published["source"])
    assert "published: Lee et al. 2021, Tables 4, 7, 8 (reproduced by coinco-oracle)" in set(published["source"])
    assert note.startswith("3 shipped results on swords test (<code>space/results</code>) (1 more on other benchmark")
    assert "Ranked by **lenient F@10** (F@10 against the acceptable substitutes, lenient: the SWORDS paper's" in note
    (tmp_path / "broken.metrics.json").write_text("{not json")
    table, note = leaderboard(tmp_path)
    assert "broken.metrics.json" in note and len(table) == len(published) + 3  # the shipped results stay
    assert "3 shipped results on swords test (<code>space/results</code>) and 0 of yours (<code>" in note
    # A run of the user's (`swords demo --results runs`) beside the shipped ones and the published ones.
    mine = json.loads((RESULTS / "thesaurus-oracle.swords.test.metrics.json").read_text())
    mine["run"]["system"], mine["lenient_a_f@10"] = "mine", 30.0
    (tmp_path / "mine.swords.test.metrics.json").write_text(json.dumps(mine))
    table, note = leaderboard(tmp_path)
    assert len(table) == len(published) + 4 and "3 shipped results on swords test" in note and "1 of yours" in note
    assert table[table["system"] == "mine"].iloc[0]["source"] == YOURS
    shipped = {"wordnet+embedding", "coinco-oracle", "thesaurus-oracle"}
    assert set(table[table["source"] == SHIPPED]["system"]) == shipped


def test_every_published_row_is_on_its_splits_board_with_its_figures():
    """Every system of every paper on the SWORDS metrics, each on the board of its benchmark split, once (SWORDS
    Table 7's precision and recall are not on the board)."""
    board_keys = {"lenient_a_f@10", "lenient_c_f@10", "strict_a_f@10", "strict_c_f@10", "gap", "gap_rat"}
    board_keys |= {"best_r", "best_mode_r", "oot_r", "oot_mode_r", "strict_c_p@1"}
    board_keys |= {"lexsubgen_p@1", "lexsubgen_p@3", "lexsubgen_r@10"}
    expected_rows = [
        row
        for row in published_systems()
        if family_of(row.config).official_scorer is None and board_keys & set(row.metrics)
    ]
    seen = 0
    for benchmark in published_benchmarks():
        if family_of(benchmark.split(" ")[0]).official_scorer:
            continue
        table, _ = leaderboard(benchmark=benchmark)
        published = table[table["source"].str.startswith("published: ")]
        config, split = benchmark.split(" ")
        for entry in (row for row in expected_rows if (row.config, row.split) == (config, split)):
            row = published[
                (published["system"] == entry.label) & published["source"].str.startswith(f"published: {entry.source}")
            ]
            assert len(row) == 1, entry
            for label, key in (
                ("lenient Fc@10", "lenient_c_f@10"),
                ("strict F@10", "strict_a_f@10"),
                ("GAP-rat", "gap_rat"),
                ("oot", "oot_r"),
                ("LSG P@3", "lexsubgen_p@3"),
            ):
                expected = entry.metrics.get(key)
                assert (row.iloc[0][label] == expected) if expected is not None else row[label].isna().all()
            seen += 1
    assert seen == len(expected_rows) > 40


def test_each_split_is_ranked_by_its_main_metric():
    """SWORDS splits by the paper's lenient F@10; SemEval-2007 test and CoInCo test, whose papers report no F@10,
    by best; the LexSubGen-only splits by its P@1; TSAR-2022 by ACC@1 (its official tables' order); ProLex by
    F@10 against acceptable (evaluate.py's default)."""
    assert main_metric("swords test") == main_metric("swords dev") == ("lenient F@10", "lenient_a_f@10")
    assert main_metric("swords_test_subset test") == ("lenient F@10", "lenient_a_f@10")
    assert main_metric("semeval07 test") == main_metric("coinco test") == ("best", "best_r")
    assert main_metric("semeval07 trial+test") == main_metric("coinco dev+test") == ("LSG P@1", "lexsubgen_p@1")
    assert main_metric("tsar2022_pt test") == ("ACC@1", "acc@1")
    assert main_metric("prolex test") == ("F@10, acceptable", "acc_f@10")
    for benchmark in benchmark_choices():
        table, note = leaderboard(benchmark=benchmark)
        main, _ = main_metric(benchmark)
        assert table.columns[1] == main and ranked(table[main]), benchmark
        assert f"Ranked by **{main}**" in note
    table, _ = leaderboard(benchmark="semeval07 test")
    assert list(table["best"].iloc[:3]) == [23.31, 21.1, 12.9]  # CILex3, LexSubCon, then the task's best, ku


def test_the_split_selector_keeps_one_split_measured_and_published_apart_by_source():
    """The selector's choice: only that benchmark split's rows, each measured or published."""
    assert set(published_benchmarks()) < set(benchmark_choices())
    table, note = leaderboard(benchmark="swords_test_subset test")
    assert note.startswith("1 shipped result on ")  # one, not "1 stored results"
    assert list(table["system"]) == ["Humans", "humans", "Humans"]  # published 48.8, measured 36.7, not reported
    assert list(table["source"].str.startswith("published: ")) == [True, False, True]
    assert table["lenient F@10"].iloc[0] == 48.8 and table["lenient F@10"].isna().iloc[2]
    assert table["GAP-rat"].iloc[2] == 66.2
    table, note = leaderboard(benchmark="semeval07 test")
    assert table["source"].isin(MEASURED).sum() == 0 and note.startswith("0 shipped results on ")
    irst2 = table[table["system"] == "irst2 (oot duplicates in 1,232 items)"].iloc[0]
    assert (irst2["best"], irst2["best-m"], irst2["oot"], irst2["oot-m"]) == (6.94, 20.33, 68.9, 58.54)
    assert len(table) == len(published_systems("semeval07", "test")) == 10 + 7 + 3  # systems, baselines, CILex
    table, _ = leaderboard(benchmark="coinco dev+test")
    assert set(table["system"]) == {"XLNet+embs", "BERT", "RoBERTa+embs"}
    assert set(table["source"]) == {"published: Arefyev et al. 2020, unverified"}
    table, _ = leaderboard(benchmark="coinco dev")  # a split no paper reports on and no stored run
    assert table.empty
    with pytest.raises(Exception, match="Benchmark 'imagenet test' is not one of: swords test, swords dev"):
        leaderboard(benchmark="imagenet test")
    with pytest.raises(Exception, match="Benchmark 'all benchmarks' is not one of"):  # one split at a time
        leaderboard(benchmark="all benchmarks")


def test_a_tsar_benchmark_shows_every_official_team_and_run_on_its_own_board():
    """Against the shared task's own results files (results/official/TSAR2022_test_results_{en,es,pt}.csv): every
    team and run, with its ten official figures, under TSAR-2022's columns, in the files' order (by ACC@1); the
    SWORDS columns are not there."""
    for language, runs in (("en", 33), ("es", 17), ("pt", 16)):
        table, note = leaderboard(benchmark=f"tsar2022_{language} test")
        assert list(table.columns) == [
            "system",
            "ACC@1",
            "source",
            "ACC@1@Top1",
            "ACC@2@Top1",
            "ACC@3@Top1",
            "MAP@3",
            "MAP@5",
            "MAP@10",
            "Potential@3",
            "Potential@5",
            "Potential@10",
            "targets",
        ]
        assert note.endswith(
            "TSAR-2022's official metrics: fractions floored to 4 decimals, as tsar_eval.py prints them."
        )
        assert len(table) == runs and set(table["source"]) == {"published: Saggion et al. 2022, official results"}
        path = need(TSAR_DATA / "results" / "official" / f"TSAR2022_test_results_{language}.csv")
        with path.open(encoding="utf-8") as f:
            official = list(csv.DictReader(f))
        assert len(official) == runs
        assert list(table["ACC@1"]) == [float(line["ACC@1"]) for line in official]  # the official tables' ranking
        for line in official:
            # a team's run is "UniHD run 2"; the organisers' baselines (one run each) are their names
            shown = table[table["system"].isin([f"{line['Team']} run {line['Run']}", line["Team"]])]
            assert len(shown) == 1, line
            for column in ("ACC@1", "ACC@3@Top1", "MAP@10", "Potential@5"):
                assert shown.iloc[0][column] == float(line[column]), (line, column)
    table, _ = leaderboard(benchmark="prolex test")  # no published rows of ProLex here, and no stored run
    assert table.empty and list(table.columns[:2]) == ["system", "F@10, acceptable"]


def test_the_chart_has_a_bar_for_each_row_reporting_the_main_metric_in_the_tables_order(tmp_path, monkeypatch):
    """The page's handler: the board, fitted, its note and the chart; a measured run's bar apart from the published
    ones (colour, weight, data-source) and its name escaped."""
    for path in RESULTS.glob("*.metrics.json"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    hostile = json.loads((RESULTS / "thesaurus-oracle.swords.test.metrics.json").read_text())
    hostile["run"]["system"] = "<b>bold</b>\u202e"
    (tmp_path / "hostile.swords.test.metrics.json").write_text(json.dumps(hostile))
    monkeypatch.setenv("SWORDS_SPACE_RESULTS", str(tmp_path))
    board, partial_board, note, chart = on_board("swords test")
    assert partial_board.visible is False  # no partial run: no table of them
    table = board.value
    bars = re.findall(r'data-source="(\w+)" data-value="([\d.]+)"', chart)
    reporting = [row for row in published_systems("swords", "test") if "lenient_a_f@10" in row.metrics]
    assert len(bars) == len(reporting) + 4 == 17  # the ranking setting's rows (GAP-rat only) have no bar
    assert [float(value) for _, value in bars] == [row[1] for row in table["data"][: len(bars)]]
    assert [source for source, _ in bars].count("measured") == 4
    assert f"{len(table['data']) - len(bars)} rows do not report lenient F@10" in chart
    # Bars on an axis scaled to the figures (12 to 34.6): from 5 to 35, not from 0 to 100, so 30.9 and 34.6 differ.
    assert "lenient F@10 on swords test, best first" in chart and "Bars from 5 to 35, not from 0" in chart
    lengths = dict(re.findall(r'data-value="([\d.]+)".*?width:([\d.]+)%', chart))
    assert float(lengths["34.6"]) - float(lengths["30.9"]) > 10
    assert "&lt;b&gt;bold&lt;/b&gt;\\u202e" in chart and "<b>bold" not in chart and "\u202e" not in chart
    assert ">33.9</span>" in chart  # the coinco oracle's figure, as the table prints it
    widths = [int(width.removesuffix("px")) for width in board.column_widths]
    headers = table["headers"]
    assert len(widths) == len(headers) and widths[0] == 260  # a long system name wraps between its words
    for header, width in zip(headers[1:], widths[1:], strict=True):
        assert width >= 8.4 * len(header) + 16, header  # 8.4 px a character of the monospace font, 8 px padding
    assert board.label == "Leaderboard (percent)"  # the unit of its figures
    prolex, _, _, empty = on_board("prolex test")
    assert "No run or published result on this split reports F@10, acceptable." in empty
    tsar_board, _, _, tsar = on_board("tsar2022_en test")
    assert "Bars from 0 to 1." in tsar and tsar.count('data-source="published"') == 33  # 0.0 to 0.8096
    assert tsar_board.label == prolex.label == "Leaderboard (fraction 0–1)"


def test_the_api_answers_the_board_and_its_note():
    """/leaderboard's answer is the board (a Styler Gradio sends as its table) and the note, as it always was."""
    styled, note = on_leaderboard("swords_test_subset test")
    assert list(styled.data["system"]) == ["Humans", "humans", "Humans"] and note.startswith("1 shipped result ")
    assert "background-color: #eff6ff" in styled.to_html()  # the measured run tinted, as on the chart


def test_a_results_folder_s_names_partial_runs_and_long_names_are_shown_for_what_they_are(tmp_path, monkeypatch):
    """Issue 47: the note rendered file names as Markdown and HTML (`<img src=x …>.metrics.json` became an image); a
    `--limit 5` run was ranked among full runs, with only its targets to tell; a 5,000-character system name was "no
    system name"."""
    markdown_it = pytest.importorskip("markdown_it")
    hostile_results(tmp_path)
    table, note = leaderboard(tmp_path)
    page = markdown_it.MarkdownIt("commonmark").render(note)  # as a Markdown renderer shows the note
    assert "<img" not in page and "<em>" not in page and "<a " not in page
    assert page.count("<strong>") == 1  # the metric the board is ranked by, as the note writes it
    for name in HOSTILE_NAMES:
        assert html.escape(name, quote=False) in page  # the file's name, as it is
    # The partial run: after every run over the whole split and every published row, whatever its figure; its
    # targets "5 of 762"; the note says why. The others ranked as before.
    assert table.iloc[-1]["system"] == "quick" and table.iloc[-1]["targets"] == "5 of 762"
    assert table.iloc[-1]["source"] == "measured: your run, partial: 5 of 762 targets"  # the third column: in view
    assert table.iloc[-1]["lenient F@10"] == 80.0 and ranked(table["lenient F@10"][:-1])
    assert "1 partial run (over part of the split: `swords run --limit`" in note and "not ranked" in note
    assert table[table["system"] == "mine"].iloc[0]["targets"] == "762"
    # The long name: cut to what its column shows on one line (24 characters, and "…"), its length said.
    (long,) = table[table["system"].str.startswith("longname")]["system"]
    assert long == LONG_SYSTEM[:24] + "… (5,000 characters)" == "longnamelongnamelongname… (5,000 characters)"
    # The chart: the runs over the whole split, ranked; the partial run is not charted.
    monkeypatch.setenv("SWORDS_SPACE_RESULTS", str(tmp_path))
    board, partial_board, _, chart = on_board("swords test")
    assert 'data-value="30.0"' in chart and 'data-value="80.0"' not in chart
    # Issue 50: on the page the partial run is apart, in a table of its own below the board, whose row numbers are
    # then ranks of the runs over the whole split and the published rows only.
    systems = [row[0] for row in board.value["data"]]
    assert "quick" not in systems and "mine" in systems
    assert partial_board.visible is True and partial_board.label.startswith("Partial runs: over part of the split")
    assert [row[0] for row in partial_board.value["data"]] == ["quick"]
    assert partial_board.value["data"][0][2] == "measured: your run, partial: 5 of 762 targets"


def test_two_runs_of_one_system_are_told_apart_by_their_settings_file_and_date(tmp_path):
    """Issue 50: two runs of `llm` (one with another model) and a third with the same settings as the first were
    three rows named "llm". Each now names the settings it differs in, and its source its file and the time it was
    written (UTC); a system run once keeps its plain name and source."""
    base = json.loads((RESULTS / "thesaurus-oracle.swords.test.metrics.json").read_text())
    runs = {
        "gpt.swords.test": ({"model": "gpt-4o-mini", "mode": "chat"}, 31.0, "2026-03-01T09:30:00"),
        "davinci.swords.test": ({"model": "davinci-002", "mode": "chat"}, 29.0, "2026-03-02T18:05:00"),
        "again.swords.test": ({"model": "gpt-4o-mini", "mode": "chat"}, 30.0, "2026-03-03T00:00:00"),
    }
    for name, (options, figure, written) in runs.items():
        metrics = {**base, "lenient_a_f@10": figure, "run": {**base["run"], "system": "llm", "options": options}}
        path = tmp_path / f"{name}.metrics.json"
        path.write_text(json.dumps(metrics))
        stamp = datetime.fromisoformat(written).replace(tzinfo=UTC).timestamp()
        os.utime(path, (stamp, stamp))
    table, _ = leaderboard(tmp_path)
    llm = table[table["system"].str.startswith("llm")]
    assert list(llm["system"]) == ["llm (model=gpt-4o-mini)", "llm (model=gpt-4o-mini)", "llm (model=davinci-002)"]
    assert list(llm["source"]) == [
        "measured: your run; gpt.swords.test.metrics.json, 2026-03-01 09:30 UTC",
        "measured: your run; again.swords.test.metrics.json, 2026-03-03 00:00 UTC",
        "measured: your run; davinci.swords.test.metrics.json, 2026-03-02 18:05 UTC",
    ]
    assert table[table["system"] == "coinco-oracle"].iloc[0]["source"] == SHIPPED  # run once: as before
