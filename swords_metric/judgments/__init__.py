"""Judging what the benchmark never judged, by SWORDS's own protocol (the paper's Appendix B): the protocol's words
(protocol.py), tasks from a run (tasks.py), the tasks and judgments files (files.py), merging several judges' files
with SWORDS's quality filter (merge.py), the extended gold and its scores (extended.py), and agreement figures
(agreement.py). Public names are re-exported from swords_metric."""
