"""The Leaderboard tab's handler: stored results beside the published figures, a broken file skipped and named."""

from __future__ import annotations

import pytest

from .helpers import import_space

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_metric import published_results  # noqa: E402
from swords_space.tabs.leaderboard import PUBLISHED_ROWS, leaderboard  # noqa: E402


def test_leaderboard_lists_stored_results_and_published_figures(tmp_path):
    table, note = leaderboard()
    measured = table[table["source"] == "measured (swords run)"]
    assert {"coinco-oracle", "thesaurus-oracle", "humans"} <= set(measured["system"])
    published = table[table["source"].str.startswith("published: ")]
    assert len(published) == len(PUBLISHED_ROWS) >= 6  # every published row reporting a metric of the board
    assert published.index.min() > measured.index.max()  # the published rows apart, below the runs measured here
    for entry in PUBLISHED_ROWS:
        row = published[(published["system"] == entry.system)
                        & published["source"].str.startswith(f"published: {entry.source}")]
        assert len(row) == 1
        for label, key in (("lenient Fc@10", "lenient_c_f@10"), ("strict F@10", "strict_a_f@10"),
                           ("GAP-rat", "gap_rat")):
            expected = entry.metrics.get(key)
            assert (row.iloc[0][label] == expected) if expected is not None else row[label].isna().all()
    assert {entry.source for entry in PUBLISHED_ROWS} <= {row.source for row in published_results()}
    assert "published: Wada et al. 2022, Table 1" in set(published["source"])
    assert "published: Lee et al. 2021, Table 4 (reproduced by coinco-oracle)" in set(published["source"])
    thesaurus = measured[measured["system"] == "thesaurus-oracle"].iloc[0]
    assert (thesaurus["lenient F@10"], thesaurus["lenient Fc@10"]) == (12.0, 44.9)  # reproduces Table 4
    (tmp_path / "broken.metrics.json").write_text("{not json")
    table, note = leaderboard(tmp_path)
    assert "broken.metrics.json" in note and len(table) == len(PUBLISHED_ROWS)
