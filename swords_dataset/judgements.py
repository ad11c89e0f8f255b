"""What a substitute's score says about it: the benchmark's two thresholds and the classes they make, which the
metric, the statistics and the Space read. SWORDS scores a substitute by the share of annotators who accepted it:
*acceptable* above 50%, *conceivable* when one did (Lee et al. 2021, §3, Table 2); its scorer counts conceivable
from 10% (one positive of at most ten), which tells the two apart once a lemma's forms are merged.
"""

from __future__ import annotations

ACCEPTABLE_ABOVE = 0.5  # acceptable: score > 0.5
CONCEIVABLE_FROM = 0.1  # conceivable: score >= 0.1

ACCEPTABLE = "acceptable"
CONCEIVABLE = "conceivable"  # conceivable but not acceptable
JUDGED_UNACCEPTABLE = "judged unacceptable"  # in the benchmark, below the conceivable threshold
NOT_IN_BENCHMARK = "not in the benchmark"
CLASSES = (ACCEPTABLE, CONCEIVABLE, JUDGED_UNACCEPTABLE, NOT_IN_BENCHMARK)


def score_class(score: float) -> str:
    """The class of a judged substitute by its score (ACCEPTABLE, CONCEIVABLE or JUDGED_UNACCEPTABLE)."""
    if score > ACCEPTABLE_ABOVE:
        return ACCEPTABLE
    if score >= CONCEIVABLE_FROM:
        return CONCEIVABLE
    return JUDGED_UNACCEPTABLE
