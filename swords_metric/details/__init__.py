"""What the metric counted: details files written as predictions are prepared (writer.py, stream.py, formats.py,
place.py), their records explained (explain.py), and a summary of what a system proposed (analysis.py)."""
