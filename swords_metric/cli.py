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
from swords_metric.compare_command import DIFFERENCES, run_compare
from swords_metric.errors import MetricInputError
from swords_metric.judgments.command import add_judgments_argument, check_judgments_arguments
from swords_metric.predictions.files import MAX_PREDICTIONS_BYTES
from swords_metric.references.metric_family import Family, metric_family
from swords_metric.scorer import SETTINGS

WORST, BOOTSTRAP = 5, 1000  # --worst, --bootstrap when not given


def register(subparsers) -> None:
    command = subparsers.add_parser(
        "evaluate",
        help="score a predictions file with the benchmark's metrics (SWORDS, TSAR-2022, ProLex)",
        description="Score a system's predictions file on a benchmark split. The figures are percentages, as the "
        "SWORDS paper reports them (TSAR-2022 and ProLex: fractions, as their official scorers print them).",
    )
    # Groups, as a reader looks for them: what is scored, how, what is written, and the judgments that extend it.
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
    add_judgments_argument(command.add_argument_group("judgments (SWORDS: a gold extended by new judgements)"))
    command.set_defaults(func=run)


def input_notes(result: dict, source: str) -> list[str]:
    """One-line notes on what the scorer did with unusual input (printed to stderr, not an error)."""
    notes = []
    missing = result.get("targets_not_in_predictions", 0)
    if missing:
        notes.append(
            f"{missing:,} of {result['targets_scored']:,} scored targets are not in {source}: "
            "scored as empty answers, as upstream scores them"
        )
    unusual = result.get("input_notes") or {}
    parts = [
        f"{unusual[key]:,} {label}"
        for key, label in (
            ("empty_substitutes", "empty substitutes (one wrong answer each)"),
            ("target_copies", "copies of the target (dropped)"),
            ("duplicates", "duplicates after lemmatization (merged)"),
        )
        if unusual.get(key)
    ]
    if parts:
        notes.append(f"{source}: " + ", ".join(parts) + "; scored as upstream scores them")
    variants = unusual.get("unicode_variants")
    if variants:
        notes.append(
            f"{source}: {variants:,} substitutes match a gold word only as plain text (invisible format "
            "characters removed, NFKC: composed accents, fullwidth letters, no-break spaces); not matched, "
            'as upstream does not match them (see the metric card, "Unicode")'
        )
    skipped = result.get("predictions_for_skipped_targets", 0)
    if skipped:
        notes.append(
            f"{skipped:,} predictions are for CoInCo's problematic targets, left out as upstream leaves them out "
            "(--include-problematic scores them)"
        )
    return notes


def note(text: str) -> None:
    """One line on stderr, as a terminal can show it (file names and words escaped)."""
    print(f"note: {shown(text)}", file=sys.stderr)


def _with_hint(error: MetricInputError) -> SwordsError:
    belongs_to = getattr(error, "belongs_to", None)
    return SwordsError(str(error), f"use --dataset {belongs_to[0]} --split {belongs_to[1]}" if belongs_to else None)


def _check_options(args: argparse.Namespace, family: Family) -> None:
    """Before any scoring work: options that do not go together or would be ignored, and where --details would
    go (the options a family does not take are refused before, by check_family_arguments)."""
    if args.published and args.compare:
        raise SwordsError("--published goes with --predictions (a single system), not --compare")
    if args.given_only and args.compare:
        raise SwordsError("--given-only goes with --predictions: --compare scores both files on every target")
    if args.published and args.k != 10 and family.has_details:  # ProLex's published rows are at its k
        raise SwordsError(f"--published shows F@10 as the papers report it; it goes with --k 10, not --k {args.k}")
    if args.differences is not None and not args.compare:
        raise SwordsError("--differences goes with --compare (the targets where two systems differ most)")
    summary = [
        option for option, given in (("--worst", args.worst is not None), ("--relations", args.relations)) if given
    ]
    if summary and (args.compare or args.no_analysis):
        other = "--compare (which prints no summary)" if args.compare else "--no-analysis"
        raise SwordsError(f"{summary[0]} sets the summary of what the system proposed; it does not go with {other}")
    if args.no_analysis and args.compare:
        raise SwordsError("--no-analysis goes with --predictions: --compare prints no summary to leave out")
    if args.force and not args.details:
        raise SwordsError("--force goes with --details (it replaces a details file that changed since it was written)")
    args.details_place = None
    if args.details:
        from swords_metric.details.place import details_place, record_path

        read = [("--predictions", args.predictions), *(("--compare", path) for path in args.compare or ())]
        read += [("--judgments", path) for path in args.judgments or ()]
        refuse_input_as_output(  # the details file and its record beside it: neither a file this command reads
            [(f"--details {args.details}", path) for path in (args.details, record_path(args.details))],
            [(f"{option} {path}", path) for option, path in read],
        )
        args.details_place = details_place(args.details, "--details", args.force, "--force")


def _said_where(path, records: int) -> None:
    """Where the details went (the file itself, by its absolute path), on stderr."""
    print(f"details: {records:,} records written to {shown(os.path.abspath(path))}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from swords_metric.judgments.extended import extend_result
    from swords_metric.judgments.merge import merge_judgments
    from swords_metric.judgments.report import format_extended
    from swords_metric.official.cli import check_family_arguments, run_family
    from swords_metric.report import format_analysis, format_result
    from swords_metric.scorer import check_resamples, scorer_for

    # The benchmark's metric family, decided once: every check and step below asks it. The options are checked,
    # as options, before any work: those the family takes.
    family = metric_family(args.dataset)
    check_judgments_arguments(args)
    check_family_arguments(args, family)
    if args.bootstrap is None and (family.default_intervals or args.compare):
        args.bootstrap = BOOTSTRAP
    try:
        _check_options(args, family)
        options = {"k": args.k, "setting": args.setting, "include_problematic": args.include_problematic}
        scorer = scorer_for(args.dataset, args.split, family=family, **options)
        if args.include_problematic and not any(scorer.problematic):
            raise SwordsError(
                f"--include-problematic: {args.dataset} {args.split} has no problematic targets (only "
                "CoInCo flags any); leave the option out"
            )
        if args.compare:  # any family: the paired bootstrap test between two files
            return run_compare(scorer, family, args, note, _said_where)
        if family.official:  # TSAR-2022, ProLex: their own official metrics, their own report
            return run_family(args, scorer, note)
        check_resamples(args.bootstrap, what="--bootstrap")  # before reading the file
        merged = merge_judgments(scorer, args.judgments) if args.judgments else None  # checked before the run
        prepared = scorer.read(args.predictions, details=args.details_place)
        if prepared.details_file is not None:
            _said_where(*prepared.details_file)
        split_targets = sum(scorer.scored)
        if args.given_only and not any(prepared.given_mask()):
            raise SwordsError(
                f"{args.predictions} answers no target of {args.dataset} {args.split} "
                f"({len(prepared.ranked):,} targets), so --given-only has nothing to score"
            )
        if args.given_only:
            scorer, prepared = scorer.restricted_to_given(prepared)
        result = scorer.score(prepared, bootstrap=args.bootstrap, seed=args.seed)
        if merged is not None:
            extend_result(result, scorer, prepared, args.predictions, merged, None, args.bootstrap, args.seed)
        if args.given_only:
            result["targets_in_split"] = split_targets  # so that a comparison with the whole split says so
        if not args.no_analysis:
            # With --details, WordNet's graph is loaded already: the summary gets the relations at little cost.
            relations = args.relations or bool(args.details)
            worst = WORST if args.worst is None else args.worst
            result["analysis"] = scorer.analyze(prepared, worst=worst, relations=relations)
    except MetricInputError as error:
        raise _with_hint(error) from None
    for line in input_notes(result, args.predictions):
        note(line)
    if args.published:
        from swords_metric.published import format_published, published_json
    if args.json:
        if args.published:
            result["published"] = published_json(result, args.dataset, args.split)
        print(json.dumps(result, indent=2, allow_nan=False))  # every figure is finite
        return 0
    title = f"{args.predictions} on {args.dataset} {args.split}"
    blocks = [format_result(result, title=title, setting=args.setting, k=args.k)]
    blocks += [format_extended(result, args.k, args.setting)] if "extended" in result else []
    if "analysis" in result:
        blocks.append(format_analysis(result["analysis"]))
    if args.published:
        blocks.append(format_published(result, args.dataset, args.split, args.predictions))
    print("\n\n".join(blocks))
    return 0
