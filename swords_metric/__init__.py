"""The SWORDS paper's lexical substitution metrics, identical to the official scorers, offline and fast.

>>> from swords_metric import Scorer
>>> scorer = Scorer.from_dataset("swords", "test")
>>> scorer.score({"t:…": ["fascinating", "incredible"]})["lenient_a_f@10"]
>>> scorer.score(scorer.read("predictions.jsonl"))   # a file, streamed in bounded memory

or through `evaluate`: ``swords_metric.load().compute(predictions=..., references=rows)``.
"""

from __future__ import annotations

from pathlib import Path

from swords_dataset.judgements import ACCEPTABLE_ABOVE, CLASSES, CONCEIVABLE_FROM

from .alignment import UnknownTargetsError
from .bootstrap import check_resamples
from .core import MetricInputError
from .lemmatizer import UD_TO_WORDNET, lemmatize
from .predictions import MAX_PREDICTIONS_BYTES, MAX_TARGET_CHARS, PredictionFile, read_predictions, write_predictions
from .report import format_comparison, format_result
from .scorer import SETTINGS, Judgement, PreparedPredictions, Scorer, score
from .wordnet_graph import WordNetGraph, load_wordnet_graph

METRIC_DIR = Path(__file__).resolve().parent


def load(**kwargs):
    """The `evaluate` module shipped in this package (works offline, from any directory)."""
    import evaluate

    return evaluate.load(str(METRIC_DIR), **kwargs)


# The public surface: nothing outside swords_metric imports its modules (import-linter checks it).
__all__ = [
    "ACCEPTABLE_ABOVE", "CLASSES", "CONCEIVABLE_FROM", "MAX_PREDICTIONS_BYTES", "MAX_TARGET_CHARS", "METRIC_DIR",
    "SETTINGS", "UD_TO_WORDNET", "Judgement", "MetricInputError", "PredictionFile", "PreparedPredictions", "Scorer",
    "UnknownTargetsError", "WordNetGraph", "check_resamples", "format_comparison", "format_result", "lemmatize", "load",
    "load_wordnet_graph", "read_predictions", "score", "write_predictions",
]
