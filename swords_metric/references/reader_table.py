"""What a family's result means to a reader, one table per family: its metric keys in a report's order, each
metric's labels, the scale and rounding of its figures (`shown`), its headline and leaderboard metrics. Each Family
(metric_family.py) points to its table as `family.reader`; the reports, the published tables, the lm-eval tasks
and the Space read it there, so that no surface keeps its own copy of a label or of a rounding rule."""

from __future__ import annotations

from dataclasses import dataclass

from swords_metric.official.prolex import PROLEX_ASPECTS
from swords_metric.official.tsar2022 import PRINTED_DECIMALS, TSAR_COLUMNS, TSAR_METRICS, floored


@dataclass(frozen=True)
class Metric:
    """One metric as tables show it: its result key, its short column label (a leaderboard's), its long label (a
    metrics table's row), its column in a published table (as papers head theirs), and whether compact tables (the
    leaderboard, the tables beside published rows) show it."""

    key: str
    label: str
    name: str
    paper: str
    compact: bool = True


@dataclass(frozen=True)
class ReaderTable:
    """A family's figures as a reader reads them (see the module)."""

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

    def shown(self, value: float) -> float:
        """A figure as the family's tables show it: TSAR-2022's floored to 4 decimals, as tsar_eval.py prints it;
        the others rounded to the family's decimals."""
        if self.floored_decimals is not None:
            return floored(value, self.floored_decimals)
        return round(value, self.decimals)

    def text(self, value: float) -> str:
        """A figure as a text table prints it: floored ones as tsar_eval.py prints them ("0.9276", "0.93"),
        the others to the family's decimals ("33.80")."""
        if self.floored_decimals is not None:
            return str(self.shown(value))
        return f"{value:.{self.decimals}f}"

    def metric_keys(self, k: int = 10) -> list[str]:
        """The keys of an official family's result, in the order reports show them ("{k}": the scorer's k)."""
        return [key.format(k=k) for key in self.keys]

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


def _swords_metrics() -> tuple[Metric, ...]:
    """The SWORDS metrics in its published tables' order: lenient then strict, acceptable then conceivable, F
    before the P and R behind it (compact tables leave those out), then GAP, SemEval-2007's and LexSubGen's."""
    metrics = []
    for setting in ("lenient", "strict"):
        for gold, letter, word in (("a", "", "acceptable"), ("c", "c", "conceivable")):
            prefix = "" if setting == "lenient" else "strict "
            for measure in "FPR":
                key = f"{setting}_{gold}_{measure.lower()}@10"
                short = f"{measure}{letter}@10" if measure == "F" else f"{measure}@10 {gold.upper()}"
                label = f"{setting} {short}"
                paper = f"{prefix}{measure}@10 {gold.upper()}"
                metrics.append(Metric(key, label, f"{setting} {measure}@10, {word}", paper, compact=measure == "F"))
    metrics += [
        Metric("gap", "GAP", "GAP", "GAP"),
        Metric("gap_rat", "GAP-rat", "GAP (ratio weights)", "GAP-rat"),
        Metric("best_r", "best", "best", "best"),
        Metric("best_mode_r", "best-m", "best-mode", "best-m"),
        Metric("oot_r", "oot", "oot", "oot"),
        Metric("oot_mode_r", "oot-m", "oot-mode", "oot-m"),
        Metric("strict_c_p@1", "P@1", "P@1 (strict, conceivable)", "P@1"),
        Metric("lexsubgen_p@1", "LSG P@1", "LexSubGen P@1", "LSG P@1"),
        Metric("lexsubgen_p@3", "LSG P@3", "LexSubGen P@3", "LSG P@3"),
        Metric("lexsubgen_r@10", "LSG R@10", "LexSubGen R@10", "LSG R@10"),
    ]
    return tuple(metrics)


SWORDS_TABLE = ReaderTable(
    title="SWORDS",
    metrics=_swords_metrics(),
    keys=(),
    scale="percent",
    decimals=2,
    floored_decimals=None,
    headline="lenient_a_f@10",
    # SemEval-2007's best where no paper reports F@10, else LexSubGen's P@1.
    leaderboard=("lenient_a_f@10", "best_r", "lexsubgen_p@1"),
    summary=("lenient_a_f@10",),
    # The SWORDS paper's Tables 4 and 8.
    reported=(
        "lenient_a_f@10",
        "lenient_c_f@10",
        "strict_a_f@10",
        "strict_c_f@10",
        "strict_c_p@1",
        "best_r",
        "best_mode_r",
        "oot_r",
        "oot_mode_r",
    ),
    how_shown="percentages, as the SWORDS paper reports them",
    legend=(
        "F@10 A / C: lenient F@10 against acceptable / conceivable substitutes; strict: the same without the "
        "lenient filter; GAP-rat: GAP weighted by score (the ranking setting's figure in the SWORDS paper); best, "
        "oot (and -m, mode): SemEval-2007 recall; P@1: strict precision at 1 against conceivable; LSG: LexSubGen's "
        "P@1, P@3, R@10; †: reranked by BERT (SWORDS paper); duplicates: oot answers with duplicates (McCarthy & "
        "Navigli)"
    ),
)
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
_PROLEX_GOLDS = {"acc": "acceptable", "prof": "proficiency-oriented"}
PROLEX_TABLE = ReaderTable(
    title="ProLex",
    metrics=tuple(
        Metric(f"{aspect}_{m}@10", *[f"{m.upper()}@10, {_PROLEX_GOLDS[aspect]}"] * 3)
        for aspect in PROLEX_ASPECTS
        for m in "prf"
    ),
    keys=tuple(f"{aspect}_{m}@{{k}}" for aspect in PROLEX_ASPECTS for m in "prf"),
    scale="fraction",
    decimals=4,
    floored_decimals=None,
    headline="acc_f@10",
    leaderboard=("acc_f@10",),
    summary=("acc_f@10", "prof_f@10"),
    reported=tuple(f"{aspect}_{m}@10" for aspect in PROLEX_ASPECTS for m in "prf"),
    how_shown="fractions to 4 decimals (evaluate.py's hard metrics: exact strings, k = 10)",
    legend=(
        "ProLex's hard metrics (evaluate.py), fractions: P, R and F at 10 against the acceptable and against the "
        "proficiency-oriented substitutes"
    ),
)
