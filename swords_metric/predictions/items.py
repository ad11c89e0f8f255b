"""A system's list for one target, in any form the metric accepts, read as [(substitute, score)]: the one reader of
prediction items, for Python values and files alike."""

from __future__ import annotations

from collections.abc import Sequence

from swords_metric.errors import MetricInputError, shown
from swords_metric.options import numpy_types
from swords_metric.predictions.bounded_text import OversizedInteger

_BY_POSITION = object()  # a {"substitute": ...} item without a "score": ranked by its position


def _score_value(score, where: str, position: int, substitute: str) -> float:
    """A score as the upstream scorer reads it (`float(score)`): numbers, booleans and numeric strings."""
    kind = type(score)
    if kind is float:
        value = score
    elif kind is int and -1e300 < score < 1e300:  # the common case, fast; huge ints take the long way
        value = float(score)
    else:
        item = f"{where}item {position} ({shown(substitute, 40)})"
        if score is None:
            raise MetricInputError(
                f"{item}: score is null; give a number (or leave the score out of a "
                '{"substitute": ...} item to rank it by position)'
            )
        if isinstance(score, OversizedInteger):
            raise MetricInputError(f"{item}: score is {score!r}, too large for a float")
        if isinstance(score, bytes) or not isinstance(score, (int, float, str, *numpy_types("integer", "floating"))):
            raise MetricInputError(f"{item}: score {shown(score, 40)} is not a number")
        try:
            value = float(score)
        except OverflowError:
            raise MetricInputError(f"{item}: score is too large for a float") from None
        except ValueError:
            raise MetricInputError(f"{item}: score {str(score)[:40]!r} is not a number") from None
    if value != value:
        raise MetricInputError(
            f"{where}item {position} ({shown(substitute, 40)}): score is NaN, which cannot be ranked"
        )
    return value


def normalize_prediction_items(items, target_id: str = "", at: str = "") -> list[tuple[str, float]]:
    """[(substitute, score)] from a plain ranked list, [substitute, score] pairs or {substitute, score} dicts (lists,
    tuples or numpy arrays); a plain list, and a dict item without a score, rank by position (scores 0, -1, -2, …,
    as upstream). Substitutes are kept as given, empty ones included. An error names `at` ("FILE:LINE"), if given."""
    where = (f"{at}: " if at else "") + (f"target {target_id}: " if target_id else "")
    if items is None:
        return []
    if isinstance(items, str | bytes) or not isinstance(items, (Sequence, *numpy_types("ndarray"))):
        raise MetricInputError(f"{where}predictions must be a list of substitutes, got {type(items).__name__}")
    pairs = []
    append = pairs.append
    for position, item in enumerate(items):
        kind = type(item)  # exact-type fast paths first: ABC isinstance checks dominate on long lists
        if kind is str:
            append((item, -float(position)))
            continue
        if (kind is list or kind is tuple) and len(item) == 2:
            substitute, score = item
            if type(substitute) is str:  # the common [substitute, score] of a file: no further checks needed
                score_kind = type(score)
                if score_kind is float and score == score:  # not NaN
                    append((substitute, score))
                    continue
                if score_kind is int and -1e300 < score < 1e300:
                    append((substitute, float(score)))
                    continue
        elif kind is dict and "substitute" in item:
            substitute, score = item["substitute"], item.get("score", _BY_POSITION)
        elif isinstance(item, str):  # numpy.str_ and other str subclasses
            pairs.append((str(item), -float(position)))
            continue
        elif (isinstance(item, (Sequence, *numpy_types("ndarray"))) and not isinstance(item, bytes)) and len(item) == 2:
            substitute, score = item
        else:
            raise MetricInputError(
                f"{where}item {position} is {shown(item)}, expected a substitute or [substitute, score]"
            )
        if not isinstance(substitute, str):
            raise MetricInputError(f"{where}item {position}: substitute {shown(substitute)} is not a string")
        substitute = str(substitute)
        value = -float(position) if score is _BY_POSITION else _score_value(score, where, position, substitute)
        pairs.append((substitute, value))
    return pairs
