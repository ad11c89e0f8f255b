"""The Leaderboard tab's handler: stored results beside the published figures, a broken file skipped and named."""

from __future__ import annotations

import csv

import pytest

from ..metric.family_sources import TSAR_DATA, need
from .helpers import import_space

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_metric import metric_family, published_benchmarks, published_systems  # noqa: E402
from swords_space.tabs.leaderboard import ALL_BENCHMARKS, PUBLISHED_ROWS, benchmark_choices, leaderboard  # noqa: E402


def test_leaderboard_lists_stored_results_and_published_figures(tmp_path):
    table, note = leaderboard()
    measured = table[table["source"] == "measured (swords run)"]
    assert {"coinco-oracle", "thesaurus-oracle", "humans"} <= set(measured["system"])
    published = table[table["source"].str.startswith("published: ")]
    swords_family = [row for row in published_systems() if metric_family(row.config) == "swords"]
    assert len(published) == len(PUBLISHED_ROWS) == len(swords_family)  # every system of every paper on these metrics
    assert published.index.min() > measured.index.max()  # the published rows apart, below the runs measured here
    for entry in PUBLISHED_ROWS:
        row = published[
            (published["system"] == entry.label)
            & (published["benchmark"] == f"{entry.config} {entry.split}")
            & published["source"].str.startswith(f"published: {entry.source}")
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
    assert "published: Wada et al. 2022, Table 1" in set(published["source"])
    assert "published: Lee et al. 2021, Tables 4, 7, 8 (reproduced by coinco-oracle)" in set(published["source"])
    thesaurus = measured[measured["system"] == "thesaurus-oracle"].iloc[0]
    assert (thesaurus["lenient F@10"], thesaurus["lenient Fc@10"]) == (12.0, 44.9)  # reproduces Table 4
    (tmp_path / "broken.metrics.json").write_text("{not json")
    table, note = leaderboard(tmp_path)
    assert "broken.metrics.json" in note and len(table) == len(PUBLISHED_ROWS)


def test_the_benchmark_filter_keeps_one_split_measured_and_published_apart():
    """The dropdown's choice: only that benchmark split's rows, the runs measured here still above the published."""
    assert benchmark_choices()[0] == ALL_BENCHMARKS and set(published_benchmarks()) < set(benchmark_choices())
    table, note = leaderboard(benchmark="swords_test_subset test")
    assert set(table["benchmark"]) == {"swords_test_subset test"} and note.startswith("1 stored results on ")
    assert list(table["system"]) == ["humans", "Humans", "Humans"]  # measured; published generative, ranking
    assert table["lenient F@10"].iloc[1] == 48.8 and table["lenient F@10"].isna().iloc[2]
    assert table["GAP-rat"].iloc[2] == 66.2
    table, note = leaderboard(benchmark="semeval07 test")
    assert (table["source"] == "measured (swords run)").sum() == 0 and note.startswith("0 stored results on ")
    irst2 = table[table["system"] == "irst2 (oot duplicates in 1,232 items)"].iloc[0]
    assert (irst2["best"], irst2["best-m"], irst2["oot"], irst2["oot-m"]) == (6.94, 20.33, 68.9, 58.54)
    assert len(table) == len(published_systems("semeval07", "test")) == 10 + 7 + 3  # systems, baselines, CILex
    table, _ = leaderboard(benchmark="coinco dev+test")
    assert set(table["system"]) == {"XLNet+embs", "BERT", "RoBERTa+embs"}
    assert set(table["source"]) == {"published: Arefyev et al. 2020, unverified"}
    table, _ = leaderboard(benchmark="coinco dev")  # a split no paper reports on and no stored run
    assert table.empty
    with pytest.raises(Exception, match="Benchmark 'imagenet test' is not one of: all benchmarks, swords dev"):
        leaderboard(benchmark="imagenet test")


def test_a_tsar_benchmark_shows_every_official_team_and_run_on_its_own_board():
    """Against the shared task's own results files (results/official/TSAR2022_test_results_{en,es,pt}.csv): every
    team and run, with its ten official figures, under TSAR-2022's columns; the SWORDS columns are not there."""
    for language, runs in (("en", 33), ("es", 17), ("pt", 16)):
        table, note = leaderboard(benchmark=f"tsar2022_{language} test")
        assert list(table.columns) == [
            "system",
            "source",
            "benchmark",
            "targets",
            "ACC@1",
            "ACC@1@Top1",
            "ACC@2@Top1",
            "ACC@3@Top1",
            "MAP@3",
            "MAP@5",
            "MAP@10",
            "Potential@3",
            "Potential@5",
            "Potential@10",
        ]
        assert note.endswith(
            "TSAR-2022's official metrics: fractions floored to 4 decimals, as tsar_eval.py prints them."
        )
        assert len(table) == runs and set(table["source"]) == {"published: Saggion et al. 2022, official results"}
        assert list(table["ACC@1"]) == sorted(table["ACC@1"], reverse=True)  # best first
        path = need(TSAR_DATA / "results" / "official" / f"TSAR2022_test_results_{language}.csv")
        with path.open(encoding="utf-8") as f:
            official = list(csv.DictReader(f))
        assert len(official) == runs
        for line in official:
            # a team's run is "UniHD run 2"; the organisers' baselines (one run each) are their names
            shown = table[table["system"].isin([f"{line['Team']} run {line['Run']}", line["Team"]])]
            assert len(shown) == 1, line
            for column in ("ACC@1", "ACC@3@Top1", "MAP@10", "Potential@5"):
                assert shown.iloc[0][column] == float(line[column]), (line, column)
    table, _ = leaderboard(benchmark="prolex test")  # no published rows of ProLex here, and no stored run
    assert table.empty and "F@10, acceptable" in table.columns
