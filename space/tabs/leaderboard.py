"""The Leaderboard tab: the stored baselines' results (every *.metrics.json `swords run` wrote in the results
folder) beside the published results (the metric's one file of them), one row each, sortable; a published row's
source says "published" and cites its paper and table."""

from __future__ import annotations

from pathlib import Path

import gradio as gr
import pandas as pd

from .. import SPACE_DIR
from ..published import PUBLISHED
from ..stored import metrics_files, read_metrics, results_dir

LEADERBOARD_METRICS = (
    ("lenient F@10", "lenient_a_f@10"),
    ("lenient Fc@10", "lenient_c_f@10"),
    ("strict F@10", "strict_a_f@10"),
    ("strict Fc@10", "strict_c_f@10"),
    ("GAP", "gap"),
    ("GAP-rat", "gap_rat"),
)
MEASURED = "measured (swords run)"
# The published rows that report a metric of the board (the SWORDS paper's Table 8 reports none of them).
PUBLISHED_ROWS = tuple(row for row in PUBLISHED if any(key in row.metrics for _, key in LEADERBOARD_METRICS))

# -- handlers -----------------------------------------------------------------------------------------------


def leaderboard_columns() -> list[str]:
    return ["system", "benchmark", "targets", *[label for label, _ in LEADERBOARD_METRICS], "source"]


def leaderboard(folder: str | Path | None = None) -> tuple[pd.DataFrame, str]:
    """Stored baselines' results (every *.metrics.json of the results folder, as `swords run` writes
    them) and the published results, one row each; and a note on what was skipped."""
    rows, skipped = [], []
    for path in metrics_files(folder):
        metrics = read_metrics(path)
        run = metrics.get("run") or {}
        numbers = all(isinstance(metrics.get(key), int | float) for _, key in LEADERBOARD_METRICS)
        if not run.get("system") or not numbers:
            skipped.append(path.name)
            continue
        rows.append([run["system"], f"{run.get('dataset', '?')} {run.get('split', '?')}",
                     int(metrics.get("targets_scored", 0)),
                     *[round(float(metrics[key]), 1) for _, key in LEADERBOARD_METRICS], MEASURED])
    for entry in PUBLISHED_ROWS:
        rows.append([entry.system, f"{entry.config} {entry.split}", None,
                     *[entry.metrics.get(key) for _, key in LEADERBOARD_METRICS], f"published: {entry.source}"])
    table = pd.DataFrame(rows, columns=leaderboard_columns())
    table = table.sort_values(["benchmark", "lenient Fc@10"], ascending=[True, False], na_position="last",
                              kind="stable").reset_index(drop=True)
    where = results_dir(folder).resolve()
    if where.is_relative_to(SPACE_DIR.parent):  # a path relative to the project, not the server's layout
        where = where.relative_to(SPACE_DIR.parent)
    note = f"{len(rows) - len(PUBLISHED_ROWS)} stored results from `{where}`"
    if skipped:
        note += f"; skipped (not a metrics file of `swords run`): {', '.join(skipped)}"
    return table, note + "."


# -- events and layout ----------------------------------------------------------------------------------------


def on_leaderboard():
    return leaderboard()


def build(demo: gr.Blocks) -> None:
    """The tab's components (inside its gr.Tab) and events; filled when the page loads."""
    gr.Markdown(
        "Stored baselines (the `*.metrics.json` that `swords run` writes) next to the published results, each "
        "marked *published* with its paper and table (blank: not reported). Click a column header to sort."
    )
    board = gr.Dataframe(label="Leaderboard", elem_id="leaderboard", headers=leaderboard_columns(), interactive=False)
    note = gr.Markdown(label="Sources")
    refresh = gr.Button("Refresh")
    refresh.click(on_leaderboard, None, [board, note], api_name="leaderboard")
    demo.load(on_leaderboard, None, [board, note], api_visibility="private")
