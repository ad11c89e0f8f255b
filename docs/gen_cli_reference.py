"""Write the CLI reference (reference/cli.md) at build time from the `swords` command's own parsers, so the page is
always what the installed command says: every subcommand's --help, and each `swords run` system's options.

Run by mkdocs-gen-files (mkdocs.yml). The parsers are found through the `swords` console script's entry point
(its module's `parser()`), whatever module holds it."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import re
from importlib.metadata import entry_points
from pathlib import Path

import mkdocs_gen_files

WIDTH = "100"  # argparse wraps help at $COLUMNS


def swords_command():
    (entry_point,) = entry_points(group="console_scripts", name="swords")
    return importlib.import_module(entry_point.module)


def subcommands(parser: argparse.ArgumentParser, path: tuple[str, ...]):
    """(path, parser) of `parser` and every subcommand under it, in the order they are registered."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from subcommands(child, (*path, name))


def system_names(run: argparse.ArgumentParser) -> list[str]:
    """The systems `swords run --system` names in its help ("system name: a, b, c")."""
    action = next(action for action in run._actions if "--system" in action.option_strings)
    match = re.search(r"system name: (.+)", action.help or "")
    if not match:
        raise RuntimeError(f"`swords run --system`'s help no longer lists the systems: {action.help!r}")
    return [name.strip() for name in match.group(1).split(",")]


def run_output(main, argv: list[str]) -> str:
    """What `swords ARGV` prints, run in this process."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(argv)
    if status:
        raise RuntimeError(f"swords {' '.join(argv)} exited {status}")
    return out.getvalue()


def shown(text: str) -> str:
    """Help text with this machine's paths as the repository sees them (defaults such as the sources folder)."""
    root = Path.cwd().resolve()
    return text.replace(f"{root.parent}{os.sep}", f"..{os.sep}").rstrip() + "\n"


def fitted(text: str) -> str:
    """The help with every line of at most WIDTH characters: argparse cannot break a long list of choices
    (`--dataset {swords,…,tsar2022_pt}`), so such a line goes on after a comma, lined up after its brace."""
    width = int(WIDTH)
    lines = []
    for line in text.splitlines():
        while len(line) > width:
            indent = len(line) - len(line.lstrip())
            brace = line.find("{")
            hang = brace + 1 if 0 <= brace < width else indent + 4
            cut = max(line.rfind(",", 0, width), line.rfind(" ", indent + 1, width - 1))
            if cut <= hang:
                break
            lines.append(line[: cut + 1].rstrip())
            line = " " * hang + line[cut + 1 :].lstrip()
        lines.append(line)
    return "\n".join(lines)


def page() -> str:
    os.environ["COLUMNS"] = WIDTH
    module = swords_command()
    main = module.main  # the console command's module: main(argv) returns the status (the command exits with it)
    top = module.parser()
    lines = [
        "# The CLI",
        "",
        "One console command, `swords`, with a subcommand per job; each installed package registers its own. This "
        "page is written when the manual is built, from the parsers themselves: it is what `--help` prints, a "
        "line longer than 100 characters wrapped after a comma. "
        "Defaults that depend on the machine are shown as they were where the manual was built (paths relative "
        "to the repository's folder).",
        "",
    ]
    run_parser = None
    for path, parser in subcommands(top, ("swords",)):
        title = " ".join(path)
        lines += [f"## `{title}`", "", "```text", fitted(shown(parser.format_help()).rstrip()), "```", ""]
        if path == ("swords", "run"):
            run_parser = parser
    if run_parser is None:
        raise RuntimeError("`swords run` is not registered: install the baselines (pip install -e .)")
    lines += [
        "## The systems' own options",
        "",
        "Options after `--system NAME` are the system's: `swords run --system NAME --help` shows them.",
        "",
    ]
    for name in system_names(run_parser):
        text = run_output(main, ["run", "--system", name, "--help"])
        own = text[text.index(f"usage: swords run --system {name}") :]
        lines += [f"### `swords run --system {name}`", "", "```text", fitted(shown(own).rstrip()), "```", ""]
    return "\n".join(lines)


with mkdocs_gen_files.open("reference/cli.md", "w") as f:
    f.write(page())
