"""`swords evaluate`: score a predictions file against a benchmark split."""

from __future__ import annotations

import argparse
import json

import swords_dataset
from swords_dataset.errors import SwordsError

from .core import MetricInputError
from .scorer import SETTINGS


def register(subparsers) -> None:
    command = subparsers.add_parser("evaluate", help="score a predictions file with the SWORDS metrics")
    command.add_argument("--dataset", default="swords", choices=list(swords_dataset.CONFIGS), help="benchmark config")
    command.add_argument("--split", default="test", help="split of the config (default: %(default)s)")
    files = command.add_mutually_exclusive_group(required=True)
    files.add_argument("--predictions", help="upstream SWORDS result JSON or JSONL ({'id', 'substitutes'} a line)")
    files.add_argument("--compare", nargs=2, metavar=("A", "B"), help="paired bootstrap test between two files")
    command.add_argument("--setting", choices=SETTINGS, default="generative", help="generative or ranking")
    command.add_argument("--k", type=int, default=10, help="cut-off for P/R/F (default: %(default)s)")
    command.add_argument(
        "--bootstrap",
        type=int,
        default=1000,
        help="target resamples for 95%% intervals and --compare (0: none; default %(default)s)",
    )
    command.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: %(default)s)")
    command.add_argument("--json", action="store_true", help="print the result as JSON")
    command.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .predictions import read_predictions
    from .report import format_comparison, format_result
    from .scorer import Scorer

    swords_dataset.check_config(args.dataset, args.split)
    if args.k < 1 or args.bootstrap < 0:
        raise SwordsError("--k must be at least 1 and --bootstrap at least 0")
    try:
        scorer = Scorer.from_dataset(args.dataset, args.split, k=args.k, setting=args.setting)
        if args.compare:
            a, b = (read_predictions(path)[0] for path in args.compare)
            result = scorer.compare(a, b, bootstrap=max(args.bootstrap, 1), seed=args.seed, sources=tuple(args.compare))
            print(json.dumps(result, indent=2) if args.json else format_comparison(result))
            return 0
        predictions, _ = read_predictions(args.predictions)
        result = scorer.score(predictions, bootstrap=args.bootstrap, seed=args.seed, source=args.predictions)
    except MetricInputError as error:
        raise SwordsError(str(error)) from None
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        title = f"{args.predictions} on {args.dataset} {args.split}"
        print(format_result(result, title=title, setting=args.setting, k=args.k))
    return 0
