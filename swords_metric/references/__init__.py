"""A benchmark split as the metric holds it: its rows and prepared references, as scored (split.py), one target's
reference prepared as the official scorers prepare it (reference.py), the references shipped with the dataset
(shipped.py), and which reference a prediction is for (target_ids.py)."""
