"""The SWORDS paper's metric family (SWORDS, CoInCo, SemEval-2007 and rows of their schema), in percent, with
per-substitute details and a gold that judgements can extend. Its scorer is swords_metric.Scorer; its arithmetic
is swords_metric/metrics/."""

from __future__ import annotations

from swords_metric.families.base import Family, Metric, ReaderTable
from swords_metric.report import BEST_DEFINED, DUPLICATES_MEANT, SWORDS_DEFINED, SWORDS_UNIT, format_result


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
        *"lenient_a_f@10 lenient_c_f@10 strict_a_f@10 strict_c_f@10 strict_c_p@1".split(),
        *"best_r best_mode_r oot_r oot_mode_r".split(),
    ),
    how_shown=SWORDS_UNIT,
    legend=(
        "F@10 A / C: lenient F@10 against acceptable / conceivable substitutes; strict: the same without the "
        "lenient filter; GAP-rat: GAP weighted by score (the ranking setting's figure in the SWORDS paper); best, "
        "oot (and -m, mode): SemEval-2007 recall; P@1: strict precision at 1 against conceivable; LSG: LexSubGen's "
        "P@1, P@3, R@10; †: reranked by BERT (SWORDS paper); duplicates: oot answers with duplicates (McCarthy & "
        "Navigli). " + " ".join((*SWORDS_DEFINED, *BEST_DEFINED))
    ),
    defined=(*SWORDS_DEFINED, *BEST_DEFINED),
)

# What a SWORDS result counts of unusual input: (its input_notes key, how a note names one, many, and what it means).
_UNUSUAL = (
    ("empty_substitutes", "empty substitute", "empty substitutes", "counted as a wrong answer"),
    ("target_copies", "copy of the target", "copies of the target", "dropped"),
    ("duplicates", "duplicate after lemmatization", "duplicates after lemmatization", DUPLICATES_MEANT),
)


class SwordsFamily(Family):
    """The SWORDS paper's metrics (see the module)."""

    name = "swords"
    reader = SWORDS_TABLE

    def refusal(self, option: str, value: object) -> str | None:
        return "the papers report F@10" if option == "published" and value != 10 else None  # its tables report F@10

    def analysis(self, scorer, prepared, worst: int, relations: bool) -> dict:
        return scorer.analyze(prepared, worst=worst, relations=relations)

    def differences(self, scorer, a, b, n: int) -> list[dict]:
        return scorer.differences(a, b, n=n)

    def curve(self, scorer, prepared, ks) -> dict:
        return scorer.precision_recall(prepared, ks)

    def keys(self, k: int) -> list[str]:
        return [metric.key.replace("@10", f"@{k}") for metric in self.reader.metrics]

    def report(self, result: dict, title: str, k: int, setting: str) -> str:
        return format_result(result, title=title, setting=setting, k=k)

    def notes(self, result: dict, source: str) -> list[str]:
        notes = []
        if missing := result.get("targets_not_in_predictions", 0):
            notes.append(
                f"{missing:,} of {result['targets_scored']:,} scored targets are not in {source}: "
                "scored as empty answers, as upstream scores them"
            )
        unusual = result.get("input_notes") or {}
        parts = [
            f"{unusual[key]:,} {one if unusual[key] == 1 else many} ({meant})"
            for key, one, many, meant in _UNUSUAL
            if unusual.get(key)
        ]
        if parts:
            notes.append(f"{source}: " + ", ".join(parts) + "; scored as upstream scores them")
        if variants := unusual.get("unicode_variants"):
            notes.append(
                f"{source}: {variants:,} substitutes match a gold word only as plain text (invisible format "
                "characters removed, NFKC: composed accents, fullwidth letters, no-break spaces); not matched, "
                'as upstream does not match them (see the metric card, "Unicode")'
            )
        if skipped := result.get("predictions_for_skipped_targets", 0):
            notes.append(
                f"{skipped:,} predictions are for CoInCo's problematic targets, left out as upstream leaves them "
                "out (--include-problematic scores them)"
            )
        return notes


SWORDS = SwordsFamily()
