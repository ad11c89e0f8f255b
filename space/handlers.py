"""Compatibility only: the names that files outside the Space still import from here (tests/metric,
tests/baselines, benchmarks/bench_space.py). The handlers live with their tab in tabs/*.py; new code imports
them from there."""

from __future__ import annotations

from .scoring import scorer_for
from .tabs.score import score_predictions
from .tabs.substitute import substitute, unavailable_note

__all__ = ["score_predictions", "scorer_for", "substitute", "unavailable_note"]
