"""`swords evaluate`: score a predictions file against a benchmark split."""

from __future__ import annotations

import argparse
import json
import os
import sys

import swords_dataset
from swords_lexsub.arguments import int_range
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import refuse_input_as_output
from swords_lexsub.terminal import shown
from swords_metric.errors import MetricInputError
from swords_metric.evaluation import BOOTSTRAP, DIFFERENCES, WORST
from swords_metric.options import MAX_JUDGMENTS_BYTES, SETTINGS
from swords_metric.predictions.files import MAX_PREDICTIONS_BYTES
from swords_metric.report import SWORDS_DEFINED


def register(subparsers) -> None:
    command = subparsers.add_parser(
        "evaluate",
        help="score a predictions file with the benchmark's metrics (SWORDS, TSAR-2022, ProLex)",
        description="Score a system's predictions file on a benchmark split. The figures are percentages, as the "
        "SWORDS paper reports them (TSAR-2022 and ProLex: fractions, as their official scorers print them). "
        + " ".join(SWORDS_DEFINED),
    )
    scored = command.add_argument_group("what to score")
    scored.add_argument("--dataset", default="swords", choices=list(swords_dataset.CONFIGS), help="benchmark config")
    scored.add_argument(
        "--split",
        default="test",
        help=f"split of the config ({swords_dataset.splits_text()}; "
        "default: %(default)s), or two joined by '+' to score them together (dev+test, trial+test, as "
        "LexSubGen's tables)",
    )
    files = scored.add_mutually_exclusive_group(required=True)
    files.add_argument(
        "--predictions",
        metavar="FILE",
        help="the system's predictions: the upstream SWORDS result JSON or JSONL ({'id', 'substitutes'} a line), "
        f"gzipped or not (.gz), keyed by dataset or upstream ids; at most {MAX_PREDICTIONS_BYTES // 2**20:,} MB "
        "uncompressed; for TSAR-2022 also its official .tsv, for ProLex its .csv, in the split's order (this or "
        "--compare is required: no default)",
    )
    files.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        help="two such files: a paired bootstrap test between them (this or --predictions: no default)",
    )
    scored.add_argument(
        "--given-only",
        action="store_true",
        help="score only the targets the file answers, as `swords run` scores a run over part of a split (e.g. "
        "--limit, or lm-eval's); by default a target missing from the file is an empty answer, as upstream scores it",
    )
    scored.add_argument(
        "--include-problematic",
        action="store_true",
        help="CoInCo: also score the targets CoInCo flags as problematic (left out by default, as upstream does)",
    )
    how = command.add_argument_group("how to score")
    how.add_argument(
        "--setting",
        choices=SETTINGS,
        default="generative",
        help="generative (a system proposes) or ranking (it orders the candidate pool; adds GAP)",
    )
    how.add_argument("--k", type=int_range(1), default=10, help="cut-off for P/R/F (default: %(default)s)")
    how.add_argument(
        "--bootstrap",
        type=int,
        default=None,
        help=f"target resamples for 95%% intervals and --compare (0: none; default: {BOOTSTRAP})",
    )
    how.add_argument("--seed", type=int_range(0), default=0, help="bootstrap seed (default: %(default)s)")
    written = command.add_argument_group("what to write")
    written.add_argument("--json", action="store_true", help="print the result as JSON")
    written.add_argument(
        "--published",
        action="store_true",
        help="show this run beside the published results on the same benchmark split",
    )
    # None: not given (so that an option that would be ignored is refused); the defaults are WORST, DIFFERENCES.
    written.add_argument(
        "--worst", type=int_range(0), default=None, help=f"how many worst targets the summary names (default: {WORST})"
    )
    written.add_argument(
        "--differences",
        type=int_range(0),
        default=None,
        help=f"with --compare: how many targets where the systems differ most to name (default: {DIFFERENCES})",
    )
    written.add_argument(
        "--relations",
        action="store_true",
        help="add to the summary the WordNet 3.0 relation of each substitute to its target (synonym, "
        "hypernym, ...; loads WordNet's graph, about 0.3 s; on with --details, which has them)",
    )
    written.add_argument(
        "--no-analysis",
        action="store_true",
        help="leave out the summary of what the system proposed (classes, worst targets)",
    )
    written.add_argument(
        "--details",
        metavar="FILE",
        help="also write what the metric counted, per substitute and per target (with --compare: per target, both "
        "systems), to FILE: .jsonl, .csv or .parquet by its extension (the metric card says every field); an "
        "existing FILE is replaced only as swords evaluate wrote it: not one you edited since (see --force) and "
        "never a file of your own; not a symbolic link",
    )
    written.add_argument(
        "--force",
        action="store_true",
        help="with --details: replace a details file even if it changed since swords evaluate wrote "
        "it, or has no record of what was written (an earlier release's)",
    )
    command.add_argument_group("judgments (SWORDS: a gold extended by new judgements)").add_argument(
        "--judgments",
        nargs="+",
        metavar="FILE",
        help="SWORDS only: the tasks files and the judgments files that answer them, in any order (JSONL, one judged "
        f"candidate a line: `swords judge`, the Space's Judge tab, or any tool; at most {MAX_JUDGMENTS_BYTES >> 20} "
        "MB each); each record is checked against its task, the later answer wins, and SWORDS's quality filter "
        "applies; the report adds every figure on the gold they extend, beside the official one, under a "
        "signature that says so (docs: scoring/judgments)",
    )
    command.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from swords_metric.evaluation import check_options, evaluate
    from swords_metric.families import family_of
    from swords_metric.options import check_cli_combinations

    family = family_of(args.dataset)  # decided once: every check and step below asks it
    try:
        if args.judgments:  # before any work: on a benchmark whose gold cannot take judgements, or with --compare
            from swords_metric.judgments.judged import refusal

            reason = refusal(args.dataset, family)
            if reason:
                raise SwordsError(f"--judgments: {args.dataset}: {reason.removeprefix('judgments: ')}")
            if args.compare:
                raise SwordsError("--judgments goes with --predictions (one system), not --compare")
        asked = {name: getattr(args, name) for name in ("details", "force", "relations", "no_analysis", "worst")}
        check_options(family, "cli", args.dataset, args.k, args.setting, args.include_problematic,
                      **asked, differences=args.differences)  # fmt: skip
        check_cli_combinations(args, family)
        place = None
        if args.details:
            from swords_metric.details.place import details_place, record_path

            read = [("--predictions", args.predictions), *(("--compare", path) for path in args.compare or ())]
            read += [("--judgments", path) for path in args.judgments or ()]
            refuse_input_as_output(  # the details file and its record beside it: neither a file this command reads
                [(f"--details {args.details}", path) for path in (args.details, record_path(args.details))],
                [(f"{option} {path}", path) for option, path in read],
            )
            place = details_place(args.details, "--details", args.force, "--force")
        same = ("dataset", "split", "judgments", "k", "setting", "include_problematic", "bootstrap", "seed")
        same += ("given_only", "force", "worst", "relations", "differences")  # the options of evaluate's names
        evaluation = evaluate(
            args.predictions,
            family=family,
            compare=tuple(args.compare) if args.compare else None,
            details=place,
            analysis=not args.no_analysis,
            style="cli",
            **{name: getattr(args, name) for name in same},
        )
    except MetricInputError as error:
        belongs_to = getattr(error, "belongs_to", None)  # predictions of another split: name it
        hint = f"use --dataset {belongs_to[0]} --split {belongs_to[1]}" if belongs_to else None
        raise SwordsError(str(error), hint) from None
    if evaluation.details is not None:
        path, records = evaluation.details
        print(f"details: {records:,} records written to {shown(os.path.abspath(path))}", file=sys.stderr)
    for line in evaluation.notes:
        print(f"note: {shown(line)}", file=sys.stderr)  # as a terminal can show it (file names escaped)
    if args.json:
        print(json.dumps(evaluation.json(args.published), indent=2, allow_nan=False))  # every figure is finite
    else:
        print(evaluation.text(args.published))
    return 0
