"""The demo's tables laid out to read at a glance at 1,280 px: every row shown (SHOWN_WHOLE), and column widths so
that no word breaks across lines: at least its longest word (a figure is one word), a text column a few words more
up to a cap, past which it wraps between words. Gradio's table font is monospace, 8.4 px a character (CHAR_PX: 9)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import gradio as gr
import pandas as pd

CHAR_PX, PAD_PX = 9, 24  # a character, and a cell's padding and border
TEXT_CHARS = 18  # a text column's width, in characters, before it wraps (its longest word may be wider)
# Every table's max_height: no scroll box of its own. Gradio's Dataframe scrolls inside a box past 500 px by default,
# so the Score tab showed 12 of its 22 metrics; the demo's tables hold at most a few dozen rows, and a long one scrolls
# with the page. A bound all the same: past it (100 rows and more), the table scrolls in its box again.
SHOWN_WHOLE = 6_000


def read_only_table(**options) -> gr.Dataframe:
    """A table of the demo: read-only, every row in view (SHOWN_WHOLE); `options` are gr.Dataframe's."""
    return gr.Dataframe(interactive=False, max_height=SHOWN_WHOLE, **options)


def width_px(header: str, cells: Iterable[str], text_chars: int = TEXT_CHARS) -> int:
    """One column's width: its longest word (header or cell), or its longest cell up to `text_chars`."""
    cells = list(cells)
    longest_word = max((len(word) for text in [header, *cells] for word in text.split()), default=0)
    longest_cell = max((len(text) for text in cells), default=0)
    return max(longest_word, min(longest_cell, text_chars)) * CHAR_PX + PAD_PX


def fitted_widths(table: pd.DataFrame, shown: Callable[[object], str] = str, text_chars: int = TEXT_CHARS) -> list[str]:
    """Every column's width ("123px"), its cells as the table shows them (`shown`: a figure's format)."""
    return [
        f"{width_px(str(column), (shown(value) for value in table[column].dropna()), text_chars)}px"
        for column in table.columns
    ]


NON_BREAKING_HYPHEN = "\u2011"


def unbroken_text(text: str) -> str:
    """The text with every hyphen non-breaking, for the page: a browser breaks a line after a hyphen
    ("coinco-⏎oracle"), whatever the room; a space is where a line may break."""
    return text.replace("-", NON_BREAKING_HYPHEN)


def unbroken(table: pd.DataFrame) -> pd.DataFrame:
    """The table with every hyphen of its text cells non-breaking (unbroken_text)."""
    return table.apply(lambda column: column.map(lambda v: unbroken_text(v) if isinstance(v, str) else v))
