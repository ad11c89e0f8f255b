"""`swords docs`: serve the manual from a clone's mkdocs.yml and docs/ on 127.0.0.1 until Ctrl-C (an installed package
has no sources: MANUAL_URL). Part of the root command, no entry point: it imports no package above this one."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from swords_lexsub.arguments import port_number
from swords_lexsub.errors import SwordsError

MANUAL_URL = "https://swords-lexsub.readthedocs.io/"
# What `mkdocs serve` needs for this manual (mkdocs.yml's theme and plugins): the `docs` extra.
MODULES = {"mkdocs": "mkdocs", "material": "mkdocs-material", "mkdocstrings": "mkdocstrings[python]"}
MODULES["mkdocs_gen_files"] = "mkdocs-gen-files"
CLONE = Path(__file__).resolve().parents[1]  # the clone, when the package runs from one (an editable install)


def register(subparsers) -> None:
    command = subparsers.add_parser(
        "docs",
        help="serve the manual from a clone on 127.0.0.1 (needs the docs extra)",
        description=f"Serve the manual from a clone's mkdocs.yml and docs/ until Ctrl-C. Published: {MANUAL_URL}",
    )
    command.add_argument(
        "--root",
        type=Path,
        default=None,
        help="the clone (default: the current folder if it holds mkdocs.yml, else the clone swords runs from)",
    )
    command.add_argument("--port", type=port_number, default=8000, help="port on 127.0.0.1 (default: %(default)s)")
    command.set_defaults(func=serve)


def manual_root(root: Path | None) -> Path:
    """The folder whose mkdocs.yml and docs/ are served; one line naming what is missing otherwise."""
    if root is None:
        root = Path.cwd() if (Path.cwd() / "mkdocs.yml").is_file() else CLONE
    missing = [name for name in ("mkdocs.yml", "docs") if not (root / name).exists()]
    if missing:
        raise SwordsError(
            f"{root} has no {' or '.join(missing)}: the manual's sources come with a clone, not with "
            f"the installed package; run `swords docs` in a clone, or read {MANUAL_URL}"
        )
    return root


def serve(args: argparse.Namespace) -> int:
    root = manual_root(args.root)
    absent = [package for module, package in MODULES.items() if importlib.util.find_spec(module) is None]
    if absent:
        raise SwordsError(
            f'the manual needs {", ".join(absent)}, not installed; in the clone: pip install -e ".[docs]"'
        )
    address = f"127.0.0.1:{args.port}"
    print(f"the manual: http://{address}/ (built first, a few seconds; Ctrl-C stops it)", file=sys.stderr)
    command = [sys.executable, "-m", "mkdocs", "serve", "-q", "-f", str(root / "mkdocs.yml"), "-a", address]
    import subprocess  # here: `swords evaluate` need not import it

    done = subprocess.run(command, cwd=root)
    if done.returncode:
        raise SwordsError(f"mkdocs serve stopped with status {done.returncode} (its message is above)")
    return 0
