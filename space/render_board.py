"""The Leaderboard's bar chart of a board's main metric, as HTML beside its table: a bar a row that reports it, in
the table's order, named and with its figure whole; measured runs and published rows told apart by colour and
weight, with a legend. Every name goes through html.escape."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from swords_space.render import swatches_html
from swords_space.table_widths import unbroken_text

MEASURED_COLOUR = "#2563eb"  # the table's measured rows are tinted with this hue too
PUBLISHED_COLOUR = "#9ca3af"  # and its published rows grey
MEASURED_WORDS, PUBLISHED_WORDS = "measured here (swords run, bold)", "published"
_BOX = "font-family: system-ui, sans-serif; line-height: 1.4; color: #111827; background: #ffffff; padding: 8px;"
# One grid for every bar, so that bars and figures line up: name, bar, figure. A name wraps between its words only
# (its column at least as wide as its longest word: "wordnet+embedding" once broke as "wordnet+embeddi⏎ng"); a
# figure never wraps (its column is as wide as the widest figure).
_GRID = (
    "display:grid;grid-template-columns:minmax(min-content,11em) minmax(5em,1fr) max-content;gap:5px 8px;"
    "align-items:center;margin:6px 0"
)
_TRACK = "background:#f3f4f6;height:12px;border-radius:3px"


@dataclass(frozen=True)
class Bar:
    """One row of the board on the chart: its system's name, its figure and whether it was measured here."""

    name: str
    value: float
    measured: bool


def figure(value: float) -> str:
    """A figure as the board's table prints it: as its paper or scorer gives it (34.6, not 34.60)."""
    return f"{value:g}"


def axis(values: Sequence[float]) -> tuple[float, float]:
    """Where the bars start and end: round figures just below the lowest value and at or above the highest (30.9 and
    34.6 look alike on bars from 0 to 100); from 0 for a single value."""
    low, high = min(values), max(values)
    if high <= 0:
        return 0.0, 1.0
    span = (high - low) or high
    magnitude = 10 ** math.floor(math.log10(span / 5))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= span / 5)
    start = 0.0 if len(values) < 2 or low == high else max(0.0, math.floor((low - 0.15 * span) / step) * step)
    return round(start, 10), round(math.ceil(high / step) * step, 10)


def _bar(bar: Bar, start: float, end: float) -> str:
    width = max(1.0, min(100.0, 100.0 * (bar.value - start) / (end - start)))
    colour = MEASURED_COLOUR if bar.measured else PUBLISHED_COLOUR
    return (
        f'<div class="swords-bar" data-source="{"measured" if bar.measured else "published"}" '
        f'data-value="{bar.value!r}" style="display:contents">'
        '<span class="swords-bar-name" style="text-align:right;'
        f'font-weight:{600 if bar.measured else 400}">{escape(unbroken_text(bar.name))}</span>'
        f'<span style="{_TRACK}"><span style="display:block;width:{width:.1f}%;height:12px;background:{colour};'
        'border-radius:3px"></span></span>'
        '<span class="swords-bar-value" style="white-space:nowrap;font-variant-numeric:tabular-nums">'
        f"{figure(bar.value)}</span></div>"
    )


def bar_chart_html(bars: Sequence[Bar], metric: str, benchmark: str, unreported: int = 0) -> str:
    """The bars of `metric` on `benchmark` on `axis`'s scale; `unreported`: how many rows have no figure."""
    title = (
        f'<div class="swords-board-title" style="font-weight:600">{escape(metric)} on {escape(benchmark)}, '
        "best first</div>"
    )
    if not bars:
        return (
            f'<div class="swords-board-chart" style="{_BOX}">{title}<em>No run or published result on this split '
            f"reports {escape(metric)}.</em></div>"
        )
    start, end = axis([bar.value for bar in bars])
    scale = f"Bars from {figure(start)} to {figure(end)}" + (", not from 0: the differences show" if start else "")
    if unreported:
        scale += f"; {unreported} {'row does' if unreported == 1 else 'rows do'} not report {escape(metric)}"
    legend = swatches_html({MEASURED_WORDS: MEASURED_COLOUR, PUBLISHED_WORDS: PUBLISHED_COLOUR})
    return (
        f'<div class="swords-board-chart" style="{_BOX}">{title}'
        f'<div style="{_GRID}">{"".join(_bar(bar, start, end) for bar in bars)}</div>'
        f'<div style="font-size:0.8em;color:#4b5563">{scale}.</div>{legend}</div>'
    )
