"""Judging what the benchmark never judged, by SWORDS's own protocol (the paper's Appendix B). Public names are
re-exported from swords_metric."""
