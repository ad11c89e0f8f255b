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
from swords_metric.errors import MetricInputError
from swords_metric.evaluation import Evaluation, evaluate
from swords_metric.families import Family, family_of
from swords_metric.metrics.bootstrap import check_resamples
from swords_metric.official.scorer import FamilyScorer
from swords_metric.predictions.files import (
    MAX_PREDICTIONS_BYTES,
    MAX_TARGET_CHARS,
    PredictionFile,
    read_predictions,
    write_predictions,
)
from swords_metric.predictions.prepared import PreparedPredictions
from swords_metric.references.target_ids import UnknownTargetsError
from swords_metric.report import format_analysis, format_comparison, format_differences, format_result
from swords_metric.scorer import Scorer, score, scorer_for
from swords_metric.wordnet.lemmatizer import UD_TO_WORDNET, lemmatize

METRIC_DIR = Path(__file__).resolve().parent
metric_family = family_of  # its earlier name


def format_family_result(result: dict, title: str, k: int = 10) -> str:
    """A TSAR-2022 or ProLex result (FamilyScorer.score's) as a text report: its family's (Family.report)."""
    return family_of(result["family"]).report(result, title, k, "generative")


# Names whose modules load when first used (judging, details, relations, WordNet's graph, published results), so
# that a plain score does not pay for them: public name -> (module, its name there).
_LAZY = {
    "Judgement": ("details.explain", "Judgement"),
    **{
        name: ("judgments.agreement", name)
        for name in (
            "MIN_AGREEMENT_CANDIDATES",
            "accuracy",
            "check_agreement",
            "cohen_kappa",
            "spearman",
        )
    },
    "extended_scores": ("judgments.extended", "extended_scores"),
    **{
        name: ("judgments.files", name)
        for name in (
            "MAX_JUDGMENTS_BYTES",
            "MAX_TASKS_BYTES",
            "TASKS_DIGEST",
            "read_tasks",
            "tasks_digest",
            "write_tasks",
        )
    },
    **{name: ("judgments.names", name) for name in ("LLM_PREFIX", "check_judge_name", "judge_id")},
    **{name: ("judgments.merge", name) for name in ("MergedJudgments", "merge_judgments")},
    **{
        name: ("judgments.protocol", name)
        for name in ("INSTRUCTIONS", "INSTRUCTIONS_VERSION", "LABELS", "MAX_CANDIDATES")
    },
    **{
        name: ("judgments.records", name)
        for name in ("Judgments", "JudgmentsWriter", "judgment_record", "read_judgments")
    },
    **{
        name: ("judgments.records", name)
        for name in (
            "carried_records",
            "judgeable",
            "judged_by",
            "llm_judge",
            "mismatched_record",
            "unfinished_tasks",
        )
    },
    **{name: ("judgments.tasks", name) for name in ("Candidate", "Task", "TaskSet", "make_tasks", "tasks_for")},
    "check_details_path": ("details.place", "check_details_path"),
    "is_details_file": ("details.place", "is_details_file"),
    "Board": ("leaderboard", "Board"),
    "published_papers": ("published", "published_papers"),
    "published_results": ("published", "published_results"),
    "published_systems": ("published", "published_systems"),
    "published_benchmarks": ("published", "published_benchmarks"),
    "RELATIONS": ("wordnet.relations", "RELATIONS"),
    "WordNetGraph": ("wordnet.graph", "WordNetGraph"),
    "load_wordnet_graph": ("wordnet.graph", "load_wordnet_graph"),
}


if TYPE_CHECKING:  # the names _LAZY loads, as type checkers and the API reference (mkdocstrings) see them
    from swords_metric.details.explain import Judgement
    from swords_metric.details.place import check_details_path, is_details_file
    from swords_metric.judgments.agreement import (
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
        INSTRUCTIONS,
        INSTRUCTIONS_VERSION,
        LABELS,
        MAX_CANDIDATES,
    )
    from swords_metric.judgments.records import (
        Judgments,
        JudgmentsWriter,
        carried_records,
        judgeable,
        judged_by,
        judgment_record,
        llm_judge,
        mismatched_record,
        read_judgments,
        unfinished_tasks,
    )
    from swords_metric.judgments.tasks import Candidate, Task, TaskSet, make_tasks, tasks_for
    from swords_metric.leaderboard import Board
    from swords_metric.published import (
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
    "evaluate",
    "extended_scores",
    "family_of",
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
    "unfinished_tasks",
    "ACCEPTABLE_ABOVE",
    "Board",
    "Evaluation",
    "Family",
    "CLASSES",
    "CONCEIVABLE_FROM",
    "FamilyScorer",
    "MAX_PREDICTIONS_BYTES",
    "MAX_TARGET_CHARS",
    "RELATIONS",
    "UD_TO_WORDNET",
    "Judgement",
    "MetricInputError",
    "PredictionFile",
    "PreparedPredictions",
    "Scorer",
    "UnknownTargetsError",
    "WordNetGraph",
    "check_details_path",
    "check_resamples",
    "format_analysis",
    "format_comparison",
    "format_differences",
    "format_family_result",
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
