"""What every metric family is (`Family`), and what its results mean to a reader (`ReaderTable`). A family is what
is true of a benchmark's metrics: its gold, per-target statistics, figures from summed statistics, reader table,
options, panels and reports. Behaviour is a method: callers ask the family, never its name.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

from swords_metric.errors import MetricInputError


@dataclass(frozen=True)
class Metric:
    """One metric as tables show it: its key, column label, row label, published column, and if compact tables do."""

    key: str
    label: str
    name: str
    paper: str
    compact: bool = True


def floored(value: float, decimals: int) -> float:
    """A figure floored (not rounded) to `decimals`, as tsar_eval.py prints its figures."""
    factor = 10**decimals
    return math.floor(value * factor) / factor


@dataclass(frozen=True)
class ReaderTable:
    """A family's figures as a reader reads them: every surface reads labels, units and rounding here."""

    title: str  # the family as a reader names it: "SWORDS", "TSAR-2022", "ProLex"
    metrics: tuple[Metric, ...]  # in the order tables show them (TSAR-2022: its results tables' order)
    keys: tuple[str, ...]  # an official family's result keys in a report's order ("{k}": the scorer's k)
    scale: str  # "percent" or "fraction", as its papers and scorers print them
    decimals: int  # the decimals a table shows
    floored_decimals: int | None  # figures its official scorer prints floored to this many decimals
    headline: str  # the metric a leaderboard ranks by where a split's published rows report it
    leaderboard: tuple[str, ...]  # the metrics a leaderboard ranks by: the first the split's published rows report
    summary: tuple[str, ...]  # the figures a one-line summary names
    reported: tuple[str, ...]  # the figures an lm-eval task reports
    how_shown: str  # what its figures are, in a few words
    legend: str  # what the labels of a published table stand for
    # Its labels' words defined (lenient, A, best…): lines shown where a reader meets them.
    defined: tuple[str, ...] = ()

    def shown(self, value: float) -> float:
        """A figure as the family's tables show it: floored (TSAR-2022's, as tsar_eval.py prints it), else rounded."""
        if self.floored_decimals is not None:
            return floored(value, self.floored_decimals)
        return round(value, self.decimals)

    def text(self, value: float) -> str:
        """A figure as a text table prints it: floored ones as tsar_eval.py does ("0.93"), others padded ("33.80")."""
        return str(self.shown(value)) if self.floored_decimals is not None else f"{value:.{self.decimals}f}"

    @property
    def unit(self) -> str:
        """The unit a table's heading says: "percent" or "fraction (0-1)"."""
        return "percent" if self.scale == "percent" else "fraction (0-1)"

    @property
    def labels(self) -> dict[str, str]:
        """Metric key -> short column label ("lenient F@10", "ACC@1"), in the tables' order."""
        return {metric.key: metric.label for metric in self.metrics}

    @property
    def names(self) -> dict[str, str]:
        """Metric key -> long label ("lenient F@10, acceptable"), in the tables' order."""
        return {metric.key: metric.name for metric in self.metrics}

    @property
    def compact(self) -> tuple[str, ...]:
        """The keys a compact table shows (the SWORDS metrics' without the precision and recall behind F@10)."""
        return tuple(metric.key for metric in self.metrics if metric.compact)


class Family:
    """A metric family (see the module); `str(family)` is its `name` ("swords", "tsar2022", "prolex"), as results,
    signatures and messages hold it. Subclasses say what differs."""

    name: str
    reader: ReaderTable
    not_judged: str | None = None  # why judgements cannot extend its gold (None: they can)
    official_scorer: str | None = None  # the official scorer its figures reproduce, at the commit the data pins
    official_suffix: str | None = None  # the extension that chooses its official predictions format (None: none)
    official_format: str | None = None  # that format's columns
    untabled_source: str = ""  # how a published row that no paper table holds is sourced (TSAR-2022's results files)
    not_swords: str = ""  # why the SWORDS metrics do not score its rows ("": they do)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<metric family {self.name}>"

    # -- the options it takes (swords_metric/options.py words the refusal for the CLI and for the Python API) --

    def refusal(self, option: str, value: object) -> str | None:
        """Why this family's metrics do not take an option's value, or None."""
        return None

    def default_bootstrap(self, default: int, compared: bool = False) -> int:
        """The resamples drawn when none are asked for."""
        return default

    def analysis(self, scorer, prepared, worst: int, relations: bool) -> dict | None:
        """The summary of what a system proposed (None: the family has no per-substitute details)."""
        return None

    def differences(self, scorer, a, b, n: int) -> list[dict] | None:
        """The targets where two systems differ most (None: the family has no per-target details)."""
        return None

    def curve(self, scorer, prepared, ks) -> dict | None:
        """Precision and recall at every k of `ks` (None: the family's metrics have no such curve)."""
        return None

    def report(self, result: dict, title: str, k: int, setting: str) -> str:
        """One system's result as a text report."""
        raise NotImplementedError

    def notes(self, result: dict, source: str) -> list[str]:
        """One-line notes on what scoring did with unusual input (printed on stderr, not an error)."""
        return []

    def check_k(self, k: int) -> None:
        """A k the family's metrics cannot read, refused when its scorer is made."""

    def keys(self, k: int) -> list[str]:
        """The metric keys of a result in a report's order ("{k}" in the reader table's keys: the scorer's k)."""
        return [key.format(k=k) for key in self.reader.keys]

    def golds(self, rows: list[dict], where: str) -> list:
        """Each row's gold as an official family's metrics read it (for its scorer); the SWORDS metrics refuse."""
        raise MetricInputError(f"references: {where} is scored with the SWORDS metrics (swords_metric.Scorer)")

    def refused_rows(self, row_id: str) -> MetricInputError | None:
        """The error for a row of this family given to the SWORDS metrics' Scorer (None: the SWORDS family's)."""
        if not self.not_swords:
            return None
        return MetricInputError(
            f"reference {row_id}: a {self} row; the SWORDS metrics do not score it: {self.not_swords} "
            f"(swords_metric.scorer_for(rows) gives its {self} scorer)"
        )


# The answers kept of one target, so that a file of any size costs what the split needs: far above any real system
# (TSAR-2022's metrics read the first 10; ProLex's the first k, k at most this).
MAX_ANSWERS_KEPT = 100
# Options of `swords evaluate` that only a family with per-substitute details uses (the SWORDS metrics).
DETAILS_ONLY = ("details", "force", "relations", "no_analysis", "worst", "differences", "include_problematic")


class OfficialFamily(Family):
    """A benchmark with its own official metrics (TSAR-2022, ProLex), as fractions (0-1), scored by FamilyScorer."""

    not_swords = (
        "its rows have no POS, which the SWORDS metrics lemmatize by (with English WordNet: meaningless for "
        "Spanish and Portuguese), and it has its own official metrics"
    )
    signs_k = True  # whether k decides its figures, so the signature names it
    missing: str = ""  # what became of the targets a file leaves out, and what its official scorer would do

    def refusal(self, option: str, value: object) -> str | None:
        if option in DETAILS_ONLY:
            return "details"  # the options table words it: it belongs to the SWORDS metrics
        if option == "setting" and value != "generative":
            return f"the {self} metrics score a system's ranked answers (generative)"
        return None

    def default_bootstrap(self, default: int, compared: bool = False) -> int:
        return default if compared else 0  # the official scorers give no intervals (the figures are theirs)

    def signature_settings(self, k: int, targets: int) -> tuple[tuple[str, object], ...]:
        """What decides the figures besides the benchmark and split."""
        settings: list[tuple[str, object]] = [("family", self.name)]
        if self.signs_k:
            settings.append(("k", k))
        settings += [("scorer", self.official_scorer), ("match", "exact"), ("scale", self.reader.scale)]
        return (*settings, ("targets", targets))

    def golds(self, rows: list[dict], where: str) -> list:
        return [self.gold(row) for row in rows]

    def gold(self, row: dict) -> object:
        """A row's gold as the metrics read it."""
        raise NotImplementedError

    def gold_words(self, gold) -> set[str] | dict[str, int]:
        """The words of a row's gold (an answer equal to one is held whole, however long)."""
        raise NotImplementedError

    def kept(self, given, row: dict, k: int) -> tuple[list[str], int, bool]:
        """What is kept of a row's ranked answers: (the answers, how many were dropped, whether some were cut)."""
        raise NotImplementedError

    def figures(self, golds, answers, k: int, intervals: dict | None) -> dict:
        """The figures (in the order results hold them), their 95% `intervals` when drawn, and their notes."""
        raise NotImplementedError

    def statistics(self, golds, ranked, k: int):
        """Per-instance statistics (bootstrap.py's Statistics) every interval and paired test resamples."""
        raise NotImplementedError

    def report(self, result: dict, title: str, k: int, setting: str) -> str:
        lines = [title, result["signature"], f"figures: {self.reader.how_shown}", ""]
        for key in self.keys(k):
            interval = result.get("confidence_intervals", {}).get(key)
            shown_interval = f"  [{interval[0]:.4f}, {interval[1]:.4f}]" if interval else ""
            lines.append(f"  {key:<14} {result[key]:.6f}{shown_interval}{self.printed(result, key)}")
        lines.append("")
        if "confidence_intervals" in result:
            lines.append("[…]: 95% bootstrap interval (instances resampled)")
        lines += self.report_notes(result)
        lines.append(
            f"targets: {result['targets_scored']:,}; without answers: {result['targets_without_predictions']:,} "
            f"(not in the predictions: {result.get('targets_not_in_predictions', 0):,})"
        )
        return "\n".join(lines)

    def printed(self, result: dict, key: str) -> str:
        """What a report adds after a figure: how its official scorer prints it (TSAR-2022's)."""
        return ""

    def report_notes(self, result: dict) -> list[str]:
        """Lines a report adds below its figures."""
        return []

    def notes(self, result: dict, source: str) -> list[str]:
        notes = []
        if missing := result["targets_not_in_predictions"]:
            notes.append(f"{missing:,} of {result['targets_scored']:,} targets are not in {source}: " + self.missing)
        if cut := (result.get("input_notes") or {}).get("targets_past_answer_limit"):
            notes.append(
                f"{source}: {cut:,} targets give more than {MAX_ANSWERS_KEPT:,} distinct answers; their first "
                f"{MAX_ANSWERS_KEPT:,} are kept (the metrics read the first 10)"
            )
        return notes


class ScorerBase(ABC):
    """The one scorer interface (as sacrebleu's metrics share one): a split's references scoring many systems."""

    family: Family  # the metric family (its name in results and signatures)
    k: int
    config: str | None
    split: str | None

    @abstractmethod
    def prepare(self, predictions, source: str = "predictions"):
        """Predictions given in Python (a mapping by target id, or one list per row), as the metrics read them."""

    @abstractmethod
    def read(self, path: str | Path, *args, **kwargs):
        """A predictions file in any of the family's forms, read in bounded memory and prepared."""

    def read_or_prepare(self, predictions, source: str, details=None, force: bool = False, given_only: bool = False):
        """The predictions as this scorer reads them: a file as a stream (its details written as read), or values."""
        if isinstance(predictions, str | Path):
            return self.read(predictions, source=source, details=details, details_force=force, partial=given_only)
        return self.prepare(predictions, source)

    @abstractmethod
    def restricted_to_given(self, predictions) -> tuple[ScorerBase, object]:
        """A scorer of just the targets the predictions name, and the predictions prepared for it."""

    @abstractmethod
    def target_statistics(self, predictions) -> object:
        """The per-target statistics every figure, interval and paired test is computed from."""

    @abstractmethod
    def score(self, predictions, bootstrap: int = 0, seed: int = 0, **options) -> dict:
        """The aggregate figures, the counts, 95% intervals when `bootstrap`, and the signature."""

    @abstractmethod
    def compare(
        self, predictions_a, predictions_b, bootstrap: int = 1000, seed: int = 0, sources: tuple[str, str] = ("A", "B")
    ) -> dict:
        """The paired bootstrap test: {a, b, metrics: {metric: a, b, difference, interval, p_value}, coverage, …}."""

    @abstractmethod
    def signature(self, bootstrap: int = 0, seed: int | None = None) -> str:
        """Everything that decides the numbers (swords_metric/signature.py)."""

    @staticmethod
    def _coverage(scored: int, a: list[bool], b: list[bool]) -> dict[str, int]:
        """How many of the `scored` targets each of the paired test's two inputs covers, and both."""
        both = sum(x and y for x, y in zip(a, b, strict=True))
        return {"targets_scored": scored, "a": sum(a), "b": sum(b), "both": both}
