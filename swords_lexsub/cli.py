"""The `swords` console command. Each installed package adds its own subcommands through the `swords.commands` entry
points (swords_lexsub/plugins.py); this module only wires them, and turns a SwordsError into one line on stderr."""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
from typing import NoReturn

from swords_lexsub.arguments import SwordsParser
from swords_lexsub.errors import SwordsError
from swords_lexsub.hub.endpoint import settle_endpoint
from swords_lexsub.interrupts import Terminated, handled_interrupts, raise_pending, stopped_line
from swords_lexsub.manual import MANUAL_URL
from swords_lexsub.manual import register as register_docs
from swords_lexsub.plugins import COMMANDS, entry_points_of, own_entry_points
from swords_lexsub.terminal import shown

__all__ = ["Terminated", "command", "main", "parser"]


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """`swords` and every subcommand the installed packages register (a package that cannot be imported adds none).
    Given the command about to run, only its package is imported; an unknown name, or one whose package cannot be
    imported, loads them all, for the error's list and its "did you mean"."""
    top = SwordsParser(
        prog="swords",
        description="Lexical substitution benchmarks, metric, baselines and demo.",
        epilog=f"The manual: {MANUAL_URL}; in a clone, `swords docs` serves it on 127.0.0.1.",
    )
    subparsers = top.add_subparsers(dest="command", required=True)
    if command == "docs":  # the root package's own command: nothing else need be imported
        register_docs(subparsers)
        return top
    # A built-in command is found in the toolkit's own metadata; a plugin's, among every installed package's.
    named = [entry_point for entry_point in own_entry_points(COMMANDS) if entry_point.name == command]
    if named and _register(named, subparsers, False):
        return top
    registered = entry_points_of(COMMANDS)
    if not _register([entry_point for entry_point in registered if entry_point.name == command], subparsers, False):
        _register(registered, subparsers, True)
    return top


def _register(entry_points: list, subparsers, with_docs: bool) -> int:
    """Add the subcommands of those entry points whose package imports (and `docs`, in name order); how many
    entry points did."""
    added = 0
    commands = [(entry_point.name, entry_point) for entry_point in entry_points]
    for _name, entry_point in sorted(commands + ([("docs", None)] if with_docs else []), key=lambda pair: pair[0]):
        if entry_point is None:
            register_docs(subparsers)
            continue
        try:
            register = entry_point.load()
        except ImportError:
            continue
        register(subparsers)
        added += 1
    return added


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    top = parser(arguments[0] if arguments else None)
    # `swords run` passes the options after --system to the chosen system; every other command is strict.
    args, extra = top.parse_known_args(arguments)
    if extra and not getattr(args, "accepts_extra", False):
        top.error(f"unrecognized arguments: {' '.join(extra)}")
    args.extra = extra
    # A command that serves until stopped (`swords demo`, `swords llm serve`) sets its own SIGTERM handler.
    with handled_interrupts():
        try:
            warning = settle_endpoint(needs_hub=getattr(args, "needs_hub", False))
            if warning is not None:
                print(f"swords: {warning}", file=sys.stderr)
            status = args.func(args)
            raise_pending()  # a Ctrl-C or SIGTERM that came in the last moments, where Python swallowed it
            sys.stdout.flush()  # a closed pipe shows here, inside the handler below, not at interpreter exit
            return status
        except SwordsError as error:
            print(f"swords: error: {shown(error.for_cli())}", file=sys.stderr)
            return 2
        except KeyboardInterrupt as interrupt:  # Ctrl-C, or SIGTERM (Terminated)
            print(stopped_line(interrupt, getattr(args, "resumes", False)), file=sys.stderr)
            return 128 + signal.SIGTERM if isinstance(interrupt, Terminated) else 130
        except BrokenPipeError:  # `swords … | head`: the reader has what it wanted; stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0


def command() -> NoReturn:
    """The `swords` console command: main, then exit with its status."""
    status = main()
    # The process ends here: the collections Python runs at exit need not walk what the command built (the
    # memory goes back to the system whole). Not in main, which tests call again and again in one process.
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":
    command()
