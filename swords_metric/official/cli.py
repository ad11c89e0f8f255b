"""`swords evaluate` on a benchmark with its own official metrics (TSAR-2022, ProLex): the same command, its
family's scorer, and the options its Family does not take refused in one line instead of ignored."""

from __future__ import annotations

import argparse
import json

from swords_lexsub.errors import SwordsError
from swords_metric.errors import MetricInputError
from swords_metric.official.scorer import FamilyScorer
from swords_metric.references.metric_family import Family

# Options of `swords evaluate` that only a family with details uses (the SWORDS metrics): (attribute, option, given
# when).
_DETAILS_ONLY = (
    ("details", "--details", lambda value: value is not None),
    ("force", "--force", bool),
    ("relations", "--relations", bool),
    ("no_analysis", "--no-analysis", bool),
    ("worst", "--worst", lambda value: value is not None),
    ("differences", "--differences", lambda value: value is not None),
    ("include_problematic", "--include-problematic", bool),
)


def check_family_arguments(args: argparse.Namespace, family: Family) -> None:
    """Before any work: an option this family's metrics do not use is one line naming it (the family says which
    it takes)."""
    for attribute, option, given in _DETAILS_ONLY:
        if not family.has_details and given(getattr(args, attribute, None)):
            raise SwordsError(
                f"{option} belongs to the SWORDS metrics; {args.dataset} is scored with the {family} "
                "metrics, as its official scorer scores it (no per-substitute details, no summary)"
            )
    if args.setting != "generative" and not family.takes_ranking:
        raise SwordsError(
            f"--setting {args.setting}: the {family} metrics score a system's ranked answers "
            "(generative); leave --setting out"
        )
    refusal = family.k_refusal(args.k)
    if refusal:
        raise SwordsError(f"--k {args.k}: {refusal}; leave --k out")


def missing_note(result: dict, source: str, family: Family) -> str | None:
    """What became of the targets a file leaves out (scored with the others, as instances without answers), and
    what the family's official scorer would do with such a file; None when it answers every target."""
    missing = result["targets_not_in_predictions"]
    if not missing:
        return None
    told = f"{missing:,} of {result['targets_scored']:,} targets are not in {source}: "
    if family.scores_given_lines:
        return told + (
            "each scored as an instance without answers (0 in every metric, counted in the mean); "
            "tsar_eval.py, given a file of the answered lines alone, would leave them out, as --given-only "
            "does"
        )
    return told + (
        "each scored as an empty answer list, as evaluate.py's calculate_metrics scores one (no hit, its "
        "gold counted in recall); --given-only leaves them out"
    )


def run_family(args: argparse.Namespace, scorer: FamilyScorer, note) -> int:
    """Score a predictions file (the benchmark's official format, JSONL or upstream JSON) with the split's scorer
    (scorer_for's, its options checked by check_family_arguments) and print the result."""
    from swords_metric.official.answers import MAX_ANSWERS_KEPT
    from swords_metric.official.report import format_family_result

    try:
        # With --given-only a TSV may hold any of the split's lines (a partial run), matched as tsar_eval.py does.
        answers = scorer.read(args.predictions, partial=args.given_only)
        split_targets = len(scorer.rows)
        if args.given_only:  # the targets the file answers (a partial run's), the others left out
            scorer, answers = scorer.restricted_to_given(answers)
        # No intervals unless asked for: the official scorers give none (and the figures are theirs either way).
        result = scorer.score(answers, bootstrap=args.bootstrap or 0, seed=args.seed, source=args.predictions)
        if args.given_only:
            result["targets_in_split"] = split_targets  # so that a comparison with the whole split says so
    except MetricInputError as error:
        raise SwordsError(str(error)) from None
    told = missing_note(result, args.predictions, scorer.family)
    if told:
        note(told)
    cut = (result.get("input_notes") or {}).get("targets_past_answer_limit")
    if cut:
        note(
            f"{args.predictions}: {cut:,} targets give more than {MAX_ANSWERS_KEPT:,} distinct answers; their first "
            f"{MAX_ANSWERS_KEPT:,} are kept (the metrics read the first 10)"
        )
    if args.published:
        from swords_metric.published import format_published, published_json
    if args.json:
        if args.published:
            result["published"] = published_json(result, args.dataset, args.split)
        print(json.dumps(result, indent=2, allow_nan=False))
        return 0
    blocks = [format_family_result(result, f"{args.predictions} on {args.dataset} {args.split}", args.k)]
    if args.published:
        blocks.append(format_published(result, args.dataset, args.split, args.predictions))
    print("\n\n".join(blocks))
    return 0
