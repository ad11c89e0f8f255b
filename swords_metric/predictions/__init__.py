"""A system's predictions: items read in every accepted form, files read in bounded memory, prepared lists."""
