"""The toolkit's plugin points. Each installed package adds `swords` subcommands and build steps through entry
points declared in setup.cfg, so this package, the bottom layer, names none of the packages above it."""

from __future__ import annotations

import configparser
import pkgutil
import sys
from pathlib import Path
from typing import NamedTuple

COMMANDS = "swords.commands"  # NAME = module:register, register(subparsers) adds `swords NAME`
BUILD_STEPS = "swords.build_steps"  # NAME = module:step, step(dataset_dir) runs after `swords data build`
HUB_REPOS = "swords.hub_repos"  # NAME = module:REPO, a swords_lexsub.hub.repos.HubRepo (`swords hub export/publish`)


def entry_points_of(group: str) -> list:
    """The group's entry points in the order they are declared, each name once (an installation visible
    twice, e.g. an editable install inside another environment, counts once)."""
    from importlib.metadata import entry_points

    found: dict = {}  # name -> importlib.metadata.EntryPoint
    for entry_point in entry_points(group=group):
        found.setdefault(entry_point.name, entry_point)
    return list(found.values())


# The toolkit's own distribution: its metadata declares the built-in subcommands.
DISTRIBUTION = "swords-lexsub"


class OwnEntryPoint(NamedTuple):
    """One of the toolkit's own entry points: its name, and `load()` for its object, as EntryPoint's."""

    name: str
    value: str  # module:attribute

    def load(self) -> object:
        return pkgutil.resolve_name(self.value)


def own_entry_points(group: str) -> list[OwnEntryPoint]:
    """The group's entry points the toolkit's own distribution declares (not every installed package's: a built-in
    `swords` command need not scan them); none when it is not installed. Read from the first entry_points.txt of its
    .dist-info on sys.path, where importlib.metadata finds it, with configparser: importing importlib.metadata alone
    (email, zipfile, csv) takes a tenth of a plain `swords evaluate`."""
    pattern = f"{DISTRIBUTION.replace('-', '_')}-*.dist-info/entry_points.txt"
    for folder in sys.path:
        for path in sorted(Path(folder or ".").glob(pattern)):
            declared = configparser.ConfigParser(delimiters=("=",), interpolation=None)
            declared.optionxform = str  # names keep their case
            declared.read(path, encoding="utf-8")
            return [OwnEntryPoint(*item) for item in declared.items(group)] if declared.has_section(group) else []
    return []
