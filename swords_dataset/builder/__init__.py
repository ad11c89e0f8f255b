"""`swords data build`: the raw upstream sources (sources.py, pinned by sha256), read by each benchmark's reader
(readers/) into rows with upstream's ids (rows.py, upstream_ids.py), written as Parquet and the card into a folder
the build owns (folder.py), all or nothing (pipeline.py)."""
