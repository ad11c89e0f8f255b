"""A system's predictions: prediction files read in bounded memory and written (files.py, over json_stream.py and
bounded_text.py), and predictions prepared against a scorer's references (shipped.py)."""
