"""The neural baselines: masked language models (masked_lm.py) and embedding rerankers (embedding.py), over the
contextual encoder (encoder.py; its fast pass shared_context.py), models found and loaded
offline (models.py) and contexts cut into windows of word pieces (windows.py)."""
