"""Judgments files uploaded in the Score tab extend the benchmark's gold (SWORDS's B.3 filter); the tab shows official
and extended figures side by side, what the filter left out, the new substitutes' judgements and the extended
signature, so that an extended figure never passes for an official one."""

from __future__ import annotations

from pathlib import Path

import gradio as gr
import pandas as pd

from swords_metric import family_of
from swords_space import benchmarks, scoring
from swords_space.errors import SpaceError
from swords_space.inputs import File
from swords_space.render import markdown_text, plural
from swords_space.table_widths import read_only_table
from swords_space.tabs.judge_files import MAX_JUDGMENTS_BYTES, checked_upload

MAX_FILES = 50  # judgments files at once (several people's, an LLM's)
EXTENDED_COLUMNS = ["metric", "key", "official", "extended", "change"]


def checked(uploads: list | None) -> list[tuple[Path, str]]:
    """The uploaded judgments files and their shown names, checked: at most MAX_FILES, regular, non-empty, at most
    MAX_JUDGMENTS_BYTES in all."""
    files = [checked_upload(upload, MAX_JUDGMENTS_BYTES, "judgments file") for upload in uploads or []]
    if len(files) > MAX_FILES:
        raise SpaceError(f"{len(files)} judgments files; at most {MAX_FILES} at once.")
    total = sum(path.stat().st_size for path, _ in files)
    if total > MAX_JUDGMENTS_BYTES:
        raise SpaceError(
            f"The judgments files have {total / 2**20:.1f} MB in all; at most {MAX_JUDGMENTS_BYTES // 2**20} MB."
        )
    return files


def extended_table(result: dict) -> pd.DataFrame:
    """Every SWORDS metric the tab shows, official and extended, and the change (points)."""
    extended = result.get("extended")
    if not extended:
        return pd.DataFrame(columns=EXTENDED_COLUMNS)
    rows = [
        [label, key, round(result[key], 2), round(extended[key], 2), scoring.rounded(extended[key] - result[key], 2)]
        for label, key in scoring.METRIC_ROWS
        if key in result and key in extended
    ]
    return pd.DataFrame(rows, columns=EXTENDED_COLUMNS)


def _histogram(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} judgement{'s' if n != '1' else ''}: {m:,}" for n, m in counts.items()) or "none"


def extended_summary(result: dict) -> str:
    """What the judgments added and what the filter left out, in a few lines."""
    judged = result.get("judgments")
    if not judged:
        return ""
    top = judged["unjudged_top_k"]
    lines = [
        f"**Extended gold**: {judged['judgements']:,} judgements of {judged['substitutes']:,} new substitutes by "
        f"{plural(judged['judges'], 'judge')}, from {plural(len(judged['files']), 'file')} "
        f"({plural(judged['records'], 'record')}).",
        f"The system's top {top['k']}: **{top['before']:,}** of {top['substitutes']:,} substitutes had no judgement "
        f"in the benchmark; **{top['after']:,}** have none in the extended gold.",
        f"Left out (SWORDS's filter): {judged['tasks_dropped_control']:,} tasks with a wrong control answer, "
        f"{plural(judged['judges_dropped'], 'judge')} under 90% control accuracy "
        f"({plural(judged['tasks_dropped_judge'], 'task')}), "
        f"{judged['tasks_without_controls']:,} tasks with a control unanswered, "
        f"{judged['tasks_lacking_control']:,} tasks lacking a target or random control; "
        f"{judged['duplicates']:,} duplicate records counted once; {judged['folded']:,} answers of a judge to a "
        "substitute they judged in another task too folded into their later one (one judgement per judge and "
        f"substitute); {judged['already_judged']:,} judgements of substitutes the benchmark judged already (its "
        "judgement kept).",
        f"Judgements per new substitute: {_histogram(judged['judgements_per_substitute']['new'])} (the benchmark's "
        "have up to 10).",
    ]
    agreement = judged.get("agreement") or {}
    for judge, measured in agreement.items():
        # Both come from the judgments files: shown as text, never as Markdown or HTML (a link, a script).
        said = markdown_text(measured) if measured else "never measured"
        lines.append(f"LLM judge {markdown_text(judge)}: agreement with SWORDS's annotators {said}.")
    # The merge's notes (a cut last line, records timed after its clock), as the command's report shows them.
    lines += [f"Note: {markdown_text(note)}" for note in judged["notes"]]
    return "\n\n".join(lines)


def shown(result: dict) -> tuple:
    """The updates of outputs(): the block shown only with judgments, its summary, table and signature."""
    has = "extended" in result
    return (
        gr.Column(visible=has),
        extended_summary(result),
        extended_table(result),
        result["extended"]["signature"] if has else "",
    )


def on_split(split_label):
    """The judgments files' input, shown where the benchmark's gold can take judgements; hidden, it holds none."""
    config, _ = benchmarks.choose_split(split_label)
    return gr.File(visible=True) if family_of(config).not_judged is None else gr.File(value=None, visible=False)


def inputs() -> gr.File:
    return File(
        what="The judgments files",
        label=f"Judgments files (optional; JSONL, at most {MAX_JUDGMENTS_BYTES // 2**20} MB in all): score on the "
        "gold they extend too",
        file_count="multiple",
        file_types=[".jsonl"],
        type="filepath",
        elem_id="score-judgments",
    )


def outputs() -> tuple:
    with gr.Column(visible=False, elem_id="score-extended-block") as block:
        summary = gr.Markdown(label="Extended gold", elem_id="score-extended-summary")
        table = read_only_table(
            label="Official and extended (percent)",
            headers=EXTENDED_COLUMNS,
            elem_id="score-extended",
        )
        signature = gr.Textbox(label="Extended signature", interactive=False, elem_id="score-extended-signature")
    return block, summary, table, signature
