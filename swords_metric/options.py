"""The evaluation's options, checked once, from one table, for every surface: `swords evaluate` (style "cli"), the
Python API ("api") and the Space ("space"). An option a family's metrics do not take is one line worded for the
surface (the family says why: Family.refusal)."""

from __future__ import annotations

import numbers
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from swords_metric.errors import MetricInputError, shown

SETTINGS = ("generative", "ranking")
# The largest tasks and judgments files read (each): SWORDS test's every unjudged top-10 substitute of a run, judged by
# ten people, is about 12 MB (swords_metric/judgments/files.py reads them).
MAX_TASKS_BYTES = MAX_JUDGMENTS_BYTES = 32 << 20
# What an option of a family with no per-substitute details (TSAR-2022, ProLex) is told on the command line.
_SWORDS_ONLY = (
    "{flag} belongs to the SWORDS metrics; {dataset} is scored with the {family} metrics, as its official scorer "
    "scores it (no per-substitute details, no summary)"
)


def numpy_types(*names: str) -> tuple[type, ...]:
    """numpy's types of these names, or none if numpy is not imported: a numpy value can only come from an imported
    numpy, and a plain evaluation should not pay numpy's import to check for one."""
    numpy = sys.modules.get("numpy")
    return () if numpy is None else tuple(getattr(numpy, name) for name in names)


def check_k(k: object) -> int:
    """The cut-off k as an int of at least 1."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        raise MetricInputError(f"k must be a positive integer, got {shown(k)}")
    return int(k)


def check_flag(value: object, name: str) -> bool:
    """A yes/no option: only True or False (a string such as "no" would otherwise count as True)."""
    if not isinstance(value, (bool, *numpy_types("bool_"))):
        raise MetricInputError(f"{name} must be True or False, got {shown(value)}")
    return bool(value)


def check_split_name(split: object) -> str | None:
    """A split's name for the signature: a string, or None (the shipped split the rows are, else 'custom')."""
    if split is not None and not isinstance(split, str):
        raise MetricInputError(f"split must be a split's name (a string such as 'test') or None, got {shown(split)}")
    return split


def check_setting(setting: object) -> str:
    """The setting: generative or ranking."""
    if setting not in SETTINGS:
        raise MetricInputError(f"setting must be one of {', '.join(SETTINGS)}, got {shown(setting)}")
    return str(setting)


@dataclass(frozen=True)
class Option:
    """One option as each surface names it, and how each words a family's refusal of it ({flag}, {name},
    {value}, {value!r}, {family}, {dataset}, {reason}); a surface without a wording does not offer the option."""

    name: str  # the Python API's keyword, and what Family.refusal is asked about
    flag: str  # swords evaluate's
    refused: Mapping[str, str]


# In the order refusals are checked: the options only the SWORDS metrics use, then the setting and k.
OPTIONS = {
    option.name: option
    for option in (
        Option("details", "--details", {"cli": _SWORDS_ONLY}),
        Option("force", "--force", {"cli": _SWORDS_ONLY}),
        Option("relations", "--relations", {"cli": _SWORDS_ONLY}),
        Option("no_analysis", "--no-analysis", {"cli": _SWORDS_ONLY}),
        Option("worst", "--worst", {"cli": _SWORDS_ONLY}),
        Option("differences", "--differences", {"cli": _SWORDS_ONLY}),
        Option(
            "include_problematic",
            "--include-problematic",
            {"cli": _SWORDS_ONLY, "api": "include_problematic: only CoInCo flags problematic targets, not {family}"},
        ),
        Option(
            "setting",
            "--setting",
            {
                "cli": "--setting {value}: {reason}; leave --setting out",
                "api": "setting {value!r}: {reason}; the ranking setting is the SWORDS metrics'",
                "space": "{dataset} is scored with its official metrics, on a system's ranked answers: choose the "
                "generative setting (the ranking setting is the SWORDS metrics').",
            },
        ),
        Option("k", "--k", {"cli": "--k {value}: {reason}; leave --k out", "api": "k={value}: {reason}; leave k out"}),
    )
}


def check_family_options(family, style: str, dataset: object = None, **given: object) -> None:
    """Refuse, in one line worded for `style`, an option given that `family` does not take, in the table's order."""
    for name, option in OPTIONS.items():
        value = given.get(name)
        if value is None or value is False or style not in option.refused:  # not given, or the default
            continue
        reason = family.refusal(name, value)
        if reason:
            text = option.refused[style].format(
                flag=option.flag, name=name, value=value, family=family, dataset=dataset or family, reason=reason
            )
            raise MetricInputError(text)


def check_scorer_options(family, k: object = 10, setting: object = "generative", include_problematic=False) -> int:
    """The Python API's scorer options for a family's metrics, before any work. Returns k."""
    k, include_problematic = check_k(k), check_flag(include_problematic, "include_problematic")
    check_family_options(family, "api", setting=setting, include_problematic=include_problematic, k=k)
    return k


# `swords evaluate`'s options that do not go together, or that would be ignored: (when, given its arguments and
# the family, the line), in order.
CLI_RULES = (
    (lambda a, f: a.published and a.compare, "--published goes with --predictions (a single system), not --compare"),
    (
        lambda a, f: a.given_only and a.compare,
        "--given-only goes with --predictions: --compare scores both files on every target",
    ),
    (
        lambda a, f: a.published and f.refusal("published", a.k),
        "--published shows F@10 as the papers report it; it goes with --k 10, not --k {k}",
    ),
    (
        lambda a, f: a.differences is not None and not a.compare,
        "--differences goes with --compare (the targets where two systems differ most)",
    ),
    (
        lambda a, f: a.worst is not None and (a.compare or a.no_analysis),
        "--worst sets the summary of what the system proposed; it does not go with {other}",
    ),
    (
        lambda a, f: a.relations and (a.compare or a.no_analysis),
        "--relations sets the summary of what the system proposed; it does not go with {other}",
    ),
    (
        lambda a, f: a.no_analysis and a.compare,
        "--no-analysis goes with --predictions: --compare prints no summary to leave out",
    ),
    (
        lambda a, f: a.force and not a.details,
        "--force goes with --details (it replaces a details file that changed since it was written)",
    ),
)


def check_cli_combinations(args, chosen) -> None:
    """swords evaluate's options that do not go together (CLI_RULES; `chosen`: the benchmark's family)."""
    other = "--compare (which prints no summary)" if args.compare else "--no-analysis"
    for applies, line in CLI_RULES:
        if applies(args, chosen):
            raise MetricInputError(line.format(other=other, k=args.k))
