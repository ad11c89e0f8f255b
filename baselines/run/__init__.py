"""Running a system over a benchmark split: resumable, checkpointed per target (runner.py); the run's files and
where they may go (files.py), and which of them a run wrote and may replace (ownership.py)."""
