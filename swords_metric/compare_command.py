"""`swords evaluate --compare`: the paired bootstrap test between two predictions files, for every metric family
(the scorer's `compare`, over the one resampler), printed in one layout; the SWORDS metrics add the targets where
the systems differ most, and a comparison details file."""

from __future__ import annotations

import argparse
import json

from swords_metric.references.metric_family import Family

DIFFERENCES = 10  # --differences when not given


def _compare(scorer, family: Family, args: argparse.Namespace, note, said_where) -> dict:
    from swords_metric.scorer import MIN_PAIRED_RESAMPLES, check_resamples

    check_resamples(args.bootstrap, MIN_PAIRED_RESAMPLES, "the paired test's --bootstrap")  # before reading
    # A TSAR-2022 file may hold part of the split's lines, in any order, as tsar_eval.py reads it: the instances it
    # leaves out are scored without answers, as a JSONL file's missing targets are (the coverage note says so).
    reading = {"partial": True} if family.scores_given_lines else {}
    a, b = (scorer.read(path, **reading) for path in args.compare)
    result = scorer.compare(a, b, bootstrap=args.bootstrap, seed=args.seed, sources=tuple(args.compare))
    coverage = result["coverage"]
    if not coverage["a"] == coverage["b"] == coverage["both"]:
        note(
            f"the files cover different targets ({args.compare[0]}: {coverage['a']:,}, {args.compare[1]}: "
            f"{coverage['b']:,}, both: {coverage['both']:,} of {coverage['targets_scored']:,}); a missing target is "
            "an empty answer"
        )
    if family.has_details:  # the targets where the systems differ most, by the SWORDS metrics' per-target figures
        differences = DIFFERENCES if args.differences is None else args.differences
        result["differences"] = scorer.differences(a, b, n=differences)
    if args.details:
        records = scorer.write_comparison(args.details_place, a, b, sources=tuple(args.compare))
        said_where(args.details_place.path, records)
    return result


def run_compare(scorer, family: Family, args: argparse.Namespace, note, said_where) -> int:
    """Compare the two files of --compare (their options checked by swords evaluate) and print the result."""
    from swords_metric.report import format_comparison, format_differences

    result = _compare(scorer, family, args, note, said_where)
    if args.json:
        print(json.dumps(result, indent=2, allow_nan=False))  # every figure is finite
        return 0
    blocks = [format_comparison(result, family.reader)]
    blocks += [format_differences(result["differences"], scorer.k)] if "differences" in result else []
    print("\n\n".join(blocks))
    return 0
