"""What the metric counted: details files written as predictions are prepared (writer.py, stream.py; formats.py
writes each format, columns.py says what a file holds, cells.py each value's text; place.py where a file may go),
their records and a substitute's judgement (explain.py), and a summary of what a system proposed (analysis.py)."""
