"""A system's predictions: one target's items read in every accepted form (items.py) and ranked as the upstream
scorer ranks them (lemmatized.py); prediction files read in bounded memory and written (files.py, over
bounded_text.py); and predictions prepared against a scorer's references (prepared.py)."""
