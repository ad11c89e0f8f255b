"""Accuracy, Cohen's kappa and Spearman's rho (ties averaged) against values worked out by hand."""

from __future__ import annotations

import pytest

from swords_metric import MetricInputError, accuracy, cohen_kappa, spearman


def test_accuracy():
    assert accuracy(["y", "y", "n", "n"], ["y", "n", "n", "n"]) == 0.75


def test_kappa_small():
    """Observed 3/4; chance: A says y half the time, B a quarter: 1/2 * 1/4 + 1/2 * 3/4 = 1/2; (3/4 - 1/2) / (1/2)."""
    assert cohen_kappa(["y", "y", "n", "n"], ["y", "n", "n", "n"]) == pytest.approx(0.5)


def test_kappa_of_a_two_by_two_table():
    """50 items: both yes 20, A yes B no 5, A no B yes 10, both no 15. Observed 35/50 = 0.7; A yes 25/50, B yes
    30/50: chance 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa (0.7 - 0.5) / 0.5 = 0.4."""
    a = ["yes"] * 20 + ["yes"] * 5 + ["no"] * 10 + ["no"] * 15
    b = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    assert cohen_kappa(a, b) == pytest.approx(0.4)


def test_kappa_three_labels_and_the_extremes():
    """Three labels, 6 items, 5 agree: observed 30/36; A: accept 3, reject 2, abstain 1; B: accept 2, reject 3,
    abstain 1; chance (3*2 + 2*3 + 1*1) / 36 = 13/36; kappa (30/36 - 13/36) / (1 - 13/36) = 17/23."""
    a = ["accept", "accept", "accept", "reject", "reject", "abstain"]
    b = ["accept", "accept", "reject", "reject", "reject", "abstain"]
    assert cohen_kappa(a, b) == pytest.approx(17 / 23)
    assert cohen_kappa(["y", "n"], ["y", "n"]) == 1.0
    assert cohen_kappa(["y", "n"], ["n", "y"]) == pytest.approx(-1.0)
    assert cohen_kappa(["y", "y"], ["y", "y"]) == 1.0


def test_spearman_with_ties_averaged():
    """x ranks 1, 2.5, 2.5, 4; y 1, 3, 2, 4; deviations from 2.5: (-1.5, 0, 0, 1.5) and (-1.5, 0.5, -0.5, 1.5);
    sum of products 4.5, sums of squares 4.5 and 5: rho = 4.5 / sqrt(22.5)."""
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(4.5 / 22.5**0.5)
    assert spearman([0.1, 0.5, 0.9], [3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 1, 1], [1, 2, 3]) is None  # a constant side has no ranking


def test_spearman_agrees_with_scipy():
    stats = pytest.importorskip("scipy.stats")
    x = [0.0, 0.5, 0.5, 1.0, 0.2, 0.2, 0.2, 0.9]
    y = [0.1, 0.3, 0.6, 0.6, 0.0, 0.5, 0.5, 1.0]
    assert spearman(x, y) == pytest.approx(stats.spearmanr(x, y).statistic)


def test_mismatched_or_empty_input_is_one_line():
    with pytest.raises(MetricInputError, match="agreement: 2 items against 3"):
        accuracy([1, 2], [1, 2, 3])
    with pytest.raises(MetricInputError, match="no items"):
        cohen_kappa([], [])
