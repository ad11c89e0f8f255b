"""A leaderboard of one benchmark split ("swords test", "tsar2022_en test"): the figures it shows, the main metric it
ranks by, a measured run's figures checked for their unit, the published rows on it, and the ranking. The Space's
Leaderboard tab lays it out."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from swords_metric.errors import MetricInputError
from swords_metric.families import Family, ReaderTable, family_of
from swords_metric.published import PublishedResult, published_systems

# SemEval-2007's oot credits an answer given twice twice (McCarthy & Navigli 2009): it may pass 100.
OVER_100 = frozenset({"oot_r"})
# Why a board ranks by its main metric, in a few words.
WHY_MAIN = {
    "lenient_a_f@10": "F@10 against the acceptable substitutes, lenient: the SWORDS paper's main metric",
    "best_r": "SemEval-2007's official best, which this split's papers report (none reports F@10)",
    "lexsubgen_p@1": "LexSubGen's precision at 1, which this split's papers report (none reports F@10 or best)",
    "acc@1": "TSAR-2022's official ranking metric (its results tables are sorted by it)",
    "acc_f@10": "F@10 against the acceptable substitutes: ProLex's evaluate.py default",
}


@dataclass(frozen=True)
class Board:
    """The leaderboard of one benchmark split, "CONFIG SPLIT" (see the module)."""

    benchmark: str

    @property
    def family(self) -> Family:
        """The split's metric family."""
        return family_of(self.benchmark.partition(" ")[0])

    @property
    def reader(self) -> ReaderTable:
        """The reader table of the split's metric family."""
        return self.family.reader

    @property
    def metrics(self) -> tuple[tuple[str, str], ...]:
        """(column label, metric key) of the figures the board shows: its family's compact metrics, in order."""
        return tuple((self.reader.labels[key], key) for key in self.reader.compact)

    @functools.cached_property
    def published(self) -> tuple[PublishedResult, ...]:
        """The published rows on the board: every system of every paper on the split that reports one of its figures."""
        config, _, split = self.benchmark.partition(" ")
        keys = {key for _, key in self.metrics}
        return tuple(row for row in published_systems(config, split) if keys & set(row.metrics))

    @property
    def main(self) -> tuple[str, str]:
        """(column label, metric key) of the metric the board ranks by: the first of its family's leaderboard metrics
        the split's published rows report (else the first)."""
        reported = {key for row in self.published for key in row.metrics}
        key = next((key for key in self.reader.leaderboard if key in reported), self.reader.leaderboard[0])
        return self.reader.labels[key], key

    @property
    def why_main(self) -> str:
        """Why the board ranks by its main metric, in a few words."""
        return WHY_MAIN[self.main[1]]

    def figure(self, value: float) -> float:
        """A measured figure as the board shows it: percentages to 1 decimal, as the papers print them."""
        return round(float(value), 1) if self.reader.scale == "percent" else self.reader.shown(value)

    def measured(self, metrics: Mapping) -> dict[str, float]:
        """A run's figures by column label, as the board shows them; one not in its family's unit is refused."""
        percent = self.reader.scale == "percent"
        row = {}
        for label, key in self.metrics:
            value = metrics.get(key)
            top = (1000 if key in OVER_100 else 100) if percent else 1
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= top:
                raise MetricInputError(f'"{key}" is not a {"percentage" if percent else "fraction"}')
            row[label] = self.figure(value)
        return row

    def published_figures(self, row: PublishedResult) -> dict[str, float | None]:
        """A published row's figures by column label, as its paper prints them (None: not reported)."""
        return {label: row.metrics.get(key) for label, key in self.metrics}

    def ranked(self, rows: Iterable[Mapping]) -> list[Mapping]:
        """Rows (by column label) ranked by the main metric, best first; rows without it last; ties as given."""
        main = self.main[0]
        return sorted(rows, key=lambda row: (row[main] is None, -(row[main] or 0)))

    def ranked_apart(self, rows: Iterable[Mapping], partial: Iterable[Mapping]) -> list[Mapping]:
        """The board in order: `rows` (published rows, and runs over every target of the split) ranked; then the
        runs over part of the split (`swords run --limit`), ranked among themselves only: their figures are over
        other targets."""
        return self.ranked(rows) + self.ranked(partial)
