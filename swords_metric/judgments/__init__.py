"""Judging what the benchmark never judged, by SWORDS's own protocol (the paper's Appendix B): the protocol's words
(protocol.py), which gold judgements can extend and what the judging code reads of a Scorer (judged.py), tasks from a
run (tasks.py), the tasks file (files.py) and the judgments file's records (records.py), merging judgments files
checked against their tasks (merge.py) with SWORDS's quality filter (quality.py), the extended gold and its scores
(extended.py), and agreement figures (agreement.py). Public names are re-exported from swords_metric."""
