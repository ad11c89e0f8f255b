"""Exact, offline re-implementations of the metrics used to score lexical substitution benchmarks."""
