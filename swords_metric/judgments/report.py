"""The extended result as text: official and extended figures side by side, how many of the run's top-k the gold
held no judgement for before and after, the judgments' filter counts, the judgements a substitute has, and both
signatures (the extended one says it is extended)."""

from __future__ import annotations

from swords_lexsub.terminal import shown
from swords_metric.report import table_text


def metric_names(k: int, setting: str) -> list[str]:
    """The figures compared: P/R/F@k lenient and strict against acceptable and conceivable, strict P@1 against
    conceivable, and GAP in the ranking setting."""
    names = [f"{s}_{t}_{m}@{k}" for s in ("lenient", "strict") for t in ("a", "c") for m in ("f", "p", "r")]
    names.append("strict_c_p@1")
    return names + (["gap", "gap_rat"] if setting == "ranking" else [])


def _histogram(counts: dict[str, int]) -> str:
    return ", ".join(f"{n}: {count:,}" for n, count in counts.items()) or "(none)"


def format_extended(result: dict, k: int = 10, setting: str = "generative") -> str:
    """The judgments part of a report (result: extended_scores's)."""
    extended, judged = result["extended"], result["judgments"]
    table = [["", "official", "extended", "change"]]
    for name in metric_names(k, setting):
        table.append([name, f"{result[name]:.2f}", f"{extended[name]:.2f}", f"{extended[name] - result[name]:+.2f}"])
    top = judged["unjudged_top_k"]
    share = (lambda n: f"{100 * n / top['substitutes']:.1f}%") if top["substitutes"] else (lambda n: "-")
    files = ", ".join(shown(path) for path in judged["files"])
    out = [
        f"On the gold extended by judgments ({files})",
        table_text(table),
        "",
        f"top-{top['k']} substitutes with no judgement in the gold: {top['before']:,} of {top['substitutes']:,} "
        f"({share(top['before'])}) before, {top['after']:,} ({share(top['after'])}) after",
        f"judgements kept: {judged['judgements']:,}, of {judged['substitutes']:,} new substitutes, by "
        f"{judged['judges']:,} judges; records read {judged['records']:,}, duplicates {judged['duplicates']:,}, "
        f"answered again {judged['replaced']:,}",
        f"quality filter (SWORDS B.3): judges under 90% control accuracy dropped {judged['judges_dropped']:,} "
        f"({judged['tasks_dropped_judge']:,} tasks), tasks with a wrong control answer dropped "
        f"{judged['tasks_dropped_control']:,}, tasks without controls dropped {judged['tasks_without_controls']:,}, "
        f"of {judged['tasks']:,}",
        f"left as the benchmark judged them: {judged['already_judged']:,} judgements of substitutes it had; "
        f"the target word itself: {judged['target_copies']:,}",
        "judgements that count per substitute (abstentions left out): new "
        + _histogram(judged["judgements_per_substitute"]["new"])
        + "; the benchmark's "
        + _histogram(judged["judgements_per_substitute"]["benchmark"]),
    ]
    for judge, agreement in judged["agreement"].items():
        out.append(
            f"LLM judge {shown(judge)}: agreement " + ("never measured" if agreement is None else str(agreement))
        )
    out += [f"note: {shown(note)}" for note in judged["notes"]]
    out += ["", f"extended signature: {extended['signature']}"]
    return "\n".join(out)
