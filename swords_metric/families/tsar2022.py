"""The TSAR-2022 family: its ten official metrics (Saggion et al. 2022, the shared task on lexical simplification),
computed as its scorer, tsar_eval.py, computes them, so that every figure equals the scorer's to the last bit.

What the official scorer does, and so what this does:
- gold: one line an instance, one item per annotation; an item equal to the complex word (case-sensitive) is
  dropped; the others are counted. "Top 1" gold is every substitute with the highest count (ties all count).
- predictions: items stripped of surrounding white space; later repeats and the complex word itself dropped
  (exact strings: "Word" and "word" are two answers, neither of them a copy of "word"); each metric reads the
  first k answers.
- matching: exact and case-sensitive, item against item (a multiword answer matches only the same multiword).
- ACC@1 (the scorer's "MAP@1/Potential@1/Precision@1"): the first answer is a gold substitute.
  ACC@k@Top1: one of the first k answers is a top-1 gold substitute. Potential@k: one of the first k is gold.
  MAP@k: per instance, the sum of precision at each rank i <= k whose answer is gold, divided by k (not by the
  number of gold answers); instances without answers score 0 in every metric and count in the mean.
- printed figures are floored, not rounded, to 4 decimals (`official_figures`); the results table prints them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from swords_metric.errors import MetricInputError, shown
from swords_metric.families.base import MAX_ANSWERS_KEPT, Metric, OfficialFamily, ReaderTable, floored
from swords_metric.metrics.bootstrap import InstanceStatistics

# Our metric key -> the name tsar_eval.py prints it under, in the order it prints them.
TSAR_METRICS: dict[str, str] = {
    "acc@1": "MAP@1/Potential@1/Precision@1",
    "map@3": "MAP@3",
    "map@5": "MAP@5",
    "map@10": "MAP@10",
    "potential@3": "Potential@3",
    "potential@5": "Potential@5",
    "potential@10": "Potential@10",
    "acc@1@top1": "Accuracy@1@top_gold_1",
    "acc@2@top1": "Accuracy@2@top_gold_1",
    "acc@3@top1": "Accuracy@3@top_gold_1",
}
# Our metric key -> the column of the shared task's results tables (results/official/*.csv, the findings paper).
TSAR_COLUMNS: dict[str, str] = {
    "acc@1": "ACC@1",
    "acc@1@top1": "ACC@1@Top1",
    "acc@2@top1": "ACC@2@Top1",
    "acc@3@top1": "ACC@3@Top1",
    "map@3": "MAP@3",
    "map@5": "MAP@5",
    "map@10": "MAP@10",
    "potential@3": "Potential@3",
    "potential@5": "Potential@5",
    "potential@10": "Potential@10",
}
PRINTED_DECIMALS = 4  # tsar_eval.py floors every figure to 4 decimals before printing it


@dataclass(frozen=True)
class TsarGold:
    """One instance's gold as tsar_eval.py holds it: the complex word, each other substitute's count in first-seen
    order, and the top-1 substitutes (every one with the highest count)."""

    target: str
    counts: dict[str, int]

    @property
    def top(self) -> frozenset[str]:
        best = max(self.counts.values())
        return frozenset(item for item, count in self.counts.items() if count == best)

    @classmethod
    def from_counts(cls, target: str, counted: Iterable[tuple[str, int]], where: str = "") -> TsarGold:
        """From (substitute, how many annotators gave it) pairs, stripped and merged as the scorer counts its items."""
        counts: dict[str, int] = {}
        for item, count in counted:
            item = item.strip()
            if item != target:
                counts[item] = counts.get(item, 0) + count
        if not counts:
            raise MetricInputError(
                f"{where or 'gold'}: no gold substitute other than the complex word {shown(target)} "
                "(tsar_eval.py cannot score such an instance)"
            )
        return cls(target, counts)

    @classmethod
    def from_row(cls, row: dict) -> TsarGold:
        """From a benchmark row: `votes_positive` of each substitute is how many annotators gave it."""
        where = f"reference {row.get('id')}"
        if not row.get("substitutes"):
            raise MetricInputError(f"{where}: no gold substitutes (tsar_eval.py cannot score an instance without gold)")
        counted = []
        for substitute in row.get("substitutes") or []:
            word, votes = substitute.get("substitute"), substitute.get("votes_positive")
            if not isinstance(word, str) or isinstance(votes, bool) or not isinstance(votes, int) or votes < 1:
                raise MetricInputError(
                    f"{where}: substitute {shown(word)} needs a string and a positive integer "
                    f"votes_positive (how many annotators gave it), got {shown(votes)}"
                )
            counted.append((substitute["substitute"], votes))
        if not isinstance(row.get("target"), str):
            raise MetricInputError(f"{where}: 'target' must be a string, got {shown(row.get('target'))}")
        return cls.from_counts(row["target"], counted, where)


def tsar_answers(items: Iterable[str], target: str, limit: int) -> tuple[list[str], int, bool]:
    """A system's answers as tsar_eval.py keeps them (stripped, later repeats and the complex word dropped), up to
    `limit` (10 or more changes no figure): (the answers kept, how many dropped, whether some were left unread)."""
    kept: list[str] = []
    seen: set[str] = set()
    dropped = 0
    for item in items:
        if len(kept) == limit:
            return kept, dropped, True
        item = item.strip()
        if item == target or item in seen:
            dropped += 1
        else:
            seen.add(item)
            kept.append(item)
    return kept, dropped, False


def _map_at(relevant: Sequence[bool], k: int) -> float:
    """One instance's MAP@k as the scorer computes it: precisions summed in rank order, divided by k."""
    average, seen = 0, 0
    for index, hit in enumerate(relevant[:k], 1):
        if hit:
            seen += 1
            average += seen / index
    return average / k


def tsar_instance_values(golds: Sequence[TsarGold], answers: Sequence[Sequence[str] | None]) -> dict[str, list[float]]:
    """Per instance, each metric's value (the metrics are their means): 1.0 or 0.0 for ACC and Potential, AP/k for
    MAP; `answers` as tsar_answers gives them (None or []: not answered)."""
    if len(golds) != len(answers):
        raise MetricInputError(f"predictions: {len(answers)} answer lists for {len(golds)} instances")
    if not golds:
        raise MetricInputError("references: none given; score against a benchmark split's rows")
    values: dict[str, list[float]] = {key: [] for key in TSAR_METRICS}
    for gold, given in zip(golds, answers, strict=True):
        given = list(given or ())
        relevant = [item in gold.counts for item in given]
        values["acc@1"].append(float(bool(relevant) and relevant[0]))
        for k in (3, 5, 10):
            values[f"map@{k}"].append(_map_at(relevant, k))
            values[f"potential@{k}"].append(float(any(relevant[:k])))
        for n in (1, 2, 3):
            values[f"acc@{n}@top1"].append(float(not gold.top.isdisjoint(given[:n])))
    return values


def tsar_scores(golds: Sequence[TsarGold], answers: Sequence[Sequence[str] | None]) -> dict[str, float]:
    """The ten official metrics (fractions, unfloored), summed in the scorer's order (hit counts as integers, MAP's
    values as floats, one after the other), then divided as it divides them."""
    values = tsar_instance_values(golds, answers)
    total = len(golds)
    result: dict[str, float] = {}
    for key, per_instance in values.items():
        if key.startswith("map@"):
            accumulated = 0
            for value in per_instance:
                accumulated += value
        else:
            accumulated = sum(int(value) for value in per_instance)
        result[key] = float(accumulated / total) if accumulated > 0 else 0.0
    return result


def official_figures(result: dict[str, float]) -> dict[str, float]:
    """The figures under the names tsar_eval.py prints, floored as it floors them."""
    return {name: floored(result[key], PRINTED_DECIMALS) for key, name in TSAR_METRICS.items()}


TSAR_CUTOFFS = "ACC@1, ACC@k@Top1 at 1-3, MAP@k and Potential@k at 3, 5, 10"
TSAR_TABLE = ReaderTable(
    title="TSAR-2022",
    metrics=tuple(Metric(key, label, label, label) for key, label in TSAR_COLUMNS.items()),
    keys=tuple(TSAR_METRICS),
    scale="fraction",
    decimals=PRINTED_DECIMALS,
    floored_decimals=PRINTED_DECIMALS,
    headline="acc@1",
    leaderboard=("acc@1",),
    summary=("acc@1", "map@3", "potential@3"),
    reported=tuple(TSAR_METRICS),
    how_shown="fractions floored to 4 decimals, as tsar_eval.py prints them",
    legend=(
        "TSAR-2022's official metrics, fractions floored to 4 decimals as tsar_eval.py prints them: ACC@1, the "
        "first answer is a gold substitute; ACC@k@Top1, one of the first k is a most frequent one; MAP@k, mean "
        "average precision at k (divided by k); Potential@k, one of the first k is gold"
    ),
)


class Tsar2022Family(OfficialFamily):
    """TSAR-2022's official metrics (see the module): means of per-instance values, at their own cut-offs."""

    name = "tsar2022"
    reader = TSAR_TABLE
    official_scorer = "tsar_eval.py@089c266"
    official_suffix = ".tsv"
    official_format = "sentence<TAB>complex word<TAB>answers…"
    untabled_source = ", official results"
    not_judged = (
        "TSAR-2022's official scorer counts matches against the annotators' suggestions and has no "
        "acceptability score per substitute for judgements to extend"
    )
    signs_k = False  # its metrics have their own cut-offs
    fixed_k = 10  # the only k accepted
    missing = (
        "each scored as an instance without answers (0 in every metric, counted in the mean); "
        "tsar_eval.py, given a file of the answered lines alone, would leave them out, as --given-only "
        "does"
    )

    def refusal(self, option: str, value: object) -> str | None:
        if option == "k" and value != self.fixed_k:
            return f"TSAR-2022's metrics have their own cut-offs ({TSAR_CUTOFFS})"
        return super().refusal(option, value)

    def gold(self, row: dict) -> TsarGold:
        return TsarGold.from_row(row)

    def gold_words(self, gold: TsarGold) -> dict[str, int]:
        return gold.counts

    def kept(self, given, row, k):
        return tsar_answers(given, row["target"], MAX_ANSWERS_KEPT)  # its metrics read the first 10

    def figures(self, golds, answers, k, intervals: dict | None) -> dict:
        figures = tsar_scores(golds, answers.ranked)
        return {
            **figures,
            **({"confidence_intervals": intervals} if intervals else {}),
            "official": official_figures(figures),
            "input_notes": {
                "complex_word_or_repeat_dropped": sum(answers.dropped),
                "targets_past_answer_limit": sum(answers.cut),
            },
        }

    def statistics(self, golds, ranked, k) -> InstanceStatistics:
        n = len(golds)
        return InstanceStatistics([(tsar_instance_values(golds, ranked), lambda sums: {m: sums[m] / n for m in sums})])

    def printed(self, result: dict, key: str) -> str:
        official = result.get("official", {}).get(TSAR_METRICS[key])
        if official is None:
            return ""
        if result.get("targets_not_in_predictions", 0):
            return f"   (floored: {official})"
        return f"   (tsar_eval.py prints {TSAR_METRICS[key]} = {official})"

    def report_notes(self, result: dict) -> list[str]:
        missing = result.get("targets_not_in_predictions", 0)
        if "official" not in result or not missing:
            return []
        return [
            f"floored: what tsar_eval.py prints for a file of all {result['targets_scored']:,} lines, the "
            f"{missing:,} not in the predictions without answers (for the lines given alone it prints what "
            "--given-only gives)"
        ]


TSAR2022 = Tsar2022Family()
