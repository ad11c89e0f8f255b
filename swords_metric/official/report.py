"""A TSAR-2022 or ProLex result (FamilyScorer.score's) as a report shows it: its metric keys in order and a
plain-text table."""

from __future__ import annotations

from swords_metric.official.tsar2022 import TSAR_METRICS
from swords_metric.references.metric_family import family_named


def family_metric_keys(family: str, k: int = 10) -> list[str]:
    """The metric keys a family's result holds, in the order reports show them (its Family's table)."""
    return family_named(family).reader.metric_keys(k)


def format_family_result(result: dict, title: str, k: int = 10) -> str:
    """A plain-text table of a family's result (TSAR-2022: also as its scorer prints them, labelled so only where
    tsar_eval.py prints them: when every target scored is in the predictions)."""
    missing = result.get("targets_not_in_predictions", 0)
    lines = [title, result["signature"], ""]
    for key in family_metric_keys(result["family"], k):
        official = result.get("official", {}).get(TSAR_METRICS.get(key, ""), None)
        if official is None:
            shown_official = ""
        elif missing:
            shown_official = f"   (floored: {official})"
        else:
            shown_official = f"   (tsar_eval.py prints {TSAR_METRICS[key]} = {official})"
        interval = result.get("confidence_intervals", {}).get(key)
        shown_interval = f"  [{interval[0]:.4f}, {interval[1]:.4f}]" if interval else ""
        lines.append(f"  {key:<14} {result[key]:.6f}{shown_interval}{shown_official}")
    lines.append("")
    if "confidence_intervals" in result:
        lines.append("[…]: 95% bootstrap interval (instances resampled)")
    if "official" in result and missing:
        lines.append(
            f"floored: what tsar_eval.py prints for a file of all {result['targets_scored']:,} lines, the "
            f"{missing:,} not in the predictions without answers (for the lines given alone it prints what "
            "--given-only gives)"
        )
    lines.append(
        f"targets: {result['targets_scored']:,}; without answers: {result['targets_without_predictions']:,} "
        f"(not in the predictions: {missing:,})"
    )
    return "\n".join(lines)
