"""One reader per benchmark's raw files (swords.py, coinco.py, semeval07.py, prolex.py, tsar2022.py), each turning
them into rows of the shared schema (swords_dataset.schema); what several share is in row_fields.py and
source_text.py."""
