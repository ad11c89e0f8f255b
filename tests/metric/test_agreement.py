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


def test_a_claimed_agreement_is_its_figures_as_numbers():
    """check_agreement (evaluate's check of a record's claim, and judge llm's of its --agreement file): figures as
    floats (1 and 1.0 are one figure), `candidates` a whole number, other keys (a validation's time) left out."""
    from swords_metric import check_agreement

    one = check_agreement({"kappa_acceptable": 1, "candidates": 200, "time": "2026-01-01T00:00:00Z"}, "here")
    other = check_agreement({"kappa_acceptable": 1.0, "candidates": 200, "time": "2026-06-01T00:00:00Z"}, "here")
    assert one == other == {"kappa_acceptable": 1.0, "candidates": 200}
    assert repr(one["kappa_acceptable"]) == "1.0"
    assert check_agreement(None, "here") is None and check_agreement({}, "here") == {}


@pytest.mark.parametrize(
    ("claim", "message"),
    [
        ({"kappa_acceptable": 0.5, "candidates": 10}, "here: candidates 10 is no measurement: a validation"),
        ({"kappa_acceptable": 0.5, "candidates": 10**30}, "here: candidates 1000000000000000000000000000000 is no "),
        ({"kappa_acceptable": 0.5, "candidates": 49}, "here: candidates 49 is no measurement"),
        ({"kappa_acceptable": 0.5}, "here: its figures name no candidates (how many they were measured on)"),
        ({"candidates": 1e30}, "here: candidates must be a whole number, got 1e+30"),
        ({"candidates": True}, "here: candidates must be a whole number, got True"),
        ({"spearman": float("nan"), "candidates": 60}, "here: spearman must be a number within -1..1, got nan"),
    ],
)
def test_a_claim_no_validation_could_make_is_one_line(claim, message):
    from swords_metric import check_agreement

    with pytest.raises(MetricInputError) as error:
        check_agreement(claim, "here")
    assert str(error.value).startswith(message) and "\n" not in str(error.value)


def test_the_most_candidates_a_validation_can_compare_is_what_swords_judged():
    """MAX_AGREEMENT_CANDIDATES is every judged candidate of SWORDS's splits (validate samples one split's)."""
    import swords_dataset
    from swords_metric import MIN_AGREEMENT_CANDIDATES, check_agreement
    from swords_metric.judgments.agreement import MAX_AGREEMENT_CANDIDATES

    judged = sum(len(row["substitutes"]) for split in ("dev", "test") for row in swords_dataset.rows("swords", split))
    assert MAX_AGREEMENT_CANDIDATES == judged == 68_683
    assert check_agreement({"spearman": 0.3, "candidates": judged}, "here")["candidates"] == judged
    assert check_agreement({"spearman": 0.3, "candidates": MIN_AGREEMENT_CANDIDATES}, "here")["spearman"] == 0.3
