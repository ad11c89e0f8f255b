"""How far one set of labels agrees with another: accuracy, Cohen's kappa, and Spearman's rank correlation, small
on purpose (a validation compares a few hundred items). Also the one check of an agreement a judgments record claims
and its text in a signature: the toolkit cannot redo the validation, so the figures are shown as claimed, and two
claims with the same figures are one agreement."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

from swords_metric.errors import MetricInputError, shown

# A claimed agreement's figures (swords judge validate's keys): key, short name in a signature, lowest, highest.
CLAIMED = (
    ("kappa_acceptable", "kappa_a", -1.0, 1.0),
    ("kappa_conceivable", "kappa_c", -1.0, 1.0),
    ("spearman", "rho", -1.0, 1.0),
    ("accuracy_acceptable", "acc_a", 0.0, 1.0),
    ("accuracy_conceivable", "acc_c", 0.0, 1.0),
)


def _paired(a: Sequence, b: Sequence) -> int:
    if len(a) != len(b):
        raise MetricInputError(f"agreement: {len(a)} items against {len(b)}; give one of each per item")
    if not a:
        raise MetricInputError("agreement: no items to compare")
    return len(a)


def accuracy(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """The share of items given the same label."""
    n = _paired(a, b)
    return sum(x == y for x, y in zip(a, b, strict=True)) / n


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """Cohen's kappa, chance from each side's own label frequencies; 1.0 when both give every item one label."""
    n = _paired(a, b)
    observed = accuracy(a, b)
    count_a, count_b = Counter(a), Counter(b)
    chance = sum(count_a[label] * count_b[label] for label in count_a) / (n * n)
    return 1.0 if chance == 1.0 else (observed - chance) / (1.0 - chance)


def average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, tied values sharing the average of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start : end + 1]:
            ranks[i] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rho: Pearson's correlation of the average ranks. None when either side is constant."""
    n = _paired(x, y)
    rx, ry = average_ranks(x), average_ranks(y)
    mean = (n + 1) / 2
    dx, dy = [r - mean for r in rx], [r - mean for r in ry]
    sxx, syy = sum(d * d for d in dx), sum(d * d for d in dy)
    return sum(p * q for p, q in zip(dx, dy, strict=True)) / (sxx * syy) ** 0.5 if sxx and syy else None


# A validation's `candidates`: no measurement on fewer than 50 (1 in 50 moves an accuracy by 0.02), nor on more than
# SWORDS judged (dev 22,978 and test 45,705).
MIN_AGREEMENT_CANDIDATES = 50
MAX_AGREEMENT_CANDIDATES = 68_683


def check_agreement(agreement: object, where: str) -> dict | None:
    """A claimed agreement (a record's `agreement`, a `swords judge validate --output` entry) as its figures: None for
    null, else {figure: float, ..., "candidates": int}, each figure null or within its range, `candidates` a whole
    number in range and given with any figure; other keys are dropped. Anything else: a MetricInputError naming
    `where`."""
    if agreement is None:
        return None
    if not isinstance(agreement, dict):
        raise MetricInputError(f"{where} must be an object of figures or null, got {shown(agreement, 40)}")
    figures: dict = {}
    for key, _short, low, high in CLAIMED:
        value = agreement.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            raise MetricInputError(f"{where}: {key} must be a number within {low:g}..{high:g}, got {shown(value, 40)}")
        figures[key] = float(value)
    count = agreement.get("candidates")
    if count is None:
        if figures:
            raise MetricInputError(
                f"{where}: its figures name no candidates (how many they were measured on); a validation records "
                f"at least {MIN_AGREEMENT_CANDIDATES}"
            )
        return figures
    if isinstance(count, bool) or not isinstance(count, int):
        raise MetricInputError(f"{where}: candidates must be a whole number, got {shown(count, 40)}")
    if not MIN_AGREEMENT_CANDIDATES <= count <= MAX_AGREEMENT_CANDIDATES:
        raise MetricInputError(
            f"{where}: candidates {shown(count, 40)} is no measurement: a validation compares "
            f"{MIN_AGREEMENT_CANDIDATES} to {MAX_AGREEMENT_CANDIDATES:,} candidates (SWORDS judged no more)"
        )
    return {**figures, "candidates": count}


def claimed_text(agreement: dict | None) -> str:
    """A checked agreement as a signature shows it: "unmeasured", or "claimed:" and its figures
    (kappa_a=0.41,...,n=200): numbers only, so no text from a record reaches a signature."""
    if agreement is None:
        return "unmeasured"
    parts = [f"{short}={agreement[key]:.2f}" for key, short, _, _ in CLAIMED[:3] if agreement.get(key) is not None]
    if agreement.get("candidates") is not None:
        parts.append(f"n={agreement['candidates']}")
    return "claimed:" + (",".join(parts) or "no-figures")
