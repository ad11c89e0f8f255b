"""The Leaderboard tab: the stored baselines' results (every *.metrics.json `swords run` wrote in the results
folder), then, apart from them, the published results (the metric's one file of them), one row each, sortable; a
published row's source says "published", cites its paper and table, and names the system that reproduces it here."""

from __future__ import annotations

from pathlib import Path

import gradio as gr
import pandas as pd
from pandas.io.formats.style import Styler

from swords_dataset import CONFIGS
from swords_lexsub.terminal import shown
from swords_metric import metric_family, published_benchmarks
from swords_space import SPACE_DIR
from swords_space.inputs import Dropdown, refuse
from swords_space.published import PUBLISHED, shown_figure
from swords_space.scoring import FAMILY_METRIC_ROWS, PROLEX, TSAR2022
from swords_space.stored import UnusableFile, metrics_files, read_metrics, results_dir, skipped
from swords_space.tabs import score_family

LEADERBOARD_METRICS = (
    ("lenient F@10", "lenient_a_f@10"),
    ("lenient Fc@10", "lenient_c_f@10"),
    ("strict F@10", "strict_a_f@10"),
    ("strict Fc@10", "strict_c_f@10"),
    ("GAP", "gap"),
    ("GAP-rat", "gap_rat"),
    ("best", "best_r"),
    ("best-m", "best_mode_r"),
    ("oot", "oot_r"),
    ("oot-m", "oot_mode_r"),
    ("P@1", "strict_c_p@1"),
    ("LSG P@1", "lexsubgen_p@1"),
    ("LSG P@3", "lexsubgen_p@3"),
    ("LSG R@10", "lexsubgen_r@10"),
)
# SemEval-2007's oot credits an answer given twice twice (McCarthy & Navigli 2009): it may pass 100.
_OVER_100 = {"oot_r"}
ALL_BENCHMARKS = "all benchmarks"
SWORDS = "swords"  # the SWORDS metrics' family (swords_metric.metric_family)
MEASURED = "measured (swords run)"
PUBLISHED_SOURCE = "published: "
_PUBLISHED_STYLE = "background-color: #f3f4f6; color: #374151"
# The published rows that report a metric of the board: every system of every paper (SWORDS Table 7's precision
# and recall are not on the board, its F@10 are).
PUBLISHED_ROWS = tuple(row for row in PUBLISHED if any(key in row.metrics for _, key in LEADERBOARD_METRICS))
# A benchmark with its own official metrics has its own board, shown when one of its splits is chosen: its metrics
# (fractions, as its scorer prints them), its runs measured here and its published rows (TSAR-2022: every team and
# run of the official results). "All benchmarks" is the SWORDS metrics' board.
BOARD_METRICS = {SWORDS: LEADERBOARD_METRICS, **FAMILY_METRIC_ROWS}
# The column each board is sorted by, best first.
SORTED_BY = {SWORDS: "lenient Fc@10", TSAR2022: "ACC@1", PROLEX: "F@10, acceptable"}
FAMILY_PUBLISHED_ROWS = {
    family: tuple(row for row in PUBLISHED if metric_family(row.config) == family) for family in FAMILY_METRIC_ROWS
}

# -- handlers -----------------------------------------------------------------------------------------------


def leaderboard_columns(family: str = SWORDS) -> list[str]:
    # The source second: whether a row was measured here or published (and where) is read before its figures.
    return ["system", "source", "benchmark", "targets", *[label for label, _ in BOARD_METRICS[family]]]


def published_source(entry) -> str:
    """A published row's source: "published", its citation, and the system that reproduces it here, if any."""
    reproduced = f" (reproduced by {entry.reproduced_by})" if entry.reproduced_by else ""
    return f"{PUBLISHED_SOURCE}{entry.source}{reproduced}"


def _best_first(rows: list[list], family: str = SWORDS) -> list[list]:
    """Rows by benchmark, then by the board's main figure (SWORDS: lenient Fc@10), best first (not reported: last);
    ties keep their order."""
    fc = leaderboard_columns(family).index(SORTED_BY[family])
    benchmark = leaderboard_columns(family).index("benchmark")
    return sorted(rows, key=lambda row: (row[benchmark], row[fc] is None, -(row[fc] or 0)))


def measured_row(metrics: dict, family: str = SWORDS) -> list:
    """A metrics file's row of its family's board (its run header checked by stored.read_metrics): the figures must
    be percentages (the SWORDS metrics) or fractions (the others, as their scorers print them) and the targets a
    count, else UnusableFile says which."""
    run = metrics["run"]
    figures = []
    for _, key in BOARD_METRICS[family]:
        value = metrics.get(key)
        top = (1000 if key in _OVER_100 else 100) if family == SWORDS else 1
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= top:
            raise UnusableFile(f'"{key}" is not a {"percentage" if family == SWORDS else "fraction"}')
        figures.append(round(float(value), 1) if family == SWORDS else shown_figure(family, value))
    targets = metrics.get("targets_scored")
    if isinstance(targets, bool) or not isinstance(targets, int) or not 0 <= targets < 10**9:
        raise UnusableFile('"targets_scored" is not a count of targets')
    return [shown(run["system"]), MEASURED, f"{run['dataset']} {run['split']}", targets, *figures]


def benchmark_choices() -> list[str]:
    """The filter's choices: every benchmark split ("swords test", …, "semeval07 trial+test"), after "all"."""
    shipped = [f"{config} {split}" for config, splits in CONFIGS.items() for split in splits]
    return [ALL_BENCHMARKS, *dict.fromkeys([*shipped, *published_benchmarks()])]


def leaderboard(folder: str | Path | None = None, benchmark: str = ALL_BENCHMARKS) -> tuple[pd.DataFrame, str]:
    """Stored baselines' results (every *.metrics.json of the results folder, as `swords run` writes
    them) and the published results, one row each, of one benchmark split (or all); and a note on what was
    skipped (each logged once)."""
    if benchmark not in benchmark_choices():
        raise refuse(f"Benchmark {shown(benchmark)!r} is not one of: {', '.join(benchmark_choices())}")
    family = SWORDS if benchmark == ALL_BENCHMARKS else metric_family(benchmark.split(" ")[0])
    measured, skipped_names, elsewhere = [], [], 0
    for path in metrics_files(folder):
        metrics, row = read_metrics(path), None  # an unusable file is logged once where it is found so
        if metrics is not None:
            if metric_family(metrics["run"]["dataset"]) != family:  # on another family's board
                elsewhere += 1
                continue
            try:
                row = measured_row(metrics, family)
            except UnusableFile as error:
                skipped(path, str(error))
        if row is None:
            skipped_names.append(shown(path.name))
        else:
            measured.append(row)
    entries = PUBLISHED_ROWS if family == SWORDS else FAMILY_PUBLISHED_ROWS[family]
    published = [
        [
            entry.label,
            published_source(entry),
            f"{entry.config} {entry.split}",
            None,
            *[entry.metrics.get(key) for _, key in BOARD_METRICS[family]],
        ]
        for entry in entries
    ]
    if benchmark != ALL_BENCHMARKS:
        where_column = leaderboard_columns(family).index("benchmark")
        measured = [row for row in measured if row[where_column] == benchmark]
        published = [row for row in published if row[where_column] == benchmark]
    # The runs measured here first; the published rows apart, below them.
    table = pd.DataFrame(
        _best_first(measured, family) + _best_first(published, family), columns=leaderboard_columns(family)
    )
    where = results_dir(folder).resolve()
    if where.is_relative_to(SPACE_DIR.parent):  # a path relative to the project, not the server's layout
        where = where.relative_to(SPACE_DIR.parent)
    scope = "" if benchmark == ALL_BENCHMARKS else f" on {benchmark}"
    note = f"{len(measured)} stored results{scope} from `{shown(where)}`"
    if skipped_names:
        note += f"; skipped (not a metrics file of `swords run`): {', '.join(skipped_names)}"
    if family != SWORDS:
        note += f". {score_family.FAMILY_NAMES[family]}'s official metrics: {score_family.HOW_SHOWN[family]}"
    elif elsewhere or benchmark == ALL_BENCHMARKS:
        note += ". ProLex and TSAR-2022 have their own metrics and boards: choose one of their benchmarks"
    return table, note + "."


# -- events and layout ----------------------------------------------------------------------------------------


def styled(table: pd.DataFrame) -> Styler:
    """The board with the published rows shaded, apart from the runs measured here; blanks where not reported."""
    shade = table["source"].str.startswith(PUBLISHED_SOURCE)
    figures = {column: "{:g}" for column in table.columns[4:]}  # after system, source, benchmark, targets
    return table.style.apply(lambda line: [_PUBLISHED_STYLE if shade[line.name] else ""] * len(line), axis=1).format(
        figures | {"targets": "{:.0f}"}, na_rep=""
    )


def on_leaderboard(benchmark: str | None = ALL_BENCHMARKS):
    table, note = leaderboard(benchmark=benchmark or ALL_BENCHMARKS)
    return styled(table), note


def build(demo: gr.Blocks) -> None:
    """The tab's components (inside its gr.Tab) and events; filled when the page loads."""
    gr.Markdown(
        "Stored baselines (the `*.metrics.json` that `swords run` writes), then the published results, each marked "
        "*published* with its paper and table (blank: not reported; †: reranked by BERT; LSG: LexSubGen's "
        "figures). Click a column header to sort. ProLex and TSAR-2022 have their own official metrics: choose one of "
        "their benchmarks for their board (TSAR-2022: every team and run of the shared task's official results)."
    )
    benchmark = Dropdown(benchmark_choices(), value=ALL_BENCHMARKS, label="Benchmark", elem_id="leaderboard-benchmark")
    widths = ["14%", "17%", "9%", "4%", *[f"{56 / len(LEADERBOARD_METRICS):.1f}%"] * len(LEADERBOARD_METRICS)]
    board = gr.Dataframe(
        label="Leaderboard",
        elem_id="leaderboard",
        headers=leaderboard_columns(),
        interactive=False,
        wrap=True,
        column_widths=widths,
    )
    note = gr.Markdown(label="Sources")
    refresh = gr.Button("Refresh")
    refresh.click(on_leaderboard, benchmark, [board, note], api_name="leaderboard")
    benchmark.change(on_leaderboard, benchmark, [board, note], api_visibility="private")
    demo.load(on_leaderboard, benchmark, [board, note], api_visibility="private")
