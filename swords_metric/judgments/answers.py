"""The merge rule, decided on the whole set of answers so that nothing depends on the order of files or lines.

Of one judge's answers to one item (a candidate of a task; in the fold, a substitute of a target, over tasks), the
answer with the latest `time` is kept. Answers with the same label at the same time are one answer, however often
given (`duplicates`); every other distinct answer is superseded by the latest (`replaced`, or `folded` over tasks).
Different labels at the latest time are refused, in any order, naming two records: no rule could say which one the
judge meant. Different labels at an earlier time are superseded like any earlier answer: the later answer is the
judge's last word on the item, so it decides, whatever came before it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from swords_metric.errors import MetricInputError


def _order(key: tuple) -> tuple:
    """A key (a tuple of strings, a control kind None among them) as it sorts: the same in any input order."""
    return tuple("" if part is None else part for part in key)


def place(where: str) -> tuple[str, int]:
    """A record's "FILE:LINE" as (file, line), to name records in an order that does not depend on the input's."""
    path, _, line = where.rpartition(":")
    return (path, int(line)) if line.isdigit() else (where, 0)


# What a refusal says of a tie: (key, (record, label), (record, label), time) -> the message.
Tie = Callable[[tuple, tuple[str, str], tuple[str, str], datetime], str]


class LaterWins:
    """Answers gathered by item (`add`), then decided all at once (`decided`): the order they came in is lost.
    Memory: a few fields per answer."""

    def __init__(self) -> None:
        self._items: dict[tuple, list[tuple[datetime, str, str, object]]] = {}
        self.answers = self.duplicates = self.superseded = 0

    def add(self, key: tuple, label: str, stamp: datetime, where: str, value: object = None) -> None:
        """One answer to the item `key` (stamp: an aware time), read at `where`, with what the caller keeps of it."""
        self.answers += 1
        answer = (stamp, label, where, value)
        held = self._items.get(key)
        if held is None:
            self._items[key] = [answer]
        else:
            held.append(answer)

    def decided(self, tie: Tie) -> dict[tuple, tuple[str, datetime, str, object]]:
        """key -> (label, time, record, value) of the answer kept (of the answers at the latest time, the first by
        place), and the counts `duplicates` (the same label at the same time again) and `superseded` (distinct
        answers a later one superseded). Different labels at an item's latest time are one MetricInputError (tie's
        message, of the smallest such key and its records first by place: the same in any order)."""
        kept, ties, duplicates, superseded = {}, [], 0, 0
        for key, answers in self._items.items():
            if len(answers) == 1:
                stamp, label, where, value = answers[0]
                kept[key] = (label, stamp, where, value)
                continue
            distinct = {(stamp, label) for stamp, label, _, _ in answers}
            duplicates += len(answers) - len(distinct)
            superseded += len(distinct) - 1
            latest = _latest(answers)
            if len({label for _, label, _, _ in latest}) > 1:
                ties.append(key)
                continue
            stamp, label, where, value = latest[0]
            kept[key] = (label, stamp, where, value)
        if ties:
            key = min(ties, key=_order)
            (stamp, label, where, _), *others = _latest(self._items[key])
            other = next(answer for answer in others if answer[1] != label)
            raise MetricInputError(tie(key, (where, label), (other[2], other[1]), stamp))
        self.duplicates, self.superseded = duplicates, superseded
        return kept


def _latest(answers: list[tuple]) -> list[tuple]:
    """The answers at the latest time, first by place (then label)."""
    latest = max(answer[0] for answer in answers)
    return sorted((answer for answer in answers if answer[0] == latest), key=lambda a: (place(a[2]), a[1]))
