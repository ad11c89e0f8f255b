"""A file's text and JSON, read a bounded piece at a time, every problem one MetricInputError naming the file and
where. Text: plain or gzipped (decompressed as a stream), UTF-8 with an optional byte-order mark, its size checked
before reading (a .gz: as its expansion passes the limit).

JSON: a key given twice in an object is an error naming it, a number too long for Python an error naming its item.
Not ijson, which gives no position for an error, lets duplicate keys through and converts numbers itself: values are
decoded by the standard library's C scanner, as fast, one at a time (`raw_decode` on a bounded window).
"""

from __future__ import annotations

import codecs
import json
import re
import stat
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from swords_metric.errors import MetricInputError, shown

BLOCK_BYTES = 1 << 20  # read and decompressed a mebibyte at a time


def size_text(size: int) -> str:
    """A size as the demo's file widgets write it: '512 bytes', '1.5 KB', '64 MB', '1,024 MB' (units of 1,024)."""
    for unit, scale in (("MB", 2**20), ("KB", 2**10)):
        if size >= scale:
            value = size / scale
            return f"{value:,.0f} {unit}" if value >= 10 or value == int(value) else f"{value:.1f} {unit}"
    return f"{size:,} byte" + ("" if size == 1 else "s")


def check_file(path: Path, max_bytes: int, what: str = "predictions file") -> None:
    """Refuse, before reading, what is not a readable regular file, or a plain file larger than max_bytes."""
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
    """The file's text, a block at a time (a byte-order mark dropped)."""
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
    """The error for bytes that are not UTF-8; `line` and `column`: where error.object starts."""
    data, start = error.object, error.start
    before = data.count(b"\n", 0, start)
    column = start - data.rfind(b"\n", 0, start) - 1 if before else column + start
    return MetricInputError(f"{path}:{line + before}: not UTF-8 text (byte 0x{data[start]:02x} at column {column + 1})")


_LINE_END = re.compile(r"\r\n|\r|\n")


def text_lines(
    path: str | Path,
    max_bytes: int,
    max_line_chars: int,
    what: str = "predictions file",
    line: str = "one target's answers",
) -> Iterator[tuple[int, str]]:
    """(line number, line with its ending) of a text file, lines ended as Python's open() ends them (\\n, \\r\\n
    or a lone \\r), as the official scorers see them; a line longer than max_line_chars is refused as it is read."""
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


class OversizedInteger:
    """A JSON integer with more digits than Python converts, left where it stood, so that a message names its item."""

    __slots__ = ("digits",)

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return f"an integer of {self.digits:,} digits"


class DuplicateKey(Exception):
    def __init__(self, key: str):
        self.key = key


def unique_object(pairs: list[tuple[str, object]]) -> dict:
    """json's object hook: a key given twice is an error (json would keep the last)."""
    result = dict(pairs)
    if len(result) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return result


def _bounded_int(digits: str) -> int | OversizedInteger:
    limit = sys.get_int_max_str_digits()
    size = len(digits.lstrip("-"))
    return OversizedInteger(size) if limit and size > limit else int(digits)


_DECODER = json.JSONDecoder(object_pairs_hook=unique_object)
# Only where _DECODER failed on an integer too long to convert: a Python call per integer is slower.
_TOLERANT_DECODER = json.JSONDecoder(object_pairs_hook=unique_object, parse_int=_bounded_int)
_WHITESPACE = re.compile(r"[ \t\n\r]*")


def _raw_decode(text: str, start: int) -> tuple[object, int]:
    try:
        return _DECODER.raw_decode(text, start)
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer of more digits than int() converts
        return _TOLERANT_DECODER.raw_decode(text, start)


def _decode_problem(error: Exception, what: str = "predictions") -> str:
    """What is wrong, for errors that do not depend on where the text was cut (`what` the text should be)."""
    if isinstance(error, DuplicateKey):
        return f"key {shown(error.key, 80)} appears twice in one JSON object"
    return f"JSON nested too deeply to be {what}"  # RecursionError


def _not_json(message: str, column: int) -> str:
    return f"not JSON ({message.removesuffix(' at')} at column {column})"


def decode_line(line: str, where: str, what: str = "predictions") -> object:
    """One JSONL line's value; an error names `where` (file and line) and the column (`what` the line should hold)."""
    try:
        value, end = _raw_decode(line, _WHITESPACE.match(line).end())
        end = _WHITESPACE.match(line, end).end()
        if end == len(line):
            return value
        raise json.JSONDecodeError("Extra data", line, end)
    except json.JSONDecodeError as error:
        raise MetricInputError(f"{where}: {_not_json(error.msg, error.colno)}") from None
    except (DuplicateKey, RecursionError) as error:
        raise MetricInputError(f"{where}: {_decode_problem(error, what)}") from None


def json_lines(blocks: Iterable[str], max_line: int, too_long: Callable[[int], Exception]) -> Iterator[tuple[int, str]]:
    """(line number, line) of every line not blank; one longer than max_line raises too_long(its number) early."""
    pending, number = "", 0
    for block in blocks:
        if block.isspace() and (not pending or pending.isspace()):  # blank lines (a whitespace bomb): skip fast
            number += block.count("\n")
            pending = "" if "\n" in block else pending
            continue
        lines = (pending + block if pending else block).split("\n")
        pending = lines.pop()
        for line in lines:
            number += 1
            if len(line) > max_line:
                raise too_long(number)
            if line and not line.isspace():
                yield number, line
        if len(pending) > max_line and not pending.isspace():
            raise too_long(number + 1)
    if pending and not pending.isspace():
        yield number + 1, pending


class ValueCursor:
    """A window on a stream of text, from which JSON tokens and values are taken one at a time: at most one value (up
    to max_value characters) and a block of text beyond it."""

    def __init__(self, blocks: Iterable[str], where: str, max_value: int):
        self._blocks = iter(blocks)
        self.where, self.max_value = where, max_value
        self.text, self.pos, self.eof = "", 0, False
        self._line, self._column = 1, 0  # where self.text starts: its line, characters before it on that line
        self._counted = (0, 0)  # (position in the window, newlines before it): positions asked for only grow

    def _more(self) -> bool:
        """Append the next block (dropping what was consumed); False at the end of the stream."""
        if self.eof:
            return False
        if self.pos:
            newlines = self.text.count("\n", 0, self.pos)
            self._line += newlines
            self._column = self.pos - self.text.rfind("\n", 0, self.pos) - 1 if newlines else self._column + self.pos
            self.text, self.pos, self._counted = self.text[self.pos :], 0, (0, 0)
        block = next(self._blocks, None)
        if block is None:
            self.eof = True
            return False
        self.text += block
        return True

    def position(self, pos: int | None = None) -> tuple[int, int]:
        """(line, column), 1-based, of a position in the window (the cursor's by default)."""
        pos = self.pos if pos is None else pos
        counted, newlines = self._counted if self._counted[0] <= pos else (0, 0)
        newlines += self.text.count("\n", counted, pos)  # counted once: a window may hold thousands of targets
        self._counted = (pos, newlines)
        if newlines:
            return self._line + newlines, pos - self.text.rfind("\n", 0, pos)
        return self._line, self._column + pos + 1

    def located(self, problem: str, pos: int | None = None, json_message: str | None = None) -> MetricInputError:
        """`problem` at a position, as `FILE:LINE: problem at column C` (a JSON error: `not JSON (... at column C)`)."""
        line, column = self.position(pos)
        told = _not_json(json_message, column) if json_message else f"{problem} at column {column}"
        return MetricInputError(f"{self.where}:{line}: {told}")

    def peek(self) -> str:
        """The next character that is not whitespace ("" at the end), without taking it."""
        while True:
            self.pos = _WHITESPACE.match(self.text, self.pos).end()
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self._more():
                return ""

    def take(self, char: str, what: str) -> None:
        found = self.peek()
        if found != char:
            shown_found = repr(found) if found else "the end of the file"
            raise self.located(f"expected {what}, found {shown_found}")  # e.g. "expected ':', found 'x'"
        self.pos += 1

    def value(self, what: str = "a value") -> object:
        """The next JSON value, from the window, which doubles while the value runs past it (up to max_value)."""
        self.peek()
        wanted = len(self.text) - self.pos
        while True:
            start = self.pos
            try:
                value, end = _raw_decode(self.text, start)
                if end - start > self.max_value:
                    break
                if end < len(self.text) or self.eof:  # a value cut at the window's edge may go on
                    self.pos = end
                    return value
            except json.JSONDecodeError as error:
                # Where the text ran out, more of it may complete the value; anywhere else it is an error.
                ran_out = error.msg.startswith("Unterminated string") or error.pos >= len(self.text) - 8
                if self.eof or not ran_out:
                    raise self.located("", error.pos, json_message=error.msg) from None
            except (DuplicateKey, RecursionError) as error:
                raise self.located(_decode_problem(error), start) from None
            if len(self.text) - start > self.max_value:
                break
            wanted = min(max(2 * wanted, 1), self.max_value + 1)
            while len(self.text) - self.pos < wanted and self._more():
                pass
        raise self.located(f"{what} takes more than {self.max_value:,} characters of JSON; it starts", start)
