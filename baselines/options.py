"""A system's options: its command-line options on `swords run` (`Option`), declared as such or as the fields of a
settings dataclass (`setting`, read by `options_from`), and the parser's checks made on settings given from Python
(`check_settings`)."""

from __future__ import annotations

import argparse
import dataclasses
import typing
from dataclasses import dataclass, field

from swords_lexsub.arguments import did_you_mean, float_range, int_range
from swords_lexsub.errors import SwordsError


@dataclass(frozen=True)
class Option:
    """A command-line option of a system: `--name` on `swords run`, passed to the system as a keyword."""

    name: str
    help: str
    default: object = None
    type: type = str
    choices: tuple | None = None
    # False for options that cannot change the answers (concurrency, timeouts, caches, prices): a run
    # interrupted with one value may be resumed with another.
    affects_output: bool = True
    # Bounds of a numeric option, checked by the parser (a negative count or timeout is refused there).
    minimum: float | None = None
    maximum: float | None = None

    def parse_type(self):
        if self.minimum is None and self.maximum is None:
            return self.type
        return int_range(self.minimum, self.maximum) if self.type is int else float_range(self.minimum, self.maximum)

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        flag = "--" + self.name.replace("_", "-")
        if self.type is bool:
            parser.add_argument(
                flag, dest=self.name, action=argparse.BooleanOptionalAction, default=self.default, help=self.help
            )
        else:
            parser.add_argument(
                flag,
                dest=self.name,
                type=self.parse_type(),
                default=self.default,
                choices=self.choices,
                help=f"{self.help} (default: {'none' if self.default in (None, '') else self.default})",
            )


def setting(
    help: str,
    default: object = None,
    *,
    choices: tuple | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    affects_output: bool = True,
    label: str | None = None,
):
    """A field of a system's settings dataclass, with what its Option needs; `label` names it in the Space's form."""
    metadata = {
        "help": help,
        "choices": choices,
        "minimum": minimum,
        "maximum": maximum,
        "affects_output": affects_output,
        "label": label,
    }
    return field(default=default, metadata=metadata)


def options_from(settings: type) -> tuple[Option, ...]:
    """The options of a settings dataclass, one per field in order, typed by its annotation (`int | None`: int)."""
    hints = typing.get_type_hints(settings)
    options = []
    for item in dataclasses.fields(settings):
        kinds = [kind for kind in typing.get_args(hints[item.name]) or (hints[item.name],) if kind is not type(None)]
        checks = {key: item.metadata[key] for key in ("choices", "affects_output", "minimum", "maximum")}
        options.append(Option(item.name, item.metadata["help"], item.default, kinds[0], **checks))
    return tuple(options)


def check_settings(values: object, system: str) -> None:
    """The checks the parser makes, made on settings given from Python: choices and bounds (None passes)."""
    for item in dataclasses.fields(values):
        value, meta = getattr(values, item.name), item.metadata
        if value is None or not meta:
            continue
        flag = "--" + item.name.replace("_", "-")
        if meta["choices"] is not None and value not in meta["choices"]:
            raise SwordsError(
                f"{system}: {flag} {value!r}{did_you_mean(value, meta['choices'])}; choose "
                f"{', '.join(map(str, meta['choices']))}"
            )
        if (meta["minimum"] is not None and value < meta["minimum"]) or (
            meta["maximum"] is not None and value > meta["maximum"]
        ):
            raise SwordsError(
                f"{system}: {flag} {value} is out of range ({bounds_text(meta['minimum'], meta['maximum'])})"
            )


def bounds_text(minimum: float | None, maximum: float | None) -> str:
    """A setting's range as its messages state it: "at least 2, at most 2147483647" (whole bounds in full)."""

    def number(bound: float) -> str:
        return f"{bound:g}" if isinstance(bound, float) and not bound.is_integer() else str(int(bound))

    bounds = [
        f"at least {number(minimum)}" if minimum is not None else "",
        f"at most {number(maximum)}" if maximum is not None else "",
    ]
    return ", ".join(bound for bound in bounds if bound)
