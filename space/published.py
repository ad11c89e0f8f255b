"""Published figures shown beside measured ones, with where they come from.

Only figures the project's own tests reproduce are listed (tests/baselines/test_runner_oracles.py,
tests/metric/test_metric.py), so every row here is one we can stand behind.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CITATION = (
    "Lee et al. (2021), SWORDS: A Benchmark for Lexical Substitution with Improved Data Coverage and Quality, "
    "NAACL-HLT, Table 4 (SWORDS v1.1 test, generative setting, lenient F@10 against acceptable and conceivable "
    "references)"
)
SHORT_SOURCE = "SWORDS paper, Table 4"


@dataclass(frozen=True)
class Published:
    system: str  # the registry name of the baseline that reproduces it
    label: str  # as the paper names it
    config: str
    split: str
    metrics: dict[str, float] = field(default_factory=dict)  # metric key (as Scorer names it) -> percent


TABLE_4: tuple[Published, ...] = (
    Published("humans", "Humans", "swords_test_subset", "test", {"lenient_c_f@10": 77.9}),
    Published("coinco-oracle", "CoInCo (oracle)", "swords", "test", {"lenient_a_f@10": 34.1, "lenient_c_f@10": 63.6}),
    Published(
        "thesaurus-oracle", "Thesaurus (oracle)", "swords", "test", {"lenient_a_f@10": 12.0, "lenient_c_f@10": 44.9}
    ),
)
