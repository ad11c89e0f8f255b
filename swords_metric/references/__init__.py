"""A benchmark split as the metric holds it: its rows and prepared references (split.py), the references
prepared when the dataset was built and shipped beside it (shipped.py), and which reference a prediction is for
(target_ids.py)."""
