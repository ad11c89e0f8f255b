"""What the metric counted: its records and a substitute's judgement (explain.py), the files that hold them (what a
file holds and its writer formats.py, streamed as predictions are prepared writer.py, where one may go place.py),
and a summary of what a system proposed (analysis.py)."""
