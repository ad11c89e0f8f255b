"""The neural baselines: masked language models (masked_lm.py) and embedding rerankers (embedding.py), over the
contextual encoder (encoder.py, shared_context.py) and model loading (contextual.py)."""
