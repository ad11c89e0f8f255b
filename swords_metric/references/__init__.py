"""A benchmark split as the metric holds it: its rows and prepared references (split.py), one target's reference
prepared as the official scorers prepare it (reference.py), the references prepared when the dataset was built and
shipped beside it (shipped.py), which reference a prediction is for (target_ids.py), a split's targets as scored
(scored.py)."""
