"""One reader per benchmark's raw files, each turning them into rows of the shared schema (swords_dataset.schema);
what several share is in row_fields.py."""
