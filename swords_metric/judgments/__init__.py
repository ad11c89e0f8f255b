"""Judging what the benchmark never judged, by SWORDS's own protocol (the paper's Appendix B): the protocol's words
(protocol.py), which gold judgements can extend (judged.py), tasks from a run (tasks.py), the tasks file (files.py),
the judgments records and resuming a session from them (records.py), their merge with SWORDS's quality filter
(merge.py), the extended gold, its scores and report (extended.py), agreement figures (agreement.py) and judges'
names (names.py). Public names are re-exported from swords_metric."""
