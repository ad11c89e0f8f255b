"""The official families' metrics, one implementation each (TSAR-2022's, ProLex's) behind one interface that
FamilyScorer asks: a row's gold, the result of a system's answers, and the per-instance statistics (with how a
resample's sums become figures) that intervals and the paired test resample."""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from swords_metric.errors import MetricInputError
from swords_metric.official.answers import MAX_ANSWERS_KEPT
from swords_metric.official.bootstrap import Figures, family_intervals
from swords_metric.official.formats import MAX_CSV_ROW_CHARS, prolex_csv_answers, tsar_tsv_answers
from swords_metric.official.prolex import PROLEX_ASPECTS, prolex_counts, prolex_figures, prolex_gold, prolex_scores
from swords_metric.official.tsar2022 import TsarGold, official_figures, tsar_answers, tsar_instance_values, tsar_scores
from swords_metric.references.metric_family import PROLEX, TSAR2022, Family

Statistics = list[tuple[dict[str, list[float]], Figures]]  # groups of per-instance statistics, each its figures


class OfficialMetrics(ABC):
    """One official family's metrics over golds (one per row) and answers (one ranked list or None per row)."""

    family: Family
    label: str  # the benchmark as messages name it
    max_k: int | None = None  # the most answers of a target its metrics read at k (ProLex: as many as are kept)

    def check_k(self, k: int) -> None:
        """A k the family's metrics cannot read, refused (after the family's option checks)."""
        if self.max_k is not None and k > self.max_k:
            raise MetricInputError(
                f"k {k}: {self.label}'s metrics read a target's first k answers, and at most "
                f"{self.max_k:,} are kept of a target; give k up to {self.max_k:,}"
            )

    @abstractmethod
    def gold(self, row: dict) -> object:
        """A row's gold as the metrics read it."""

    @abstractmethod
    def gold_words(self, gold) -> set[str] | dict[str, int]:
        """The words of a row's gold (an answer equal to one is held whole, however long)."""

    @abstractmethod
    def kept(self, given: Iterable[str], row: dict, k: int) -> tuple[list[str], int, bool]:
        """What is kept of a row's ranked answers: (the answers, how many were dropped, whether some were cut)."""

    @abstractmethod
    def official_lines(self, path: Path, rows: list, max_bytes: int, max_chars: int, partial: bool) -> Iterator:
        """The family's official file format read line by line: (row position, answers, line) a line."""

    @abstractmethod
    def result(self, golds: Sequence, answers, k: int, bootstrap: int, seed: int) -> dict:
        """The figures (in the order results hold them), with 95% intervals when `bootstrap`."""

    @abstractmethod
    def statistics(self, golds: Sequence, ranked: Sequence, k: int) -> Statistics:
        """Per-instance statistics, in groups resampled alike, each with the figures a resample's sums give."""


class TsarMetrics(OfficialMetrics):
    """TSAR-2022's ten metrics: means of per-instance values (tsar2022.py)."""

    family, label = TSAR2022, "TSAR-2022"

    def gold(self, row: dict) -> TsarGold:
        return TsarGold.from_row(row)

    def gold_words(self, gold: TsarGold) -> dict[str, int]:
        return gold.counts

    def kept(self, given, row, k):
        return tsar_answers(given, row["target"], MAX_ANSWERS_KEPT)  # its metrics read the first 10

    def official_lines(self, path, rows, max_bytes, max_chars, partial):
        return tsar_tsv_answers(path, rows, max_bytes, max_chars, partial)

    def result(self, golds, answers, k, bootstrap, seed) -> dict:
        figures = tsar_scores(golds, answers.ranked)
        result: dict = dict(figures)
        if bootstrap:
            ((statistics, from_sums),) = self.statistics(golds, answers.ranked, k)
            result["confidence_intervals"] = family_intervals(statistics, from_sums, bootstrap, seed)
        result["official"] = official_figures(figures)
        result["input_notes"] = {
            "complex_word_or_repeat_dropped": sum(answers.dropped),
            "targets_past_answer_limit": sum(answers.cut),
        }
        return result

    def statistics(self, golds, ranked, k) -> Statistics:
        n = len(golds)
        return [(tsar_instance_values(golds, ranked), lambda sums: {name: sums[name] / n for name in sums})]


class ProlexMetrics(OfficialMetrics):
    """ProLex's precision, recall and F at k against each kind of gold: micro-averages of per-instance counts."""

    family, label, max_k = PROLEX, "ProLex", MAX_ANSWERS_KEPT

    def gold(self, row: dict) -> dict[str, list[str]]:
        return prolex_gold(row)

    def gold_words(self, gold: dict[str, list[str]]) -> set[str]:
        return {word for words in gold.values() for word in words}

    def kept(self, given, row, k):
        return list(itertools.islice(given, k)), 0, False  # its metrics read the first k

    def official_lines(self, path, rows, max_bytes, max_chars, partial):
        return prolex_csv_answers(path, rows, max_bytes, min(max_chars, MAX_CSV_ROW_CHARS))  # by position: whole

    def result(self, golds, answers, k, bootstrap, seed) -> dict:
        result: dict = {}
        groups = self.statistics(golds, answers.ranked, k)
        for aspect, (statistics, from_sums) in zip(PROLEX_ASPECTS, groups, strict=True):
            aspect_golds = [gold[aspect] for gold in golds]
            p, r, f = prolex_scores(aspect_golds, answers.ranked, k)
            result.update({f"{aspect}_p@{k}": p, f"{aspect}_r@{k}": r, f"{aspect}_f@{k}": f})
            result[f"targets_scored_{aspect}"] = sum(1 for gold in aspect_golds if gold)
            if bootstrap:
                intervals = family_intervals(statistics, from_sums, bootstrap, seed)
                result.setdefault("confidence_intervals", {}).update(intervals)
        return result

    def statistics(self, golds, ranked, k) -> Statistics:
        groups: Statistics = []
        for aspect in PROLEX_ASPECTS:
            names = [f"{aspect}_{m}@{k}" for m in "prf"]
            counts = prolex_counts([gold[aspect] for gold in golds], ranked, k)
            groups.append((counts, lambda sums, names=names: dict(zip(names, prolex_figures(**sums), strict=True))))
        return groups


_IMPLEMENTATIONS = {metrics.family: metrics for metrics in (TsarMetrics(), ProlexMetrics())}


def official_metrics(family: Family) -> OfficialMetrics:
    """The metrics of an official family (a MetricInputError for the SWORDS family, which Scorer scores)."""
    if not family.official:
        raise MetricInputError("references: these rows are scored with the SWORDS metrics (swords_metric.Scorer)")
    return _IMPLEMENTATIONS[family]
