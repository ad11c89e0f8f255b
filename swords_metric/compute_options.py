"""compute()'s options (the `evaluate` module's), checked before anything is stored or computed."""

from __future__ import annotations

from swords_metric.arguments import check_split_name
from swords_metric.errors import MetricInputError, shown
from swords_metric.judgments.extended import check_judgments_option
from swords_metric.metrics.bootstrap import check_resamples, check_seed
from swords_metric.official.scorer import check_family_options
from swords_metric.scorer import SETTINGS

COMPUTE_OPTIONS = ("k", "bootstrap", "seed", "split", "include_problematic", "setting", "judgments")


def check_compute_options(options: dict, family: str, benchmark: str | None) -> None:
    """compute()'s options, checked before anything is stored or computed (as `swords evaluate` checks its own)."""
    for name in options:
        if name not in COMPUTE_OPTIONS:
            raise MetricInputError(f"compute: no option {shown(name)}; its options are {', '.join(COMPUTE_OPTIONS)}")
    setting = options.get("setting", "generative")
    if setting not in SETTINGS:
        raise MetricInputError(f"setting must be one of {', '.join(SETTINGS)}, got {shown(setting)}")
    check_family_options(family, options.get("k", 10), setting, options.get("include_problematic", False))
    check_resamples(options.get("bootstrap", 0))
    check_seed(options.get("seed", 0))
    check_split_name(options.get("split"))
    check_judgments_option(options.get("judgments"), family, benchmark)


def benchmark_of(rows) -> str | None:
    """The benchmark a split's first row names (CoInCo's gold cannot take judgments), or None."""
    try:
        return rows[0]["benchmark"]
    except (KeyError, IndexError, TypeError):
        return None
