"""Benchmarks scored by their own official metrics (TSAR-2022, ProLex): their formats, answers and scorer."""
