"""The Score tab's summary on a benchmark with its own official metrics (ProLex, TSAR-2022: metric_family):
what was scored, its headline figures as its official scorer prints them (TSAR-2022: floored to 4 decimals), and
which parts of the tab are the SWORDS metrics' only (the curve, what a system proposed, by part of speech, the
targets where two files differ most). The figures are FamilyScorer.score's, laid out."""

from __future__ import annotations

from swords_metric import metric_family

SWORDS_ONLY = (
    "The precision/recall curve, what a system proposed (classes, WordNet relations, worst targets), the "
    "figures by part of speech and the targets where two files differ most apply to SWORDS, CoInCo and "
    "SemEval-2007 only."
)


def summary(result: dict, config: str, split: str, source: str) -> str:
    """What was scored, the headline figures and what was dropped as the official scorer drops it (ScoreResult.summary
    adds the comparison and that the SWORDS-only parts of the tab do not apply)."""
    reader = metric_family(config).reader  # the family's reader table: its name, labels, rounding, headline figures
    line = (
        f"Scored **{source}** on **{config} {split}** with {reader.title}'s official metrics "
        f"({reader.how_shown}): {result['targets_scored']:,} targets"
    )
    missing = result["targets_without_predictions"]
    if missing:
        line += f", **{missing:,} without answers** (each scores 0 and counts in the mean)"
    line += ". " + ", ".join(f"{reader.names[key]} **{reader.shown(result[key])}**" for key in reader.summary) + "."
    dropped = (result.get("input_notes") or {}).get("complex_word_or_repeat_dropped")
    if dropped:
        line += f" {dropped:,} answers were the complex word or a repeat (dropped, as tsar_eval.py drops them)."
    return line
