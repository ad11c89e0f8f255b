"""The SWORDS paper's lexical substitution metrics, identical to the official scorers, offline and fast.

>>> from swords_metric import Scorer
>>> scorer = Scorer.from_dataset("swords", "test")
>>> scorer.score({"t:…": ["fascinating", "incredible"]})["lenient_a_f@10"]
>>> scorer.score(scorer.read("predictions.jsonl"))   # a file, streamed in bounded memory

or through `evaluate`: ``swords_metric.load().compute(predictions=..., references=rows)``.
"""

from __future__ import annotations

from pathlib import Path

from .core import MetricInputError
from .lemmatizer import lemmatize
from .predictions import MAX_PREDICTIONS_BYTES, MAX_TARGET_CHARS, PredictionFile, read_predictions, write_predictions
from .scorer import PreparedPredictions, Scorer, score

METRIC_DIR = Path(__file__).resolve().parent


def load(**kwargs):
    """The `evaluate` module shipped in this package (works offline, from any directory)."""
    import evaluate

    return evaluate.load(str(METRIC_DIR), **kwargs)


__all__ = ["MAX_PREDICTIONS_BYTES", "MAX_TARGET_CHARS", "METRIC_DIR", "MetricInputError", "PredictionFile",
           "PreparedPredictions", "Scorer", "lemmatize", "load", "read_predictions", "score", "write_predictions"]
