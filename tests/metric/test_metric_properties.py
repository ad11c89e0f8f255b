"""swords_metric's properties, checked with hypothesis on the first 40 SWORDS test targets: permuting the targets
changes no number, and a substitute outside the reference never raises strict precision."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swords_metric import Scorer

SMALL = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def small_rows(swords_test_rows):
    return swords_test_rows[:40]


@pytest.mark.slow  # 4.2 s on two cores (the quick lane, 2026-11-28)
@SMALL
@given(data=st.data())
def test_permuting_targets_changes_nothing(small_rows, data):
    rng_order = data.draw(st.permutations(range(len(small_rows))))
    predictions = {row["id"]: [s["substitute"] for s in row["substitutes"][::3]] for row in small_rows}
    base = Scorer(small_rows).score(predictions, by_pos=False)
    shuffled = Scorer([small_rows[i] for i in rng_order]).score(predictions, by_pos=False)
    for name, value in base.items():
        if isinstance(value, float):
            assert math.isclose(value, shuffled[name], abs_tol=1e-9), name


@SMALL
@given(data=st.data())
def test_adding_a_substitute_outside_the_reference_never_raises_strict_precision(small_rows, data):
    scorer = Scorer(small_rows)
    row = data.draw(st.sampled_from(small_rows))
    pool = [s["substitute"] for s in row["substitutes"]]
    chosen = data.draw(st.lists(st.sampled_from(pool), max_size=12, unique=True))
    position = data.draw(st.integers(0, len(chosen)))
    outsider = "zzxqv" + data.draw(st.text(alphabet="abcdefgh", min_size=1, max_size=6))
    before = scorer.score({row["id"]: chosen}, by_pos=False)
    after = scorer.score({row["id"]: chosen[:position] + [outsider] + chosen[position:]}, by_pos=False)
    for name in ("strict_a_p@10", "strict_c_p@10", "strict_c_p@1"):
        assert after[name] <= before[name] + 1e-9, name
