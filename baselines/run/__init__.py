"""Running a system over a benchmark split: resumable, checkpointed per target (runner.py), and the run's files,
where they may go and which of them a run may replace (files.py)."""
