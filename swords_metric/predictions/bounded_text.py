"""A predictions file as text, read a block at a time: plain or gzipped (decompressed as a stream, never held
whole), UTF-8 with an optional byte-order mark. Refused, in one line naming the file, when it is not a
readable regular file, is larger than the limit (a plain file from its size, before anything is read; a
.gz as soon as its expansion passes the limit), or is not UTF-8 (with the line and column of the bad byte).
`text_lines` gives its lines, each bounded, as the official scorers' own reading splits them.
"""

from __future__ import annotations

import codecs
import re
import stat
import zlib
from collections.abc import Iterator
from pathlib import Path

from swords_metric.errors import MetricInputError

BLOCK_BYTES = 1 << 20  # read and decompressed a mebibyte at a time


def size_text(size: int) -> str:
    """A size in bytes as a person reads it: '512 bytes', '1.5 KB', '64 MB', '1,024 MB' (units of 1,024, written as the
    demo's file widgets write them)."""
    for unit, scale in (("MB", 2**20), ("KB", 2**10)):
        if size >= scale:
            value = size / scale
            return f"{value:,.0f} {unit}" if value >= 10 or value == int(value) else f"{value:.1f} {unit}"
    return f"{size:,} byte" + ("" if size == 1 else "s")


def check_file(path: Path, max_bytes: int, what: str = "predictions file") -> None:
    """Refuse what is not a readable regular file, or a plain file larger than max_bytes, before reading; `what`
    the file is, as messages name it."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise MetricInputError(f"{path}: no such file") from None
    except OSError as error:
        raise MetricInputError(f"{path}: cannot open ({error.strerror or error})") from None
    if stat.S_ISDIR(info.st_mode):
        raise MetricInputError(f"{path}: is a directory, not a {what}")
    if not stat.S_ISREG(info.st_mode):
        raise MetricInputError(f"{path}: not a regular file (a pipe, socket or device); give a {what}")
    if path.suffix != ".gz" and info.st_size > max_bytes:
        raise MetricInputError(f"{path}: larger than {size_text(max_bytes)}; not a {what}")


def _plain_blocks(path: Path, max_bytes: int, what: str) -> Iterator[bytes]:
    read = 0
    with open(path, "rb") as f:
        while block := f.read(BLOCK_BYTES):
            read += len(block)
            if read > max_bytes:  # grew since it was checked
                raise MetricInputError(f"{path}: larger than {size_text(max_bytes)}; not a {what}")
            yield block


def _gzip_blocks(path: Path, max_bytes: int, what: str) -> Iterator[bytes]:
    inflater = zlib.decompressobj(wbits=47)  # gzip or zlib header, auto-detected
    expanded = 0
    with open(path, "rb") as f:
        while compressed := f.read(BLOCK_BYTES):
            if inflater.eof:
                if compressed.strip(b"\0"):
                    raise MetricInputError(f"{path}: holds more than one gzip stream")
                continue
            while compressed:
                block = inflater.decompress(compressed, BLOCK_BYTES)
                expanded += len(block)
                if expanded > max_bytes:
                    raise MetricInputError(f"{path}: expands past {size_text(max_bytes)}; not a {what}")
                if block:
                    yield block
                compressed = inflater.unconsumed_tail
            if inflater.eof and inflater.unused_data.strip(b"\0"):
                raise MetricInputError(f"{path}: holds more than one gzip stream")
    if not inflater.eof:
        raise MetricInputError(f"{path}: the gzip data is truncated")


def text_blocks(path: str | Path, max_bytes: int, what: str = "predictions file") -> Iterator[str]:
    """The file's text, a block at a time (a byte-order mark dropped). Every problem is a
    MetricInputError naming the file (and, for bytes that are not UTF-8, their line and column); `what` the file
    is, as messages name it."""
    path = Path(path)
    check_file(path, max_bytes, what)
    decoder = codecs.getincrementaldecoder("utf-8")()
    lines, column = 1, 0  # where the next byte is: its line, and the bytes before it on that line
    at_start = True
    blocks = _gzip_blocks(path, max_bytes, what) if path.suffix == ".gz" else _plain_blocks(path, max_bytes, what)
    try:
        for block in blocks:
            pending = len(decoder.getstate()[0])  # bytes of a character cut by the previous block
            try:
                text = decoder.decode(block)
            except UnicodeDecodeError as error:
                raise _not_utf8(path, error, lines, column - pending) from None
            newlines = block.count(b"\n")
            lines += newlines
            column = len(block) - block.rfind(b"\n") - 1 if newlines else column + len(block)
            if at_start and text:
                at_start = False
                text = text.removeprefix("\ufeff")
            if text:
                yield text
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError as error:
            raise _not_utf8(path, error, lines, column - len(error.object)) from None
    except PermissionError:
        raise MetricInputError(f"{path}: permission denied") from None
    except zlib.error as error:
        raise MetricInputError(f"{path}: not a readable gzip file ({error})") from None
    except OSError as error:
        raise MetricInputError(f"{path}: cannot read ({error.strerror or error})") from None


def _not_utf8(path: Path, error: UnicodeDecodeError, line: int, column: int) -> MetricInputError:
    """The error for bytes that are not UTF-8; `line` and `column` say where error.object starts."""
    data, start = error.object, error.start
    before = data.count(b"\n", 0, start)
    if before:
        column = start - data.rfind(b"\n", 0, start) - 1
    else:
        column += start
    return MetricInputError(f"{path}:{line + before}: not UTF-8 text (byte 0x{data[start]:02x} at column {column + 1})")


_LINE_END = re.compile(r"\r\n|\r|\n")


def text_lines(
    path: str | Path,
    max_bytes: int,
    max_line_chars: int,
    what: str = "predictions file",
    line: str = "one target's answers",
) -> Iterator[tuple[int, str]]:
    """(line number, line with its ending as written) of a text file read as text_blocks reads it, lines ended as
    Python's open() ends them (\\n, \\r\\n or a lone \\r), so that a reader sees the lines the official scorers
    see; a line longer than max_line_chars is a MetricInputError naming it, raised before more is read. `what` the
    file is and what a `line` of it holds, as messages name them."""
    pending, number = "", 0
    for block in text_blocks(path, max_bytes, what):
        text = pending + block
        start = 0
        # `pending` holds no line end, except a final \r that may be the first half of a \r\n.
        for match in _LINE_END.finditer(text, max(len(pending) - 1, 0)):
            if match.end() == len(text) and match.group() == "\r":
                break
            number += 1
            if match.end() - start > max_line_chars:
                raise _too_long(path, number, max_line_chars, line)
            yield number, text[start : match.end()]
            start = match.end()
        pending = text[start:]
        if len(pending) > max_line_chars:
            raise _too_long(path, number + 1, max_line_chars, line)
    if pending:
        yield number + 1, pending


def _too_long(path: str | Path, number: int, limit: int, line: str) -> MetricInputError:
    return MetricInputError(
        f"{path}:{number}: the line holds more than {limit:,} characters, the most one line ({line}) may take"
    )
