"""A benchmark split's leaderboard (swords_metric.Board) on the real published results and the runs shipped with the
Space: its columns, its main metric, a run's figures checked for their unit and shown as the papers print them, and
the ranking."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from swords_metric import Board, MetricInputError, published_systems

RESULTS = Path(__file__).resolve().parents[2] / "space" / "results"


def test_a_swords_board_shows_the_papers_compact_columns_and_ranks_by_lenient_f10():
    board = Board("swords test")
    assert [label for label, _ in board.metrics][:4] == ["lenient F@10", "lenient Fc@10", "strict F@10", "strict Fc@10"]
    assert "lenient_a_p@10" not in {key for _, key in board.metrics}  # Table 7's precision: not on the board
    assert board.main == ("lenient F@10", "lenient_a_f@10") and "SWORDS paper's main metric" in board.why_main
    assert len(board.published) == len(published_systems("swords", "test"))
    # Splits whose papers report no F@10 rank by what they report: SemEval-2007's best, else LexSubGen's P@1.
    assert Board("semeval07 test").main == ("best", "best_r")
    assert Board("coinco dev+test").main == ("LSG P@1", "lexsubgen_p@1")
    assert Board("swords dev").main == ("lenient F@10", "lenient_a_f@10")  # no paper on it: the first


def test_a_shipped_run_is_shown_to_one_decimal_and_ranked_among_the_papers():
    metrics = json.loads((RESULTS / "coinco-oracle.swords.test.metrics.json").read_text(encoding="utf-8"))
    board = Board("swords test")
    row = board.measured(metrics)
    assert row["lenient F@10"] == round(metrics["lenient_a_f@10"], 1) == 33.9
    published = [board.published_figures(entry) | {"system": entry.label} for entry in board.published]
    ranking = board.ranked([row | {"system": "coinco-oracle"}, *published])
    figures = [r["lenient F@10"] for r in ranking]
    reported = [f for f in figures if f is not None]
    assert reported == sorted(reported, reverse=True) and figures[len(reported) :] == [None] * (
        len(figures) - len(reported)
    )
    assert ranking[0]["lenient F@10"] == 34.6  # GPT-3 (Lee et al. 2021, Table 4) above the oracle
    tied = board.ranked([{"lenient F@10": 30.0, "system": "a"}, {"lenient F@10": 30.0, "system": "b"}])
    assert [r["system"] for r in tied] == ["a", "b"]  # ties as given: measured runs are listed first
    # A run over part of the split (--limit 5, issue 47) comes after every other row, whatever its figure; partial
    # runs are ranked among themselves.
    partial = [{"lenient F@10": 80.0, "system": "quick"}, {"lenient F@10": 90.0, "system": "quicker"}]
    apart = board.ranked_apart([row | {"system": "coinco-oracle"}, *published], partial)
    assert apart[: len(ranking)] == ranking and [r["system"] for r in apart[len(ranking) :]] == ["quicker", "quick"]


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("lenient_a_f@10", 0.339, None),  # a fraction is a small percentage: not refused (nothing tells it apart)
        ("lenient_a_f@10", 133.9, '"lenient_a_f@10" is not a percentage'),
        ("gap", True, '"gap" is not a percentage'),
        ("oot_r", 250.0, None),  # SemEval-2007's oot may pass 100 (an answer given twice counts twice)
        ("oot_r", 1200.0, '"oot_r" is not a percentage'),
    ],
)
def test_a_run_figure_out_of_its_unit_is_refused_naming_it(key, value, message):
    metrics = json.loads((RESULTS / "coinco-oracle.swords.test.metrics.json").read_text(encoding="utf-8"))
    metrics[key] = value
    if message is None:
        Board("swords test").measured(metrics)
    else:
        with pytest.raises(MetricInputError, match=f"^{message}$"):
            Board("swords test").measured(metrics)


def test_a_tsar_board_has_its_official_fractions_floored_and_ranks_by_acc1():
    board = Board("tsar2022_en test")
    assert [key for _, key in board.metrics][:2] == ["acc@1", "acc@1@top1"] and board.main == ("ACC@1", "acc@1")
    assert board.family.name == "tsar2022" and board.reader.scale == "fraction"
    assert len(board.published) == 33  # every team and run on English test
    figures = {key: 0.123456789 for _, key in board.metrics}
    assert set(board.measured(figures).values()) == {math.floor(0.123456789 * 1e4) / 1e4}
    with pytest.raises(MetricInputError, match='^"acc@1" is not a fraction$'):
        board.measured(figures | {"acc@1": 12.3})  # a percentage where TSAR-2022's fractions go
    assert Board("prolex test").main == ("F@10, acceptable", "acc_f@10") and not Board("prolex test").published
