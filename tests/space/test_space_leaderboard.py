"""The Leaderboard tab's handler: stored results beside the published figures, a broken file skipped and named."""

from __future__ import annotations

import pytest

from .helpers import import_space

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_space.published import TABLE_4  # noqa: E402  (after the import fallback)
from swords_space.tabs.leaderboard import leaderboard  # noqa: E402


def test_leaderboard_lists_stored_results_and_published_figures(tmp_path):
    table, note = leaderboard()
    measured = table[table["source"] == "measured (swords run)"]
    assert {"coinco-oracle", "thesaurus-oracle", "humans"} <= set(measured["system"])
    for entry in TABLE_4:
        published = table[(table["system"] == entry.label) & (table["source"] != "measured (swords run)")]
        assert published.iloc[0]["lenient Fc@10"] == entry.metrics["lenient_c_f@10"]
    thesaurus = measured[measured["system"] == "thesaurus-oracle"].iloc[0]
    assert (thesaurus["lenient F@10"], thesaurus["lenient Fc@10"]) == (12.0, 44.9)  # reproduces Table 4
    (tmp_path / "broken.metrics.json").write_text("{not json")
    table, note = leaderboard(tmp_path)
    assert "broken.metrics.json" in note and len(table) == len(TABLE_4)
