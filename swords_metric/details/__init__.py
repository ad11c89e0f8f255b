"""What the metric counted: its records, the files that hold them, and a summary of what a system proposed."""
