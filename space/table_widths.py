"""Column widths of the demo's tables, in pixels, so that no word of a cell or header breaks across lines at
1,280 px: a column is at least as wide as its longest word (a figure is one word), and a text column as wide as a
few words more, up to a cap, past which its text wraps between words. A header wraps between its words too.

Gradio's table font is monospace: 8.4 px a character at its default size (bold too); CHAR_PX leaves room."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pandas as pd

CHAR_PX, PAD_PX = 9, 24  # a character, and a cell's padding and border
TEXT_CHARS = 18  # a text column's width, in characters, before it wraps (its longest word may be wider)


def _words(text: str) -> list[str]:
    return text.split() or [""]


def width_px(header: str, cells: Iterable[str], text_chars: int = TEXT_CHARS) -> int:
    """One column's width: its longest word (header or cell), or its longest cell up to `text_chars`."""
    cells = list(cells)
    longest_word = max(len(word) for text in [header, *cells] for word in _words(text))
    longest_cell = max((len(text) for text in cells), default=0)
    return max(longest_word, min(longest_cell, text_chars)) * CHAR_PX + PAD_PX


def fitted_widths(table: pd.DataFrame, shown: Callable[[object], str] = str, text_chars: int = TEXT_CHARS) -> list[str]:
    """Every column's width ("123px"), its cells as the table shows them (`shown`: a figure's format)."""
    return [
        f"{width_px(str(column), (shown(value) for value in table[column].dropna()), text_chars)}px"
        for column in table.columns
    ]


NON_BREAKING_HYPHEN = "\u2011"


def unbroken(table: pd.DataFrame) -> pd.DataFrame:
    """The table with every hyphen of its text cells non-breaking, for the page: a browser breaks a line after a
    hyphen ("coinco-⏎oracle"), whatever the column's width; a space is where a line may break."""
    return table.apply(
        lambda column: column.map(lambda v: v.replace("-", NON_BREAKING_HYPHEN) if isinstance(v, str) else v)
    )
