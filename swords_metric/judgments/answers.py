"""The merge rule, decided on the whole set of answers so that nothing depends on the order of files or lines.

Of one judge's answers to one item (a candidate of a task; in the fold, a substitute of a target, over tasks), the
answer with the latest `time` is kept. Answers with the same label at the same time are one answer, however often
given (`duplicates`); every other distinct answer is superseded by the latest (`replaced`, or `folded` over tasks).
Different labels at the latest time are refused, in any order, naming two records: no rule could say which one the
judge meant. Different labels at an earlier time are superseded like any earlier answer: the later answer is the
judge's last word on the item, so it decides, whatever came before it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from datetime import datetime

from swords_metric.errors import MetricInputError


def place(where: str) -> tuple[str, int]:
    """A record's "FILE:LINE" as (file, line), to name records in an order that does not depend on the input's."""
    path, _, line = where.rpartition(":")
    return (path, int(line)) if line.isdigit() else (where, 0)


class _Item:
    __slots__ = ("latest", "labels", "distinct", "count")

    def __init__(self, stamp: datetime):
        self.latest = stamp
        self.labels: dict[str, tuple[str, object]] = {}  # label at the latest time -> (record, value) first by place
        self.distinct: set[tuple[str, datetime]] = set()
        self.count = 0


# What a refusal says of a tie: (key, (record, label), (record, label), time) -> the message.
Tie = Callable[[Hashable, tuple[str, str], tuple[str, str], datetime], str]


class LaterWins:
    """Answers gathered by item (`add`), then decided all at once (`decided`): the order they came in is lost."""

    def __init__(self) -> None:
        self._items: dict[Hashable, _Item] = {}
        self.answers = 0

    def add(self, key: Hashable, label: str, stamp: datetime, where: str, value: object = None) -> None:
        """One answer to the item `key` (stamp: an aware time), read at `where`, with what the caller keeps of it."""
        item = self._items.get(key)
        if item is None:
            item = self._items[key] = _Item(stamp)
        elif stamp > item.latest:
            item.latest, item.labels = stamp, {}
        self.answers += 1
        item.count += 1
        item.distinct.add((label, stamp))
        if stamp == item.latest:
            held = item.labels.get(label)
            if held is None or place(where) < place(held[0]):
                item.labels[label] = (where, value)

    @property
    def duplicates(self) -> int:
        """Answers that were an answer again: the same label at the same time."""
        return sum(item.count - len(item.distinct) for item in self._items.values())

    @property
    def superseded(self) -> int:
        """Distinct answers a later one superseded."""
        return sum(len(item.distinct) - 1 for item in self._items.values())

    def decided(self, tie: Tie) -> dict[Hashable, tuple[str, datetime, str, object]]:
        """key -> (label, time, record, value) of the answer kept, keys sorted; different labels at an item's latest
        time are one MetricInputError (tie's message; of the smallest such key, so the same in any order)."""
        ties = [key for key, item in self._items.items() if len(item.labels) > 1]
        if ties:
            key = min(ties, key=repr)
            labels = self._items[key].labels
            one, other = sorted(((where, label) for label, (where, _) in labels.items()), key=lambda w: place(w[0]))[:2]
            raise MetricInputError(tie(key, one, other, self._items[key].latest))
        kept = {}
        for key in sorted(self._items, key=repr):
            item = self._items[key]
            ((label, (where, value)),) = item.labels.items()
            kept[key] = (label, item.latest, where, value)
        return kept
