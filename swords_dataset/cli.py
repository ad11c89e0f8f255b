"""The `swords` console command, and its `data` subcommands. Each installed package adds its own subcommands
(plugins.py); this module only wires them."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from . import DATASET_DIR
from .arguments import SwordsParser
from .errors import SwordsError
from .hub_endpoint import settle_endpoint
from .plugins import COMMANDS, entry_points_of
from .terminal import shown


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: what is finished is kept, temporary files go, one line says so."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated()


def _cmd_build(args: argparse.Namespace) -> int:
    import time

    from .build import build

    started = time.perf_counter()
    counts = build(Path(args.sources), Path(args.output), nltk35=args.nltk35)
    for config, splits in counts.items():
        print(f"{config}: " + ", ".join(f"{split} {n:,} rows" for split, n in splits.items()))
    print(f"built {args.output} in {time.perf_counter() - started:.1f} s")
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    from .stats import check_published, compute_all, format_table
    from .verify import rows_reader

    table = compute_all(rows_reader(args.dataset_dir))
    print(format_table(table))
    print()
    checks = check_published(table)
    for check in checks:
        print(check.line())
    failed = [c for c in checks if c.status == "MISMATCH"]
    explained = sum(c.status == "explained" for c in checks)
    matched = len(checks) - len(failed) - explained
    print(f"\n{matched} figures match, {explained} differ as explained, {len(failed)} mismatch")
    return 1 if failed else 0


def _cmd_publish(args: argparse.Namespace) -> int:
    from .publish import check_repo_id, publish, publishable_files

    check_repo_id(args.repo_id)
    files = publishable_files(Path(args.dataset_dir))
    if args.dry_run:
        for path, size in files:
            print(f"{size:>12,}  {path}")
        print(
            f"{sum(s for _, s in files):>12,}  total, {len(files)} files -> {args.repo_id} (dry run, nothing uploaded)"
        )
        return 0
    print(shown(publish(args.repo_id, Path(args.dataset_dir), private=args.private)))
    return 0


def register_data(subparsers) -> None:
    from .sources import NLTK35_ENV, default_sources_dir

    data = subparsers.add_parser("data", help="build, verify and publish the benchmark datasets")
    commands = data.add_subparsers(dest="data_command", required=True, metavar="COMMAND")

    build = commands.add_parser("build", help="build Parquet files and the dataset card from the raw sources")
    build.add_argument(
        "--sources", default=str(default_sources_dir()), help="raw sources folder (default: %(default)s)"
    )
    # Required: a default would rebuild inside the installed package.
    build.add_argument("--output", required=True, help="dataset folder to write: a new or empty one, or one the build "
                       "wrote (its swords-build.json lists its files); nothing else in it is touched")
    build.add_argument(
        "--nltk35",
        default=os.environ.get(NLTK35_ENV),
        metavar="DIR",
        help=f"folder holding nltk 3.5 (pip install --no-deps --target DIR nltk==3.5), for upstream's SemEval-2007 "
        f"trial ids (default: ${NLTK35_ENV})",
    )
    build.set_defaults(func=_cmd_build)

    verify = commands.add_parser("verify", help="statistics of every config against the published figures")
    verify.add_argument(
        "--dataset-dir", default=None, help="read Parquet from this folder instead of the installed data"
    )
    verify.set_defaults(func=_cmd_verify)

    publish = commands.add_parser("publish", help="upload the dataset folder to the Hugging Face Hub")
    publish.add_argument("--repo-id", required=True, help="ORG/NAME of the dataset repository")
    publish.add_argument("--dry-run", action="store_true", help="list the files and sizes, upload nothing")
    publish.add_argument("--private", action="store_true", help="create the repository as private")
    publish.add_argument("--dataset-dir", default=str(DATASET_DIR), help=argparse.SUPPRESS)
    publish.set_defaults(func=_cmd_publish, needs_hub=True)


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """`swords` and every subcommand the installed packages register (entry points, see plugins.py); a
    package that cannot be imported here adds none. Given the command about to run, only its package is
    imported (`swords evaluate` need not import the baselines and the demo); an unknown name, or one whose
    package cannot be imported, loads them all, for the error's list and its "did you mean"."""
    top = SwordsParser(prog="swords", description="Lexical substitution benchmarks, metric, baselines and demo.")
    subparsers = top.add_subparsers(dest="command", required=True)
    registered = entry_points_of(COMMANDS)
    if not _register([entry_point for entry_point in registered if entry_point.name == command], subparsers):
        _register(registered, subparsers)
    return top


def _register(entry_points: list, subparsers) -> int:
    """Add the subcommands of those entry points whose package imports; how many did."""
    added = 0
    for entry_point in entry_points:
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
    # A command that serves until stopped (`swords demo`, `swords llm serve`) sets its own handler.
    previous_handler = signal.signal(signal.SIGTERM, _terminate)
    try:
        warning = settle_endpoint(needs_hub=getattr(args, "needs_hub", False))
        if warning is not None:
            print(f"swords: {warning}", file=sys.stderr)
        status = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler below, not at interpreter exit
        return status
    except SwordsError as error:
        print(f"swords: error: {shown(error.for_cli())}", file=sys.stderr)
        return 2
    except Terminated:
        print("swords: terminated (SIGTERM); finished work is kept", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print("swords: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `swords … | head`: the reader has what it wanted; stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous_handler)


if __name__ == "__main__":
    sys.exit(main())
