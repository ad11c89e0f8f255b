"""`swords evaluate --help` reads by group, as `swords run --help` does: what to score, how, what to write, the
judgments; and it says the figures' unit."""

from __future__ import annotations

import re

from ..conftest import REPO_ROOT, run_swords

GROUPS = {
    "what to score": ["--dataset", "--split", "--predictions", "--compare", "--given-only", "--include-problematic"],
    "how to score": ["--setting", "--k", "--bootstrap", "--seed"],
    "what to write": ["--json", "--published", "--worst", "--differences", "--relations", "--no-analysis", "--details"]
    + ["--force"],
    "judgments (SWORDS: a gold extended by new judgements)": ["--judgments"],
}


def test_the_options_are_grouped_and_the_unit_is_said():
    done = run_swords("evaluate", "--help")
    assert done.returncode == 0
    sections = re.split(r"\n\n(?=\S[^\n]*:\n)", done.stdout)
    found = {section.split(":\n")[0]: re.findall(r"^  (--[a-z-]+)", section, re.M) for section in sections[1:]}
    assert found == {"options": [], **GROUPS}
    assert "percentages, as the SWORDS paper reports them" in " ".join(done.stdout.split())


def test_the_metric_says_its_figures_are_percentages_wherever_a_reader_meets_them():
    import swords_metric
    from swords_metric.swords_metric import _DESCRIPTION, SwordsMetric

    card = (REPO_ROOT / "swords_metric" / "README.md").read_text(encoding="utf-8")
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    for where, text in {
        "the evaluate module's description": _DESCRIPTION,
        "compute()'s docstring": SwordsMetric.compute.__doc__,
        "the metric card": card,
        "the README": readme,
    }.items():
        assert "percent" in " ".join(text.split()), where
    # The README's example prints its figure with its unit, from a real system's file, not a constant guess.
    assert "f\"lenient F@10, acceptable: {results['lenient_a_f@10']:.2f} %\"" in readme
    assert "read_predictions(" in readme and swords_metric.read_predictions
