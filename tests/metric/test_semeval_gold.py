"""SemEval-2007's gold as its Perl scorer reads it (swords_metric/metrics/semeval.py): a plain lemma is read whole
and as written, so its reading skips writing and parsing the scorer's gold line. Over every reference of the
benchmarks the metric scores, the short reading equals the line's reading (the Perl scorer itself is run beside
the metric in test_metric_parity_*.py)."""

from __future__ import annotations

import re

import pytest

import swords_dataset
from swords_metric import scorer_for
from swords_metric.metrics import semeval

NEVER = re.compile(r"(?!)")  # no lemma is plain: every gold is read from its written line


@pytest.mark.slow  # 5 s on two cores (every SWORDS-family split's references)
def test_the_plain_reading_is_the_lines_reading_for_every_reference(monkeypatch):
    references = [
        reference
        for config, splits in swords_dataset.CONFIGS.items()
        if not config.startswith(("tsar2022", "prolex"))
        for split in splits
        for reference in scorer_for(config, split, include_problematic=True).references
        if reference is not None
    ]
    plain = [semeval.semeval_gold(reference) for reference in references]
    monkeypatch.setattr(semeval, "_PLAIN_LINES", NEVER)
    assert plain == [semeval.semeval_gold(reference) for reference in references]
    assert len(references) > 18_000


def test_a_lemma_the_patterns_do_not_read_whole_is_read_from_the_line():
    """A single letter, a tab, a proper-noun marker: the line's patterns decide, as the Perl scorer's do."""
    from swords_metric.references.reference import Reference

    reference = Reference(
        id="t", pos="NOUN", target_lemma="x", lemmas=("a", "big\tdeal", "upnorth", "run"), positives=(3, 2, 2, 1),
        totals=(3, 3, 3, 3), lexsubgen_gold=(), lexsubgen_target="x",
    )  # fmt: skip
    gold = semeval.semeval_gold(reference)
    assert gold.norms == {"big\tdeal": 2 / 3, "run": 1 / 3} and gold.mode == "big\tdeal"
