"""The Leaderboard tab: one benchmark split at a time (SWORDS test first), its runs measured here (every
*.metrics.json `swords run` wrote in the results folder) and its published results (the metric's one file of them)
in one ranking by the split's main metric, best first, with a bar chart of that metric beside the table. A published
row's source says "published", cites its paper and table, and names the system that reproduces it here; published
rows are shaded grey, measured runs tinted blue and bold, in the table and the chart alike."""

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
from swords_space.render import plural
from swords_space.render_board import Bar, bar_chart_html, figure
from swords_space.scoring import FAMILY_METRIC_ROWS, PROLEX, TSAR2022
from swords_space.stored import UnusableFile, metrics_files, read_metrics, results_dir, skipped
from swords_space.table_widths import unbroken, width_px
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
DEFAULT_BENCHMARK = "swords test"
SWORDS = "swords"  # the SWORDS metrics' family (swords_metric.metric_family)
SHIPPED, YOURS = "measured: shipped", "measured: your run"  # a run's source: the Space's results, or the user's
MEASURED = (SHIPPED, YOURS)
PUBLISHED_SOURCE = "published: "
_PUBLISHED_STYLE = "background-color: #f3f4f6; color: #374151"
_MEASURED_STYLE = "background-color: #eff6ff; font-weight: 600"  # render_board's measured hue, lighter
# The published rows that report a metric of the board: every system of every paper (SWORDS Table 7's precision
# and recall are not on the board, its F@10 are).
PUBLISHED_ROWS = tuple(row for row in PUBLISHED if any(key in row.metrics for _, key in LEADERBOARD_METRICS))
# A benchmark with its own official metrics has its own board: its metrics (fractions, as its scorer prints them),
# its runs measured here and its published rows (TSAR-2022: every team and run of the official results).
BOARD_METRICS = {SWORDS: LEADERBOARD_METRICS, **FAMILY_METRIC_ROWS}
FAMILY_PUBLISHED_ROWS = {SWORDS: PUBLISHED_ROWS} | {
    family: tuple(row for row in PUBLISHED if metric_family(row.config) == family) for family in FAMILY_METRIC_ROWS
}
# The main metric a board is ranked and charted by, the first of its family's that the split's published rows
# report (a split no paper reports on: the first). SWORDS, CoInCo, SemEval-2007: the SWORDS paper's lenient F@10
# against acceptable substitutes; where no paper reports it, SemEval-2007's best, else LexSubGen's P@1.
MAIN_METRICS = {SWORDS: ("lenient_a_f@10", "best_r", "lexsubgen_p@1"), TSAR2022: ("acc@1",), PROLEX: ("acc_f@10",)}
WHY_MAIN = {
    "lenient_a_f@10": "F@10 against the acceptable substitutes, lenient: the SWORDS paper's main metric",
    "best_r": "SemEval-2007's official best, which this split's papers report (none reports F@10)",
    "lexsubgen_p@1": "LexSubGen's precision at 1, which this split's papers report (none reports F@10 or best)",
    "acc@1": "TSAR-2022's official ranking metric (its results tables are sorted by it)",
    "acc_f@10": "F@10 against the acceptable substitutes: ProLex's evaluate.py default",
}
# Column widths: a column fits its header and its longest figure or text on one line (the table's font is
# monospace, 8.4 px a character at Gradio's default size, bold ones too; 9 leaves room), plus its padding; a
# system's name wraps between its words past SYSTEM_PX. A header is never wrapped: "proficiency-oriented" would
# break at its hyphen.
CHAR_PX, PAD_PX, SYSTEM_PX, SOURCE_CHARS = 9, 28, 260, 22

ABOUT = """One benchmark split at a time, ranked by its main metric, best first. The runs measured here are tinted blue,
in bold: the results shipped with the Space and your own. The published results are shaded grey; the source column
cites paper and table. Blank: not reported; †: reranked by BERT; LSG: LexSubGen's figures. Click a header to sort
by it; scroll sideways for every metric. ProLex and TSAR-2022 are ranked by their own official metrics.

**Add your run:** `swords run --system SYSTEM --dataset swords --split test --output runs/mine.jsonl` writes
`runs/mine.metrics.json`. Then `swords demo --results runs` shows it here, marked "your run", beside the rest."""

# -- handlers -----------------------------------------------------------------------------------------------


def benchmark_choices() -> list[str]:
    """The selector's choices: SWORDS test first, then every benchmark split ("swords dev", …, "coinco dev+test")."""
    shipped = [f"{config} {split}" for config, splits in CONFIGS.items() for split in splits]
    return list(dict.fromkeys([DEFAULT_BENCHMARK, *shipped, *published_benchmarks()]))


def main_metric(benchmark: str) -> tuple[str, str]:
    """(column label, metric key) of the metric a benchmark split's board is ranked and charted by."""
    family = metric_family(benchmark.split(" ")[0])
    reported = {
        key for row in FAMILY_PUBLISHED_ROWS[family] if f"{row.config} {row.split}" == benchmark for key in row.metrics
    }
    key = next((key for key in MAIN_METRICS[family] if key in reported), MAIN_METRICS[family][0])
    return dict((key, label) for label, key in BOARD_METRICS[family])[key], key


def leaderboard_columns(benchmark: str = DEFAULT_BENCHMARK) -> list[str]:
    """The board's columns: the system, its main figure and its source first (in view at 1,280 px), then the other
    figures and the targets."""
    family, (main, _) = metric_family(benchmark.split(" ")[0]), main_metric(benchmark)
    others = [label for label, _ in BOARD_METRICS[family] if label != main]
    return ["system", main, "source", *others, "targets"]


def published_source(entry) -> str:
    """A published row's source: "published", its citation, and the system that reproduces it here, if any."""
    reproduced = f" (reproduced by {entry.reproduced_by})" if entry.reproduced_by else ""
    return f"{PUBLISHED_SOURCE}{entry.source}{reproduced}"


def measured_row(metrics: dict, family: str = SWORDS) -> dict:
    """A metrics file's row of its family's board (its run header checked by stored.read_metrics), by column: the
    figures must be percentages (the SWORDS metrics) or fractions (the others, as their scorers print them) and the
    targets a count, else UnusableFile says which."""
    run, row = metrics["run"], {}
    for label, key in BOARD_METRICS[family]:
        value = metrics.get(key)
        top = (1000 if key in _OVER_100 else 100) if family == SWORDS else 1
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= top:
            raise UnusableFile(f'"{key}" is not a {"percentage" if family == SWORDS else "fraction"}')
        row[label] = round(float(value), 1) if family == SWORDS else shown_figure(family, value)
    targets = metrics.get("targets_scored")
    if isinstance(targets, bool) or not isinstance(targets, int) or not 0 <= targets < 10**9:
        raise UnusableFile('"targets_scored" is not a count of targets')
    return row | {"system": shown(run["system"]), "targets": targets, "source": SHIPPED}


SHIPPED_RESULTS = SPACE_DIR / "results"  # the baselines' results that come with the Space


def result_folders(folder: str | Path | None = None) -> list[tuple[Path, str]]:
    """(folder, source) of the runs on the boards: the shipped results, then the user's folder (`--results`, or
    $SWORDS_SPACE_RESULTS) when there is one; a user's file of the same name as a shipped one replaces it."""
    shipped, yours = SHIPPED_RESULTS.resolve(), results_dir(folder).resolve()
    return [(shipped, SHIPPED)] + ([(yours, YOURS)] if yours != shipped else [])


def _shown_folder(folder: Path) -> str:
    """A folder for the note: relative to the project when inside it (not the server's layout)."""
    return shown(folder.relative_to(SPACE_DIR.parent) if folder.is_relative_to(SPACE_DIR.parent) else folder)


def leaderboard(folder: str | Path | None = None, benchmark: str = DEFAULT_BENCHMARK) -> tuple[pd.DataFrame, str]:
    """A benchmark split's board: the runs on it (every *.metrics.json `swords run` wrote, shipped and the user's:
    result_folders) and its published results, one row each, ranked by its main metric, best first (not
    reported: last; ties: measured first); and a note on where the runs come from and what was skipped (each
    logged once)."""
    if benchmark not in benchmark_choices():
        raise refuse(f"Benchmark {shown(benchmark)!r} is not one of: {', '.join(benchmark_choices())}")
    family, (main, key) = metric_family(benchmark.split(" ")[0]), main_metric(benchmark)
    folders = result_folders(folder)
    yours = {path.name for path in metrics_files(folders[-1][0])} if len(folders) > 1 else set()
    measured, skipped_names, elsewhere, counts = [], [], 0, dict.fromkeys((SHIPPED, YOURS), 0)
    for where, source in folders:
        for path in metrics_files(where):
            if source == SHIPPED and path.name in yours:
                continue
            metrics, row = read_metrics(path), None  # an unusable file is logged once where it is found
            if metrics is not None:
                if f"{metrics['run']['dataset']} {metrics['run']['split']}" != benchmark:  # on another board
                    elsewhere += 1
                    continue
                try:
                    row = measured_row(metrics, family) | {"source": source}
                except UnusableFile as error:
                    skipped(path, str(error))
            if row is None:
                skipped_names.append(shown(path.name))
            else:
                measured.append(row)
                counts[source] += 1
    published = [
        {label: entry.metrics.get(metric) for label, metric in BOARD_METRICS[family]}
        | {"system": entry.label, "targets": None, "source": published_source(entry)}
        for entry in FAMILY_PUBLISHED_ROWS[family]
        if f"{entry.config} {entry.split}" == benchmark
    ]
    ranked = sorted(measured + published, key=lambda row: (row[main] is None, -(row[main] or 0)))
    table = pd.DataFrame(ranked, columns=leaderboard_columns(benchmark))
    note = f"{plural(counts[SHIPPED], 'shipped result')} on {benchmark} (`{_shown_folder(folders[0][0])}`)"
    if len(folders) > 1:
        note += f" and {plural(counts[YOURS], 'of yours', 'of yours')} (`{_shown_folder(folders[1][0])}`)"
    if elsewhere:
        note += f" ({elsewhere} more on other benchmark splits: choose one above)"
    if skipped_names:
        note += f"; skipped (not a metrics file of `swords run`): {', '.join(skipped_names)}"
    note += f". Ranked by **{main}** ({WHY_MAIN[key]}), best first"
    if family != SWORDS:
        note += f". {score_family.FAMILY_NAMES[family]}'s official metrics: {score_family.HOW_SHOWN[family]}"
    return table, note + "."


def chart(table: pd.DataFrame, benchmark: str) -> str:
    """The bar chart of the board's main metric, in the table's order: the rows that report it."""
    main, _ = main_metric(benchmark)
    reported = table[table[main].notna()]
    bars = [
        Bar(system, float(value), source in MEASURED)
        for system, value, source in zip(reported["system"], reported[main], reported["source"], strict=True)
    ]
    return bar_chart_html(bars, main, benchmark, unreported=len(table) - len(reported))


def column_widths(table: pd.DataFrame) -> list[str]:
    """Each column's width in pixels: its header and its longest figure or text on one line (the system's name: at
    most SYSTEM_PX, wrapping between its words past it); the table scrolls sideways past its width."""
    widths = []
    for column in table.columns:
        cells = table[column].dropna()
        texts = [column, *(figure(value) if isinstance(value, float) else str(value) for value in cells)]
        longest = max(len(text) for text in texts) * CHAR_PX + PAD_PX
        if column == "source":  # wraps between its words: as wide as its longest word, or SOURCE_CHARS
            longest = width_px(column, texts[1:], SOURCE_CHARS)
        widths.append(f"{min(longest, SYSTEM_PX) if column == 'system' else longest}px")
    return widths


# -- events and layout ----------------------------------------------------------------------------------------


def styled(table: pd.DataFrame) -> Styler:
    """The board with the published rows shaded grey and the runs measured here tinted and bold; blanks where not
    reported; figures as their papers and scorers print them (34.6, not 34.60)."""
    published = table["source"].str.startswith(PUBLISHED_SOURCE)
    figures = {column: figure for column in table.columns if column not in ("system", "targets", "source")}
    return table.style.apply(
        lambda line: [_PUBLISHED_STYLE if published[line.name] else _MEASURED_STYLE] * len(line), axis=1
    ).format(figures | {"targets": "{:.0f}"}, na_rep="")


def on_leaderboard(benchmark: str | None = DEFAULT_BENCHMARK):
    """The API's /leaderboard: the board of one benchmark split and its note (the page's own events add the
    chart and fit the columns: on_board)."""
    table, note = leaderboard(benchmark=benchmark or DEFAULT_BENCHMARK)
    return styled(table), note


def on_board(benchmark: str | None = DEFAULT_BENCHMARK):
    """The page's board: the table with its columns fitted, its note and the chart of its main metric."""
    benchmark = benchmark or DEFAULT_BENCHMARK
    table, note = leaderboard(benchmark=benchmark)
    board = gr.Dataframe(styled(unbroken(table)), column_widths=column_widths(table))  # no break at a hyphen
    return board, note, chart(table, benchmark)


def build(demo: gr.Blocks) -> None:
    """The tab's components (inside its gr.Tab) and events; filled when the page loads."""
    gr.Markdown(ABOUT)
    benchmark = Dropdown(
        benchmark_choices(), value=DEFAULT_BENCHMARK, label="Benchmark split", elem_id="leaderboard-benchmark"
    )
    with gr.Row(equal_height=False):
        board = gr.Dataframe(
            label="Leaderboard",
            elem_id="leaderboard",
            headers=leaderboard_columns(),
            interactive=False,
            wrap=True,
            show_row_numbers=True,
            max_height=640,
            scale=2,
            min_width=560,
        )
        with gr.Column(scale=1, min_width=360):  # gr.HTML takes no scale of its own
            figure_of_main = gr.HTML(elem_id="leaderboard-chart")
    note = gr.Markdown(label="Sources")
    refresh = gr.Button("Refresh")
    refresh.click(on_leaderboard, benchmark, [board, note], api_name="leaderboard").then(
        on_board, benchmark, [board, note, figure_of_main], api_visibility="private"
    )
    benchmark.change(on_board, benchmark, [board, note, figure_of_main], api_visibility="private")
    demo.load(on_board, benchmark, [board, note, figure_of_main], api_visibility="private")
