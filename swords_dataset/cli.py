"""`swords data`: build, verify and publish the benchmark datasets (registered as a `swords` subcommand through the
`swords.commands` entry points, swords_lexsub/plugins.py)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from swords_dataset import DATASET_DIR
from swords_lexsub.terminal import shown


def _cmd_build(args: argparse.Namespace) -> int:
    import time

    from swords_dataset.builder.pipeline import build

    started = time.perf_counter()
    counts = build(Path(args.sources), Path(args.output), nltk35=args.nltk35)
    for config, splits in counts.items():
        print(f"{config}: " + ", ".join(f"{split} {n:,} rows" for split, n in splits.items()))
    print(f"built {args.output} in {time.perf_counter() - started:.1f} s")
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    from swords_dataset.checked_rows import rows_reader
    from swords_dataset.stats import check_published, compute_all, format_table

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
    from swords_dataset.hub_repo import check_repo_id, publish, publishable_files

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
    from swords_dataset.builder.sources import NLTK35_ENV, default_sources_dir

    data = subparsers.add_parser("data", help="build, verify and publish the benchmark datasets")
    commands = data.add_subparsers(dest="data_command", required=True, metavar="COMMAND")

    build = commands.add_parser("build", help="build Parquet files and the dataset card from the raw sources")
    build.add_argument(
        "--sources", default=str(default_sources_dir()), help="raw sources folder (default: %(default)s)"
    )
    # Required: a default would rebuild inside the installed package.
    build.add_argument(
        "--output",
        required=True,
        help="dataset folder to write: a new or empty one, or one the build "
        "wrote (its swords-build.json lists its files); nothing else in it is touched",
    )
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
