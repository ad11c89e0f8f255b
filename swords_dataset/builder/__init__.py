"""`swords data build`: the pinned raw sources (sources.py) read into rows with upstream's ids (readers/, rows.py),
written into a folder the build owns (folder.py), all or nothing (pipeline.py)."""
