"""`swords evaluate --help` reads by group, as `swords run --help` does: what to score, how, what to write, the
judgments; and it says the figures' unit."""

from __future__ import annotations

import re

from ..conftest import run_swords

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
