"""What the ProLex and TSAR-2022 readers ask of a raw source's text, whatever a later release of it holds: UTF-8
(a bad byte is named by its line and column), a leading byte-order mark dropped (it would shift every offset on
its line), and words that are words (a non-empty string, not a number, None or a list)."""

from __future__ import annotations

import codecs
from pathlib import Path

from swords_dataset.builder.errors import BuildError
from swords_lexsub.terminal import clipped


def source_text(path: Path) -> str:
    """The file's text: strict UTF-8 without its byte-order mark, or one BuildError naming the line and column of
    the first byte that is not UTF-8."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise BuildError(f"{path}:{line}: not UTF-8 (byte 0x{data[error.start]:02x} at column {column})") from None
    return text[1:] if text.startswith(codecs.BOM_UTF8.decode("utf-8")) else text


def checked_word(value: object, where: str, what: str) -> str:
    """`value` if it is a word as the benchmarks give one (a string with something besides whitespace), else one
    BuildError naming `what` and what it is instead."""
    if not isinstance(value, str):
        raise BuildError(f"{where}: {what} is {clipped(repr(value))} (of type {type(value).__name__}), not a word")
    if not value.strip():
        raise BuildError(f"{where}: {what} is empty" + (f" ({value!r})" if value else ""))
    return value
