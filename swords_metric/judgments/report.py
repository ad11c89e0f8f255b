"""The extended result as text: official and extended figures side by side, how many of the run's top-k the gold
held no judgement for before and after, what the judgments were checked against, the filter's counts, the
judgements a substitute has, and both signatures (the extended one says it is extended). Text from files (paths,
judge names, notes) goes through swords_lexsub.terminal.shown; an agreement is shown as its checked numbers only."""

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
    tasks = ", ".join(shown(path) for path in judged["tasks_files"])
    out = [
        f"On the gold extended by judgments ({files})",
        table_text(table),
        "",
        f"top-{top['k']} substitutes with no judgement in the gold: {top['before']:,} of {top['substitutes']:,} "
        f"({share(top['before'])}) before, {top['after']:,} ({share(top['after'])}) after",
        f"checked against their tasks ({tasks}): every record's task, target and candidate, and each task's "
        "controls as the task holds them",
        f"judgements kept: {judged['judgements']:,}, of {judged['substitutes']:,} new substitutes, by "
        f"{judged['judges']:,} judges (abstentions, left out as the benchmark's are: {judged['abstentions']:,}; "
        f"substitutes only abstained on, so still unjudged: {judged['abstained_only']:,})",
        f"records read {judged['records']:,}, duplicates {judged['duplicates']:,}, replaced by a later answer "
        f"{judged['replaced']:,}"
        + (f", of targets not scored {judged['outside_scored']:,}" if judged["outside_scored"] else ""),
        f"quality filter (SWORDS B.3): judges under 90% control accuracy dropped {judged['judges_dropped']:,} "
        f"({judged['tasks_dropped_judge']:,} tasks), tasks with a wrong control answer dropped "
        f"{judged['tasks_dropped_control']:,}, tasks with a control unanswered dropped "
        f"{judged['tasks_without_controls']:,}, tasks lacking a target or random control dropped "
        f"{judged['tasks_lacking_control']:,}, of {judged['tasks']:,}",
        f"one judgement per judge and substitute: {judged['folded']:,} answers to a substitute the same judge "
        "answered in another task folded into their later one",
        f"left as the benchmark judged them: {judged['already_judged']:,} judgements of substitutes it had; "
        f"the target word itself: {judged['target_copies']:,}",
        "judgements that count per substitute (abstentions left out): new "
        + _histogram(judged["judgements_per_substitute"]["new"])
        + "; the benchmark's "
        + _histogram(judged["judgements_per_substitute"]["benchmark"]),
    ]
    for judge, agreement in judged["agreement"].items():  # claimed_text's numbers: nothing from a record's text
        said = "never measured" if agreement == "unmeasured" else f"{agreement} (as its records claim; not checked)"
        out.append(f"LLM judge {shown(judge)}: agreement {said}")
    out += [f"note: {shown(note)}" for note in judged["notes"]]
    out += ["", f"extended signature: {extended['signature']}"]
    return "\n".join(out)
