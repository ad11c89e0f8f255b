"""The toolkit's plugin points. Each installed package adds `swords` subcommands and build steps through entry
points declared in setup.cfg, so this package, the bottom layer, names none of the packages above it."""

from __future__ import annotations

from importlib.metadata import EntryPoint, PackageNotFoundError, distribution, entry_points

COMMANDS = "swords.commands"  # NAME = module:register, register(subparsers) adds `swords NAME`
BUILD_STEPS = "swords.build_steps"  # NAME = module:step, step(dataset_dir) runs after `swords data build`
HUB_REPOS = "swords.hub_repos"  # NAME = module:REPO, a swords_lexsub.hub.repos.HubRepo (`swords hub export/publish`)


def entry_points_of(group: str) -> list[EntryPoint]:
    """The group's entry points in the order they are declared, each name once (an installation visible
    twice, e.g. an editable install inside another environment, counts once)."""
    found: dict[str, EntryPoint] = {}
    for entry_point in entry_points(group=group):
        found.setdefault(entry_point.name, entry_point)
    return list(found.values())


# The toolkit's own distribution: its metadata declares the built-in subcommands.
DISTRIBUTION = "swords-lexsub"


def own_entry_points(group: str) -> list[EntryPoint]:
    """The group's entry points the toolkit's own distribution declares, read from its metadata alone (not every
    installed package's: a built-in `swords` command need not scan them); none when it is not installed."""
    try:
        declared = distribution(DISTRIBUTION).entry_points
    except PackageNotFoundError:
        return []
    return [entry_point for entry_point in declared if entry_point.group == group]
