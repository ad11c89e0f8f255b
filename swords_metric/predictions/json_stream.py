"""JSON read a bounded piece at a time, with the guarantees a predictions file needs: a key given twice in any
object is an error naming it, a number too long for Python is an error naming the item it is in, and every
error says where (line and column).

Why not ijson: it streams events, but gives no position for an event or an error, lets duplicate keys
through (keeping the last), and converts numbers itself; wrapping it to restore each guarantee would mean a
hand-written parser over its events. The standard library's C scanner already gives all three (its
object_pairs_hook sees every key, its errors carry a position, parse_int can stand in for an oversized
integer) and is as fast, so values are decoded with it, one at a time (`json.JSONDecoder.raw_decode` on a
bounded window of the text): one JSONL line, or one target's list of an upstream file. Only the upstream
file's outer two objects are walked here, a token at a time.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator

from swords_metric.errors import MetricInputError, shown


class OversizedInteger:
    """A JSON integer with more digits than Python converts (sys.get_int_max_str_digits()): the reader leaves one
    where the number stood, so that the message names the item it is in."""

    __slots__ = ("digits",)

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return f"an integer of {self.digits:,} digits"


class DuplicateKey(Exception):
    def __init__(self, key: str):
        self.key = key


def unique_object(pairs: list[tuple[str, object]]) -> dict:
    """json's object hook: a key given twice is an error (json itself would silently keep the last)."""
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
    """What is wrong, for the errors that do not depend on where the text was cut (`what` the text should be)."""
    if isinstance(error, DuplicateKey):
        return f"key {shown(error.key, 80)} appears twice in one JSON object"
    return f"JSON nested too deeply to be {what}"  # RecursionError


def _not_json(message: str, column: int) -> str:
    return f"not JSON ({message.removesuffix(' at')} at column {column})"


def decode_line(line: str, where: str, what: str = "predictions") -> object:
    """One JSONL line's value; a MetricInputError naming `where` (the file and line) and the column (`what` the line
    should hold, as a message names it)."""
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
    """(line number, line) of every line that is not blank; a line longer than max_line characters raises
    too_long(its number) before it is held whole."""
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
    """A window on a stream of text, from which JSON tokens and values are taken one at a time. The window
    holds at most one value (up to max_value characters) and a block of text beyond it."""

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
            if newlines:
                self._line += newlines
                self._column = self.pos - self.text.rfind("\n", 0, self.pos) - 1
            else:
                self._column += self.pos
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
        """The next JSON value. Decoded from the window, which grows (doubling) while the value runs past it,
        up to max_value characters."""
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
