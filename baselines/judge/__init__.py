"""`swords judge`: tasks in SWORDS's form from a run (the metric's code makes them), an LLM that judges them, and
the measure of how far such a judge agrees with SWORDS's annotators (validate.py), beside the human ceiling.

The protocol's words and constants belong to swords_metric (judgments/protocol.py); this package only asks a
model and writes what it answered, in the judgments file's format that swords_metric reads and merges.
"""
