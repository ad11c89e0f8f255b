"""The SWORDS paper's lexical substitution metrics, identical to the official scorers, offline and fast.

>>> from swords_metric import Scorer, evaluate, scorer_for
>>> scorer = scorer_for("swords", "test")             # any benchmark's scorer (TSAR-2022, ProLex: their own)
>>> scorer.score({"t:…": ["fascinating", "incredible"]})["lenient_a_f@10"]
>>> evaluate("predictions.jsonl", dataset="swords", split="test").text()   # what `swords evaluate` prints
>>> prepared = scorer.read("predictions.jsonl", details="details.parquet")   # and what the metric counted
>>> scorer.analyze(prepared)                          # classes, WordNet relations, worst targets: plain data

or through `evaluate`: ``swords_metric.load().compute(predictions=..., references=rows)``. Every public name loads
its module when first used, so that a command imports only what it runs.
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from typing import TYPE_CHECKING

METRIC_DIR = Path(__file__).resolve().parent

# The public surface: these imports, which type checkers and the API reference (mkdocstrings) read, and which
# _module_of reads for the lazy loading below (nothing outside swords_metric imports its modules: lint-imports).
if TYPE_CHECKING:
    # fmt: off
    from swords_dataset.judgements import ACCEPTABLE_ABOVE, CLASSES, CONCEIVABLE_FROM  # noqa: F401, I001
    from swords_metric.details.explain import Judgement  # noqa: F401
    from swords_metric.details.place import check_details_path, is_details_file  # noqa: F401
    from swords_metric.errors import MetricInputError  # noqa: F401
    from swords_metric.evaluation import Evaluation, evaluate  # noqa: F401
    from swords_metric.families import Family, family_of  # noqa: F401
    from swords_metric.judgments.agreement import (  # noqa: F401
        MIN_AGREEMENT_CANDIDATES, accuracy, check_agreement, cohen_kappa, spearman,
    )
    from swords_metric.judgments.extended import extended_scores  # noqa: F401
    from swords_metric.judgments.files import (  # noqa: F401
        MAX_JUDGMENTS_BYTES, MAX_TASKS_BYTES, TASKS_DIGEST, read_tasks, tasks_digest, write_tasks,
    )
    from swords_metric.judgments.merge import MergedJudgments, merge_judgments  # noqa: F401
    from swords_metric.judgments.names import LLM_PREFIX, check_judge_name, judge_id  # noqa: F401
    from swords_metric.judgments.protocol import (  # noqa: F401
        INSTRUCTIONS, INSTRUCTIONS_VERSION, LABELS, MAX_CANDIDATES,
    )
    from swords_metric.judgments.records import (  # noqa: F401
        Judgments, JudgmentsWriter, carried_records, judgeable, judged_by, judgment_record, llm_judge,
        mismatched_record, read_judgments, unfinished_tasks,
    )
    from swords_metric.judgments.tasks import Candidate, Task, TaskSet, make_tasks, tasks_for  # noqa: F401
    from swords_metric.leaderboard import Board  # noqa: F401
    from swords_metric.metrics.bootstrap import check_resamples  # noqa: F401
    from swords_metric.official.scorer import FamilyScorer  # noqa: F401
    from swords_metric.predictions.files import (  # noqa: F401
        MAX_PREDICTIONS_BYTES, MAX_TARGET_CHARS, PredictionFile, read_predictions, write_predictions,
    )
    from swords_metric.predictions.prepared import PreparedPredictions  # noqa: F401
    from swords_metric.published import (  # noqa: F401
        published_benchmarks, published_papers, published_results, published_systems,
    )
    from swords_metric.references.target_ids import UnknownTargetsError  # noqa: F401
    from swords_metric.report import (  # noqa: F401
        DUPLICATES_MEANT, SWORDS_DEFINED, format_analysis, format_comparison, format_differences, format_result,
    )
    from swords_metric.scorer import Scorer, score, scorer_for  # noqa: F401
    from swords_metric.wordnet.graph import WordNetGraph, load_wordnet_graph  # noqa: F401
    from swords_metric.wordnet.lemmatizer import UD_TO_WORDNET, lemmatize  # noqa: F401
    from swords_metric.wordnet.relations import RELATIONS  # noqa: F401
    # fmt: on


@functools.cache
def _module_of() -> dict[str, str]:
    """name -> the module it is loaded from, read from the TYPE_CHECKING block above (one list, not two), when a
    name is first asked for (parsing this file is a hundredth of a plain `swords evaluate`)."""
    import ast

    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    return {alias.name: node.module for node in block.body for alias in node.names}


def __getattr__(name: str):
    if name == "__all__":
        return sorted([*_module_of(), "format_family_result", "load", "metric_family"])
    if name not in _module_of():
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(importlib.import_module(_module_of()[name]), name)
    return value


def load(**kwargs):
    """The `evaluate` module shipped in this package (works offline, from any directory)."""
    import evaluate

    return evaluate.load(str(METRIC_DIR), **kwargs)


def metric_family(name: object):
    """The metric family of a config or benchmark name (its earlier name: family_of)."""
    return __getattr__("family_of")(name)


def format_family_result(result: dict, title: str, k: int = 10) -> str:
    """A TSAR-2022 or ProLex result (FamilyScorer.score's) as a text report: its family's (Family.report)."""
    return __getattr__("family_of")(result["family"]).report(result, title, k, "generative")
