"""The SWORDS paper's lexical substitution metrics, identical to the official scorers, offline and fast.

>>> from swords_metric import Scorer, scorer_for
>>> scorer = Scorer.from_dataset("swords", "test")
>>> scorer_for("tsar2022_en", "test")                 # any benchmark's scorer: here TSAR-2022's official metrics
>>> scorer.score({"t:…": ["fascinating", "incredible"]})["lenient_a_f@10"]
>>> scorer.score(scorer.read("predictions.jsonl"))   # a file, streamed in bounded memory
>>> prepared = scorer.read("predictions.jsonl", details="details.parquet")   # and what the metric counted
>>> scorer.analyze(prepared)                          # classes, WordNet relations, worst targets: plain data

or through `evaluate`: ``swords_metric.load().compute(predictions=..., references=rows)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from swords_dataset.judgements import ACCEPTABLE_ABOVE, CLASSES, CONCEIVABLE_FROM
from swords_metric.details.explain import Judgement
from swords_metric.errors import MetricInputError
from swords_metric.judgments.agreement import (
    MAX_AGREEMENT_CANDIDATES,
    MIN_AGREEMENT_CANDIDATES,
    accuracy,
    check_agreement,
    cohen_kappa,
    spearman,
)
from swords_metric.judgments.extended import extended_scores
from swords_metric.judgments.files import (
    MAX_JUDGMENTS_BYTES,
    MAX_TASKS_BYTES,
    TASKS_DIGEST,
    read_tasks,
    tasks_digest,
    write_tasks,
)
from swords_metric.judgments.merge import MergedJudgments, merge_judgments
from swords_metric.judgments.names import LLM_PREFIX, check_judge_name, judge_id
from swords_metric.judgments.protocol import (
    CONTROL_ACCURACY,
    INSTRUCTIONS,
    INSTRUCTIONS_VERSION,
    LABELS,
    MAX_CANDIDATES,
)
from swords_metric.judgments.records import Judgments, JudgmentsWriter, judgment_record, read_judgments
from swords_metric.judgments.resume import (
    carried_records,
    judgeable,
    judged_by,
    llm_judge,
    mismatched_record,
    record_key,
    unfinished_tasks,
)
from swords_metric.judgments.tasks import Candidate, Task, TaskSet, make_tasks, tasks_for
from swords_metric.metrics.bootstrap import check_resamples
from swords_metric.official.report import family_metric_keys, format_family_result
from swords_metric.official.scorer import FamilyScorer
from swords_metric.predictions.files import (
    MAX_PREDICTIONS_BYTES,
    MAX_TARGET_CHARS,
    PredictionFile,
    read_predictions,
    write_predictions,
)
from swords_metric.predictions.prepared import PreparedPredictions
from swords_metric.references.metric_family import FAMILIES, metric_family
from swords_metric.references.target_ids import UnknownTargetsError
from swords_metric.report import format_analysis, format_comparison, format_differences, format_result
from swords_metric.scorer import SETTINGS, Scorer, score, scorer_for
from swords_metric.wordnet.lemmatizer import UD_TO_WORDNET, lemmatize

METRIC_DIR = Path(__file__).resolve().parent

# Names whose modules load when first used (details, relations, WordNet's graph, published results), so that a
# plain score does not pay for them: public name -> (module, its name there).
_LAZY = {
    "GOLD_SIZES": ("details.analysis", "GOLD_SIZES"),
    "DETAILS_EXTENSIONS": ("details.columns", "EXTENSIONS"),
    "check_details_path": ("details.place", "check_details_path"),
    "is_details_file": ("details.place", "is_details_file"),
    "Board": ("leaderboard", "Board"),
    "PUBLISHED_METRICS": ("published", "PUBLISHED_METRICS"),
    "PublishedResult": ("published", "PublishedResult"),
    "format_published": ("published", "format_published"),
    "published_papers": ("published", "published_papers"),
    "published_results": ("published", "published_results"),
    "published_systems": ("published", "published_systems"),
    "published_benchmarks": ("published", "published_benchmarks"),
    "SHOWN_METRICS": ("published", "SHOWN_METRICS"),
    "RELATIONS": ("wordnet.relations", "RELATIONS"),
    "WordNetGraph": ("wordnet.graph", "WordNetGraph"),
    "load_wordnet_graph": ("wordnet.graph", "load_wordnet_graph"),
}


if TYPE_CHECKING:  # the names _LAZY loads, as type checkers and the API reference (mkdocstrings) see them
    from swords_metric.details.analysis import GOLD_SIZES
    from swords_metric.details.columns import EXTENSIONS as DETAILS_EXTENSIONS
    from swords_metric.details.place import check_details_path, is_details_file
    from swords_metric.leaderboard import Board
    from swords_metric.published import (
        PUBLISHED_METRICS,
        SHOWN_METRICS,
        PublishedResult,
        format_published,
        published_benchmarks,
        published_papers,
        published_results,
        published_systems,
    )
    from swords_metric.wordnet.graph import WordNetGraph, load_wordnet_graph
    from swords_metric.wordnet.relations import RELATIONS


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    module, attribute = _LAZY[name]
    value = globals()[name] = getattr(importlib.import_module(f".{module}", __name__), attribute)
    return value


def load(**kwargs):
    """The `evaluate` module shipped in this package (works offline, from any directory)."""
    import evaluate

    return evaluate.load(str(METRIC_DIR), **kwargs)


# The public surface: nothing outside swords_metric imports its modules (import-linter checks it).
__all__ = [
    "CONTROL_ACCURACY",
    "MAX_AGREEMENT_CANDIDATES",
    "MIN_AGREEMENT_CANDIDATES",
    "INSTRUCTIONS",
    "INSTRUCTIONS_VERSION",
    "LABELS",
    "MAX_CANDIDATES",
    "MAX_JUDGMENTS_BYTES",
    "MAX_TASKS_BYTES",
    "Candidate",
    "Judgments",
    "JudgmentsWriter",
    "Task",
    "TaskSet",
    "MergedJudgments",
    "accuracy",
    "check_agreement",
    "cohen_kappa",
    "extended_scores",
    "judgment_record",
    "merge_judgments",
    "spearman",
    "make_tasks",
    "read_judgments",
    "read_tasks",
    "TASKS_DIGEST",
    "tasks_digest",
    "tasks_for",
    "write_tasks",
    "LLM_PREFIX",
    "carried_records",
    "check_judge_name",
    "judge_id",
    "judgeable",
    "judged_by",
    "llm_judge",
    "mismatched_record",
    "record_key",
    "unfinished_tasks",
    "ACCEPTABLE_ABOVE",
    "Board",
    "CLASSES",
    "CONCEIVABLE_FROM",
    "DETAILS_EXTENSIONS",
    "FAMILIES",
    "FamilyScorer",
    "GOLD_SIZES",
    "MAX_PREDICTIONS_BYTES",
    "MAX_TARGET_CHARS",
    "METRIC_DIR",
    "PUBLISHED_METRICS",
    "RELATIONS",
    "SETTINGS",
    "SHOWN_METRICS",
    "UD_TO_WORDNET",
    "Judgement",
    "MetricInputError",
    "PredictionFile",
    "PreparedPredictions",
    "PublishedResult",
    "Scorer",
    "UnknownTargetsError",
    "WordNetGraph",
    "check_details_path",
    "check_resamples",
    "family_metric_keys",
    "format_analysis",
    "format_comparison",
    "format_differences",
    "format_family_result",
    "format_published",
    "format_result",
    "is_details_file",
    "lemmatize",
    "load",
    "load_wordnet_graph",
    "metric_family",
    "published_benchmarks",
    "published_papers",
    "published_results",
    "published_systems",
    "read_predictions",
    "score",
    "scorer_for",
    "write_predictions",
]
