"""The Leaderboard tab: one benchmark split at a time, its runs measured here (each *.metrics.json `swords run` wrote
in the results folders) and its published results ranked by its main metric, best first, with a bar chart; published
rows (citing their paper) grey, measured runs blue and bold, in the table and the chart alike."""

from __future__ import annotations

from pathlib import Path

import gradio as gr
import pandas as pd
from pandas.io.formats.style import Styler

from swords_baselines.run.extent import part_of_split
from swords_lexsub.terminal import shown
from swords_metric import Board, MetricInputError, published_benchmarks
from swords_space import SPACE_DIR, benchmarks, scoring
from swords_space.inputs import Dropdown, refuse
from swords_space.render import markdown_text, plural
from swords_space.render_board import Bar, bar_chart_html, figure
from swords_space.stored import (
    UnusableFile,
    metrics_files,
    read_metrics,
    results_dir,
    skipped,
    system_label,
    told_apart,
)
from swords_space.table_widths import read_only_table, unbroken, width_px

DEFAULT_BENCHMARK = "swords test"
SHIPPED, YOURS = "measured: shipped", "measured: your run"  # a run's source: the Space's results, or the user's
MEASURED = (SHIPPED, YOURS)
PUBLISHED_SOURCE = "published: "
_PUBLISHED_STYLE = "background-color: #f3f4f6; color: #374151"
_MEASURED_STYLE = "background-color: #eff6ff; font-weight: 600"  # render_board's measured hue, lighter
_PARTIAL_STYLE = "background-color: #eff6ff; font-style: italic"  # measured, over part of the split: not ranked
# Column widths: a column fits its header and its longest text on one line (monospace, 8.4 px a character at
# Gradio's default size; 9 leaves room), plus padding; a system's name wraps past SYSTEM_PX, a header never
# ("proficiency-oriented" would break at its hyphen).
CHAR_PX, PAD_PX, SYSTEM_PX, SOURCE_CHARS = 9, 28, 260, 22
PART_OF = " of "  # a partial run's targets: "5 of 762"
# The page's table of partial runs, below the ranked board: apart, so that the board's row numbers are ranks.
PARTIAL_TITLE = "Partial runs: over part of the split, not ranked with the board above"
NAME_CHARS = (SYSTEM_PX - PAD_PX) // CHAR_PX - 1  # a run's system name past this is cut: its first word fits, "…" too

ABOUT = f"""One benchmark split at a time, ranked by its main metric, best first. The runs measured here are tinted
blue, in bold: the results shipped with the Space and your own. The published results are shaded grey; the source
column cites paper and table. Blank: not reported; †: reranked by BERT; LSG: LexSubGen's figures. Click a header to sort
by it; scroll sideways for every metric. ProLex and TSAR-2022 are ranked by their own official metrics.

{scoring.DEFINED}

**Add your run:** `swords run --system SYSTEM --dataset swords --split test --output runs/mine.jsonl` writes
`runs/mine.metrics.json`. Then `swords demo --results runs` shows it here, marked "your run", beside the rest. A run
over part of the split (`--limit N`) goes in its own table below the board, not ranked or charted; its source says
how many targets it answered ("20 of 762"). Two runs of one system show the settings they differ in, their file
and its date."""

# -- handlers -----------------------------------------------------------------------------------------------


def benchmark_choices() -> list[str]:
    """The selector's choices: SWORDS test first, then every benchmark split ("swords dev", …, "coinco dev+test")."""
    return list(dict.fromkeys([DEFAULT_BENCHMARK, *benchmarks.split_choices(), *published_benchmarks()]))


def main_metric(benchmark: str) -> tuple[str, str]:
    """(column label, metric key) a split's board is ranked and charted by (the metric's Board decides)."""
    return Board(benchmark).main


def leaderboard_columns(benchmark: str = DEFAULT_BENCHMARK) -> list[str]:
    """The board's columns: system, main figure and source first (in view at 1,280 px), then the rest."""
    board = Board(benchmark)
    main, _ = board.main
    return ["system", main, "source", *(label for label, _ in board.metrics if label != main), "targets"]


def published_source(entry) -> str:
    """A published row's source: "published", its citation, and the system that reproduces it here, if any."""
    reproduced = f" (reproduced by {entry.reproduced_by})" if entry.reproduced_by else ""
    return f"{PUBLISHED_SOURCE}{entry.source}{reproduced}"


def measured_row(metrics: dict, benchmark: str = DEFAULT_BENCHMARK) -> dict:
    """A metrics file's row of its split's board, by column (figures as the metric's Board shows them, the name cut
    past NAME_CHARS, the targets: "5 of 762" for a partial run), else UnusableFile says which."""
    try:
        row = Board(benchmark).measured(metrics)
    except MetricInputError as error:
        raise UnusableFile(str(error)) from None
    targets = metrics.get("targets_scored")
    if isinstance(targets, bool) or not isinstance(targets, int) or not 0 <= targets < 10**9:
        raise UnusableFile('"targets_scored" is not a count of targets')
    part = part_of_split(metrics["run"])
    shown_targets = f"{targets:,}" if part is None else f"{targets:,}{PART_OF}{part[1]:,}"
    return row | {"system": system_label(metrics["run"], NAME_CHARS), "targets": shown_targets, "source": SHIPPED}


def partial(row: dict) -> bool:
    """Whether a board's row is a run over part of its split ("5 of 762"): not ranked among the others."""
    return PART_OF in str(row.get("targets") or "")


def partial_rows(table: pd.DataFrame) -> pd.Series:
    """Which rows of a board are partial runs (partial), as a mask of its rows."""
    return table["targets"].map(lambda targets: partial({"targets": targets})).astype(bool)


SHIPPED_RESULTS = SPACE_DIR / "results"  # the baselines' results that come with the Space


def result_folders(folder: str | Path | None = None) -> list[tuple[Path, str]]:
    """(folder, source) of the runs on the boards: the shipped results, then the user's (`--results`,
    $SWORDS_SPACE_RESULTS), whose file replaces a shipped one of its name."""
    shipped, yours = SHIPPED_RESULTS.resolve(), results_dir(folder).resolve()
    return [(shipped, SHIPPED)] + ([(yours, YOURS)] if yours != shipped else [])


def _shown_folder(folder: Path) -> str:
    """A folder for the note, as code, relative to the project when inside it (not the server's layout)."""
    inside = folder.is_relative_to(SPACE_DIR.parent)
    return f"<code>{markdown_text(folder.relative_to(SPACE_DIR.parent) if inside else folder)}</code>"


def leaderboard(folder: str | Path | None = None, benchmark: str = DEFAULT_BENCHMARK) -> tuple[pd.DataFrame, str]:
    """A benchmark split's board: its runs and published results ranked by its main metric, best first (not
    reported: last; ties: measured first), then its partial runs ranked among themselves; and a note on where the
    runs come from, the partial runs and what was skipped (file names as text, never Markdown or HTML)."""
    if benchmark not in benchmark_choices():
        raise refuse(f"Benchmark {shown(benchmark)!r} is not one of: {', '.join(benchmark_choices())}")
    board = Board(benchmark)
    main, _ = board.main
    folders = result_folders(folder)
    yours = {path.name for path in metrics_files(folders[-1][0])} if len(folders) > 1 else set()
    runs, skipped_names, elsewhere, counts = [], [], 0, dict.fromkeys((SHIPPED, YOURS), 0)
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
                    row = measured_row(metrics, benchmark)
                    partly = f", partial: {row['targets']} targets" if partial(row) else ""  # in view at 1,280 px
                    row["source"] = source + partly
                except UnusableFile as error:
                    skipped(path, str(error))
            if row is None:
                skipped_names.append(markdown_text(path.name))
            else:
                runs.append((row, metrics, path))
                counts[source] += 1
    told_apart(runs)
    measured = [row for row, _, _ in runs]
    published = [
        board.published_figures(entry) | {"system": entry.label, "targets": None, "source": published_source(entry)}
        for entry in board.published
    ]
    parts = [row for row in measured if partial(row)]
    whole = [row for row in measured if not partial(row)]
    ordered = board.ranked_apart(whole + published, parts)
    table = pd.DataFrame(ordered, columns=leaderboard_columns(benchmark))
    note = f"{plural(counts[SHIPPED], 'shipped result')} on {benchmark} ({_shown_folder(folders[0][0])})"
    if len(folders) > 1:
        note += f" and {plural(counts[YOURS], 'of yours', 'of yours')} ({_shown_folder(folders[1][0])})"
    if elsewhere:
        note += f" ({elsewhere} more on other benchmark splits: choose one above)"
    if parts:
        note += (
            f"; {plural(len(parts), 'partial run')} (over part of the split: `swords run --limit`, or a system that "
            "answers some of its targets; its source says how many of how many) listed apart, after the ranked rows, "
            "not ranked among the runs over every target, and not charted"
        )
    if skipped_names:
        note += f"; skipped (not a metrics file of `swords run`): {', '.join(skipped_names)}"
    note += f". Ranked by **{main}** ({board.why_main}), best first"
    official = scoring.official_metrics(board.family)
    if official:  # its own official metrics: said how its figures are shown
        note += f". {official}: {board.reader.how_shown}"
    return table, note + "."


def chart(table: pd.DataFrame, benchmark: str) -> str:
    """The bar chart of the board's main metric, in the table's order: the rows that report it."""
    main, _ = main_metric(benchmark)
    whole = table[~partial_rows(table)]
    reported = whole[whole[main].notna()]
    bars = [
        Bar(system, float(value), source in MEASURED)
        for system, value, source in zip(reported["system"], reported[main], reported["source"], strict=True)
    ]
    return bar_chart_html(bars, main, benchmark, unreported=len(whole) - len(reported))


def column_widths(table: pd.DataFrame) -> list[str]:
    """Each column's width in pixels (the comment on SYSTEM_PX); the table scrolls sideways past its width."""
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
    """The board styled (the module docstring); blanks where not reported; figures as printed (34.6, not 34.60)."""
    published = table["source"].str.startswith(PUBLISHED_SOURCE)
    parts = partial_rows(table)
    figures = {column: figure for column in table.columns if column not in ("system", "targets", "source")}

    def style(line) -> list[str]:
        kind = _PUBLISHED_STYLE if published[line.name] else _PARTIAL_STYLE if parts[line.name] else _MEASURED_STYLE
        return [kind] * len(line)

    return table.style.apply(style, axis=1).format(figures, na_rep="")


def on_leaderboard(benchmark: str | None = DEFAULT_BENCHMARK):
    """The API's /leaderboard: the board of one benchmark split and its note."""
    table, note = leaderboard(benchmark=benchmark or DEFAULT_BENCHMARK)
    return styled(table), note


def on_board(benchmark: str | None = DEFAULT_BENCHMARK):
    """The page's board: the ranked table (published rows and runs over the whole split, its row numbers their
    ranks), its partial runs in a table of their own below it (shown only when there are some), the note and the
    chart of its main metric. Each table's columns fitted, no hyphen breaking a line."""
    benchmark = benchmark or DEFAULT_BENCHMARK
    table, note = leaderboard(benchmark=benchmark)
    parts = partial_rows(table)
    whole, partly = (table[rows].reset_index(drop=True) for rows in (~parts, parts))
    reader = Board(benchmark).reader
    board = gr.Dataframe(
        styled(unbroken(whole)), column_widths=column_widths(whole), label=scoring.titled("Leaderboard", reader)
    )
    partial_board = gr.Dataframe(
        styled(unbroken(partly)),
        column_widths=column_widths(partly),
        label=scoring.titled(PARTIAL_TITLE, reader),
        visible=bool(len(partly)),
    )
    return board, partial_board, note, chart(table, benchmark)


def build(demo: gr.Blocks) -> None:
    """The tab's components (inside its gr.Tab) and events; filled when the page loads."""
    gr.Markdown(ABOUT)
    benchmark = Dropdown(
        benchmark_choices(), value=DEFAULT_BENCHMARK, label="Benchmark split", elem_id="leaderboard-benchmark"
    )
    with gr.Row(equal_height=False):
        board = read_only_table(
            label="Leaderboard (percent)",  # SWORDS test's (on_board titles each board with its unit)
            elem_id="leaderboard",
            headers=leaderboard_columns(),
            wrap=True,
            show_row_numbers=True,
            scale=2,
            min_width=560,
        )
        with gr.Column(scale=1, min_width=360):  # gr.HTML takes no scale of its own
            figure_of_main = gr.HTML(elem_id="leaderboard-chart")
    partial_board = read_only_table(
        label=f"{PARTIAL_TITLE} (percent)",
        elem_id="leaderboard-partial",
        headers=leaderboard_columns(),
        wrap=True,
        visible=False,  # until a board has partial runs (on_board)
    )
    note = gr.Markdown(label="Sources", elem_id="leaderboard-note")
    refresh = gr.Button("Refresh")
    shown_board = [board, partial_board, note, figure_of_main]
    refresh.click(on_leaderboard, benchmark, [board, note], api_name="leaderboard").then(
        on_board, benchmark, shown_board, api_visibility="private"
    )
    benchmark.change(on_board, benchmark, shown_board, api_visibility="private")
    demo.load(on_board, benchmark, shown_board, api_visibility="private")
