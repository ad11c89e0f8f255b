"""`swords evaluate --judgments FILE [FILE ...]`: the option, its checks before any work, and what it adds to the
run's result and report (the figures on the gold the judgments extend, beside the official ones)."""

from __future__ import annotations

import argparse

from swords_lexsub.errors import SwordsError
from swords_metric.judgments.files import MAX_JUDGMENTS_BYTES
from swords_metric.judgments.judged import refusal


def add_judgments_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--judgments",
        nargs="+",
        metavar="FILE",
        help="SWORDS only: the tasks files and the judgments files that answer them, in any order (JSONL, one judged "
        f"candidate a line: `swords judge`, the Space's Judge tab, or any tool; at most {MAX_JUDGMENTS_BYTES >> 20} "
        "MB each); each record is checked against its task, the later answer wins, and SWORDS's quality filter "
        "applies; the report adds every figure on the gold they extend, beside the official one, under a "
        "signature that says so (docs: scoring/judgments)",
    )


def check_judgments_arguments(args: argparse.Namespace, family) -> None:
    """Before any work: --judgments on a benchmark whose gold cannot take judgements (its `family` says), or with
    --compare."""
    if not getattr(args, "judgments", None):
        return
    reason = refusal(args.dataset, family)
    if reason:
        raise SwordsError(f"--judgments: {args.dataset}: {reason.removeprefix('judgments: ')}")
    if args.compare:
        raise SwordsError("--judgments goes with --predictions (one system), not --compare")
