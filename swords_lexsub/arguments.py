"""What every `swords` command line shares: the parser class (help that states each option's default and
choices, "did you mean" for a mistyped choice, in any case) and the argument types that refuse out-of-range values."""

from __future__ import annotations

import argparse
import re
import unicodedata
from collections.abc import Iterable

from swords_lexsub.terminal import shown

PORT_RANGE = (1, 65535)


def did_you_mean(word: object, choices: Iterable[str]) -> str:
    """' (did you mean X?)' when a choice is close to `word`, else ''. When the choices are ASCII and `word` is not,
    the first character that is not is named too, as a look-alike letter (Cyrillic 'е' for 'e') cannot be seen:
    " (did you mean 'test'? character 2 is U+0435 CYRILLIC SMALL LETTER IE, not ASCII)"."""
    word, choices = str(word), [str(choice) for choice in choices]
    # Case does not count ("SWORDS" is 'swords'); the choice is named as it is spelled.
    folded = {choice.casefold(): choice for choice in reversed(choices)}
    # A near miss is within a few edits of a choice: comparing more than a choice's length (twice) tells nothing.
    probe = word.casefold()[: 2 * max(map(len, choices), default=0) + 2]
    import difflib  # here: only a mistyped choice needs it

    close = difflib.get_close_matches(probe, list(folded), n=1, cutoff=0.6)
    notes = [f"did you mean {folded[close[0]]!r}?"] if close else []
    if not word.isascii() and all(choice.isascii() for choice in choices):
        position, character = next((i, c) for i, c in enumerate(word, 1) if not c.isascii())
        name = unicodedata.name(character, "an unnamed character")
        notes.append(f"character {position} is U+{ord(character):04X} {name}, not ASCII")
    return f" ({' '.join(notes)})" if notes else ""


def int_range(minimum: int | None = None, maximum: int | None = None, what: str = "a whole number"):
    """argparse type: an int within [minimum, maximum] (either bound optional)."""
    return _ranged(int, minimum, maximum, what)


def float_range(minimum: float | None = None, maximum: float | None = None, what: str = "a number"):
    """argparse type: a finite float within [minimum, maximum] (either bound optional)."""
    return _ranged(float, minimum, maximum, what)


def _ranged(number: type, minimum, maximum, what: str):
    def parse(text: str):  # an int is always finite: the check below is a float's
        try:
            value = number(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            said = f"{value:g}" if number is float else value
            raise argparse.ArgumentTypeError(f"{said} is out of range ({_bounds(minimum, maximum)})")
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse


def _bounds(minimum, maximum) -> str:
    if minimum is not None and maximum is not None:
        return f"{minimum} to {maximum}"
    return f"at least {minimum}" if minimum is not None else f"at most {maximum}"


port_number = int_range(*PORT_RANGE, what="a port number")


def path_text(what: str = "a file or folder"):
    """argparse type: a path, refused when empty ('' would mean the current folder, or be ignored)."""

    def parse(text: str) -> str:
        if not text:
            raise argparse.ArgumentTypeError(f"empty; name {what}")
        return text

    parse.__name__ = what
    return parse


class HelpFormatter(argparse.HelpFormatter):
    """Every option that takes a value ends its help with its default and, where it has them, its choices."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if text == argparse.SUPPRESS or not action.option_strings or action.nargs == 0:
            return text
        extras = []
        if action.choices and "%(choices)" not in text:
            extras.append("choices: %(choices)s")
        if "%(default)" not in text and not re.search(r"\bdefault\b", text):
            extras.append("default: %(default)s" if action.default is not None else "default: none")
        return text + (f" ({'; '.join(extras)})" if extras else "")


_INVALID_CHOICE = re.compile(r"invalid choice: '(?P<word>[^']*)' \(choose from (?P<choices>.*)\)")


class SwordsParser(argparse.ArgumentParser):
    """The parser of every `swords` command: defaults and choices in the help, "did you mean" on a mistyped
    choice, a mistake in one line. Subcommand parsers are of the same class."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        """One line, as every other error of the toolkit (argparse would print the usage block first)."""
        match = _INVALID_CHOICE.search(message)
        if match:
            choices = re.findall(r"'([^']*)'", match.group("choices"))
            message += did_you_mean(match.group("word"), choices)
        self.exit(2, f"{self.prog}: error: {shown(message)} (see {self.prog} --help)\n")
