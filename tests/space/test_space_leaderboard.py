"""The Leaderboard tab's handler: stored results beside the published figures, a broken file skipped and named."""

from __future__ import annotations

import pytest

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
        row = published[(published["system"] == entry.label) & (published["benchmark"] == f"{entry.config} "
                                                                                         f"{entry.split}")
                        & published["source"].str.startswith(f"published: {entry.source}")]
        assert len(row) == 1, entry
        for label, key in (("lenient Fc@10", "lenient_c_f@10"), ("strict F@10", "strict_a_f@10"),
                           ("GAP-rat", "gap_rat"), ("oot", "oot_r"), ("LSG P@3", "lexsubgen_p@3")):
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
