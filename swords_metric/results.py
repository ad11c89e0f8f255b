"""What a Scorer's scoring returns: one system's result (every metric in percent, what its input covered, its notes,
per POS, intervals, the signature: Scorer.score) and the paired bootstrap test between two (Scorer.compare). Each
reads the split's targets as scored (ScoredTargets), the cut-off k and the Scorer's signature (`sign`)."""

from __future__ import annotations

from collections.abc import Callable

from swords_metric.metrics.bootstrap import intervals, paired_test
from swords_metric.metrics.target_scores import score_targets
from swords_metric.predictions.prepared import PreparedPredictions
from swords_metric.references.scored import ScoredTargets


def covered(targets: ScoredTargets, prepared: PreparedPredictions) -> list[bool]:
    """Per reference: scored, and given predictions (an empty list counts as given)."""
    return [scored and given for scored, given in zip(targets.scored, prepared.given_mask(), strict=True)]


def system_result(
    targets: ScoredTargets,
    prepared: PreparedPredictions,
    k: int,
    sign: Callable[[int, int], str],
    bootstrap: int,
    seed: int,
    by_pos: bool,
) -> dict:
    """Scorer.score's result of prepared predictions (its options checked), signed by `sign(bootstrap, seed)`."""
    scores = score_targets(targets.references, prepared.ranked, k)
    result: dict = scores.aggregate()
    result["targets_without_predictions"] = int(result["targets_without_predictions"])
    result["targets_scored"] = int(result["targets_scored"])
    result["targets_not_in_predictions"] = sum(targets.scored) - sum(covered(targets, prepared))
    result["targets_skipped"] = sum(targets.skipped)
    given = prepared.given_mask()
    result["predictions_for_skipped_targets"] = sum(
        skip and has for skip, has in zip(targets.skipped, given, strict=True)
    )
    result["id_scheme"] = prepared.scheme
    result["input_notes"] = prepared.notes.as_dict()
    if by_pos:
        result["by_pos"] = {pos: dict(metrics) for pos, metrics in scores.by_pos().items()}
    if bootstrap:
        result["confidence_intervals"] = intervals(scores, k, bootstrap, seed)
    result["signature"] = sign(bootstrap, seed)
    return result


def comparison(
    targets: ScoredTargets,
    a: PreparedPredictions,
    b: PreparedPredictions,
    k: int,
    sign: Callable[[int, int], str],
    bootstrap: int,
    seed: int,
    sources: tuple[str, str],
) -> dict:
    """Scorer.compare's result of two systems' prepared predictions (its options checked)."""
    scores_a, scores_b = (score_targets(targets.references, p.ranked, k) for p in (a, b))
    covered_a, covered_b = covered(targets, a), covered(targets, b)
    coverage = {
        "targets_scored": sum(targets.scored),
        "a": sum(covered_a),
        "b": sum(covered_b),
        "both": sum(x and y for x, y in zip(covered_a, covered_b, strict=True)),
    }
    return {
        "a": sources[0],
        "b": sources[1],
        "metrics": paired_test(scores_a, scores_b, k, bootstrap, seed),
        "coverage": coverage,
        "signature": sign(bootstrap, seed),
    }
