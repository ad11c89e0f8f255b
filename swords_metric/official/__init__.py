"""Benchmarks scored by their own official metrics: TSAR-2022 (tsar2022.py) and ProLex (prolex.py), their submission
formats (formats.py, answers.py), their scorer (scorer.py), bootstrap (bootstrap.py), their report (report.py) and
`swords evaluate` on them (cli.py)."""
