"""`evaluate` module: the SWORDS paper's lexical substitution metrics. A thin adapter over swords_metric."""

import json
import re
from collections.abc import Iterable, Mapping, Sequence

import datasets
import evaluate
import numpy as np

from swords_dataset.schema import FEATURES
from swords_metric import evaluation
from swords_metric.errors import MetricInputError, shown
from swords_metric.families import SWORDS, Family, refuse_row, rows_family
from swords_metric.predictions.items import normalize_prediction_items
from swords_metric.references.split import (
    PROVENANCE_FIELDS,
    REFERENCE_COLUMNS,
    SUBSTITUTE_FIELDS,
    family_reference_view,
    reference_view,
)
from swords_metric.references.target_ids import UPSTREAM_IDS, TargetIndex

_CITATION = """\
@inproceedings{lee-etal-2021-swords,
    title = "Swords: A Benchmark for Lexical Substitution with Improved Data Coverage and Quality",
    author = "Lee, Mina and Donahue, Chris and Jia, Robin and Iyabor, Alexander and Liang, Percy",
    booktitle = "Proceedings of NAACL-HLT 2021",
    year = "2021",
    pages = "4362--4379"
}
@inproceedings{mccarthy-navigli-2007-semeval,
    title = "{S}em{E}val-2007 Task 10: {E}nglish Lexical Substitution Task",
    author = "McCarthy, Diana and Navigli, Roberto",
    booktitle = "Proceedings of SemEval-2007",
    year = "2007",
    pages = "48--53"
}
"""

_DESCRIPTION = """\
Lexical substitution metrics exactly as the official SWORDS scorer computes them: precision, recall and
F at k against acceptable (score > 50%) and conceivable (score >= 10%) references, lenient and strict;
GAP for the ranking setting; SemEval-2007's best and oot (as its Perl scorer); LexSubGen's P@1, P@3, R@10.
Substitutes and targets are lemmatized with WordNet 3.0 exactly as NLTK 3.5's WordNetLemmatizer does, offline.
The figures are percentages (0 to 100), as the SWORDS paper reports them: 33.88 is 33.88 %, not 0.3388.
TSAR-2022 and ProLex are scored with their own official metrics, as fractions (0 to 1), as their scorers print them.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: the system's substitutes, in any form `swords evaluate` reads: one list per reference, of
        strings (ranked by position), [substitute, score] pairs or {"substitute", "score"} items (ranked by
        score), as lists, tuples or numpy arrays; or a mapping from target id (the dataset's `id` or the
        upstream SWORDS library's `upstream_id`) to such a list.
    references: the benchmark rows, straight from `swords_dataset` (a split, or a list of its rows).
    k: the cut-off for P/R/F (default 10).
    bootstrap: number of target resamples for 95% confidence intervals (default 0: none).
    seed: bootstrap seed (default 0).
    split: the split's name, recorded in the signature.
    include_problematic: CoInCo: also score the targets CoInCo flags as problematic (default False: left
        out, as the upstream scorer leaves them out).
    TSAR-2022 and ProLex rows (their configs: tsar2022_en/es/pt, prolex) are scored with their own official
    metrics instead, as fractions: acc@1, acc@{1,2,3}@top1, map@{3,5,10}, potential@{3,5,10} (TSAR-2022, with
    `official`: the figures as tsar_eval.py prints them) or {acc,prof}_{p,r,f}@k (ProLex); the signature names
    the family.
    judgments: SWORDS: tasks files and the judgments files answering them (paths); adds `extended` (figures on
        the gold they extend) and `judgments`.
Returns:
    Metrics in percent, 0 to 100, as the SWORDS paper reports them (`lenient_a_f@10`, `strict_c_p@1`, `gap`,
    `best_p`, `oot_mode_r`, ...), counts (`targets_scored`, `targets_without_predictions`, `targets_skipped`),
    `by_pos`, `signature`, and with bootstrap `confidence_intervals`.
Examples:
    >>> import evaluate, swords_dataset
    >>> test = swords_dataset.load("swords", split="test")
    >>> metric = evaluate.load("swords_metric")
    >>> results = metric.compute(predictions=[["word"]] * len(test), references=test)
    >>> print(f"{results['lenient_a_f@10']:.2f} %")  # a percentage, as the SWORDS paper's tables
"""

# The columns of a benchmark row that scoring reads, typed as swords_dataset's schema types them.
_REFERENCE = {
    **{name: FEATURES[name] for name in REFERENCE_COLUMNS if name not in ("substitutes", "provenance")},
    "substitutes": datasets.List({name: FEATURES["substitutes"].feature[name] for name in SUBSTITUTE_FIELDS}),
    "provenance": {name: FEATURES["provenance"][name] for name in PROVENANCE_FIELDS},
}
# Every accepted prediction form is stored as this one (a plain ranked list gets scores 0, -1, -2, …).
_PREDICTION = datasets.List({"substitute": datasets.Value("string"), "score": datasets.Value("float64")})
_CHUNK = 1000  # references whose predictions are converted and handed to evaluate's store at a time


# What compute() takes besides predictions and references (swords_metric/evaluation.py checks them).
COMPUTE_OPTIONS = ("k", "bootstrap", "seed", "split", "include_problematic", "setting", "judgments")


def _references_view(references) -> tuple[list[dict], Family]:
    """Just the scored columns of the rows, normalised as their family's scorer reads them (evaluate rejects unknown
    keys and None strings), and their family: decided once, by the first row."""
    if isinstance(references, datasets.Dataset):
        references = references.select_columns([c for c in REFERENCE_COLUMNS if c in references.column_names])
    elif isinstance(references, str | bytes | Mapping) or not isinstance(references, Iterable):
        raise MetricInputError(
            f"references: expected benchmark rows (a loaded split or a list of its rows), got a "
            f"{type(references).__name__}"
        )
    references, family = rows_family(references)
    if family is SWORDS:
        return [reference_view(row, position, refuse_row) for position, row in enumerate(references)], family
    return [family_reference_view(row, position) for position, row in enumerate(references)], family


def _benchmark(rows) -> str | None:
    """The benchmark a split's first row names (CoInCo's gold cannot take judgments), or None."""
    try:
        return rows[0]["benchmark"]
    except (KeyError, IndexError, TypeError):
        return None


def _check_compute_options(options: dict, family: Family, benchmark: str | None) -> None:
    """compute()'s options, checked before anything is stored or computed (as `swords evaluate` checks its own)."""
    for name in options:
        if name not in COMPUTE_OPTIONS:
            raise MetricInputError(f"compute: no option {shown(name)}; its options are {', '.join(COMPUTE_OPTIONS)}")
    defaults = {"k": 10, "setting": "generative", "include_problematic": False, "bootstrap": 0, "seed": 0}
    given = {**defaults, **options}
    evaluation.check_options(family, "api", benchmark, given["k"], given["setting"], given["include_problematic"],
                  given["bootstrap"], given["seed"], given.get("split"), given.get("judgments"))  # fmt: skip


# evaluate keeps predictions in Arrow, whose strings are UTF-8, which cannot hold a lone surrogate (JSON can carry
# "\ud800", and Scorer scores it). Such a substitute is stored as _ESCAPED and its JSON (ASCII), and so is one that
# happens to begin with _ESCAPED, so that every substitute is scored exactly as given.
_ESCAPED = "\x00json:"
_SURROGATE = re.compile("[\ud800-\udfff]")


def _stored(substitute: str) -> str:
    if substitute.startswith(_ESCAPED) or (not substitute.isascii() and _SURROGATE.search(substitute)):
        return _ESCAPED + json.dumps(substitute)
    return substitute


def _restored(items: list[dict]) -> list[dict]:
    """A stored prediction with its substitutes as given (_stored undone)."""
    if not any(item["substitute"].startswith(_ESCAPED) for item in items):
        return items
    return [
        {**item, "substitute": json.loads(item["substitute"][len(_ESCAPED) :])}
        if item["substitute"].startswith(_ESCAPED)
        else item
        for item in items
    ]


def _prediction_view(items, target_id: str):
    """One reference's prediction in the stored form; any form Scorer reads is accepted. None (a target the input
    leaves out) stays None, so that it is scored as one not in the predictions, as the Scorer scores it."""
    if items is None:
        return None
    pairs = normalize_prediction_items(items, target_id)
    return [{"substitute": _stored(substitute), "score": score} for substitute, score in pairs]


def _aligned(predictions, references: list[dict]) -> tuple[Sequence, str | None]:
    """The predictions in reference order, not copied: a mapping by target id is aligned to the references; and the
    id scheme a mapping's keys are of (None for a list in order)."""
    if isinstance(predictions, Mapping):
        index = TargetIndex([r["id"] for r in references], [r["upstream_id"] for r in references], "the references")
        alignment = index.align(predictions)
        return alignment.items, alignment.scheme
    if isinstance(predictions, str | bytes) or not isinstance(predictions, Iterable):
        raise MetricInputError(
            f"predictions: expected one list of substitutes per reference, or a mapping from "
            f"target id to one, got a {type(predictions).__name__}"
        )
    if not isinstance(predictions, Sequence | np.ndarray):
        predictions = list(predictions)
    if len(predictions) != len(references):
        raise MetricInputError(f"predictions: {len(predictions)} prediction lists for {len(references)} references")
    return predictions, None


# What add, add_batch and compute take: evaluate's own lines for anything else name its internals (features,
# "Bad inputs"), so each misuse gets one line of ours saying what is expected.
_ADD = "add(prediction=…, reference=…): one target's substitutes and its benchmark row"
_ADD_BATCH = (
    "add_batch(predictions=…, references=…): one list of substitutes per reference (or a mapping from "
    "target id to one) and the benchmark rows"
)


def _check_call(method: str, usage: str, args: tuple, kwargs: dict, pair: tuple[str, str]) -> None:
    """Positional arguments, unknown names, or one of the pair without the other: one MetricInputError."""
    if args:
        raise MetricInputError(f"{method}: give the arguments by name: {usage}")
    for name in kwargs:
        where = "; options such as k go to compute()" if name in COMPUTE_OPTIONS else ""
        raise MetricInputError(f"{method}: no argument {shown(name)}; {usage}{where}")
    if (pair[0] is None) != (pair[1] is None):
        given, missing = ("prediction", "reference") if pair[1] is None else ("reference", "prediction")
        if method != "add":
            given, missing = given + "s", missing + "s"
        raise MetricInputError(f"{method}: {given}=… without {missing}=…; {usage}")


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class SwordsMetric(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": _PREDICTION, "references": _REFERENCE}),
            reference_urls=["https://arxiv.org/abs/2106.04102"],
        )

    _benchmark = None  # the benchmark of what add/add_batch stored (its first reference's), until compute
    _family = None  # the metric family of what add/add_batch stored (their first reference's), until compute
    _scored_family = None  # the family compute decided, for _compute's scorer (None: scorer_for decides it)
    _id_schemes: tuple[str | None, ...] = ()  # how each batch stored named its targets (None: in order), until compute
    _id_scheme: str | None = None  # of what compute scores: the one scheme every batch used, else None

    def add_batch(self, *args, predictions=None, references=None, **kwargs):
        """Add a batch of predictions and references (dataset rows) for the metric's stack: all of it, or (a
        MetricInputError naming the item) none of it."""
        _check_call("add_batch", _ADD_BATCH, args, kwargs, (predictions, references))
        if references is None:
            raise MetricInputError(f"add_batch: nothing given; {_ADD_BATCH}")
        self._store(predictions, *_references_view(references))

    def _store(self, predictions, references: list[dict], family: Family) -> None:
        """The predictions go to evaluate's store in their stored form a chunk at a time, so that no second copy of
        them is made; every one is read first, so that a bad one leaves nothing of the batch stored. `family`: the
        references' (decided as their views were made)."""
        if not references:
            raise MetricInputError("references: none given; score against a benchmark split's rows")
        predictions, scheme = _aligned(predictions, references)
        for items, reference in zip(predictions, references, strict=True):
            normalize_prediction_items(items, reference["id"])
        for start in range(0, len(references), _CHUNK):
            chunk = zip(predictions[start : start + _CHUNK], references[start : start + _CHUNK], strict=True)
            super().add_batch(
                predictions=[_prediction_view(items, reference["id"]) for items, reference in chunk],
                references=references[start : start + _CHUNK],
            )
        self._family = self._family or family
        self._benchmark = self._benchmark or _benchmark(references)
        self._id_schemes += (scheme,)

    def add(self, *args, prediction=None, reference=None, **kwargs):
        """Add one prediction and its reference (a dataset row)."""
        _check_call("add", _ADD, args, kwargs, (prediction, reference))
        if reference is None:
            raise MetricInputError(f"add: nothing given; {_ADD}")
        (reference,), family = _references_view([reference])
        prediction = _prediction_view(prediction, reference["id"])
        super().add(prediction=prediction, reference=reference)
        self._family = self._family or family
        self._benchmark = self._benchmark or _benchmark([reference])
        self._id_schemes += (None,)

    def compute(self, *args, predictions=None, references=None, **kwargs):
        """Compute the metrics; references are dataset rows (a loaded split works as it is). The options are
        checked before anything is stored: a wrong one leaves what add/add_batch stored for the next compute.

        SWORDS, CoInCo and SemEval-2007 figures are percentages (0 to 100), as the SWORDS paper reports them:
        `lenient_a_f@10` 33.88 means 33.88 %. TSAR-2022 and ProLex figures are fractions (0 to 1), as their
        official scorers print them; `signature` names the family."""
        if args:
            raise MetricInputError("compute: give the arguments by name: compute(predictions=…, references=…, k=…)")
        if (predictions is None) != (references is None):
            name, other = ("predictions", "references") if references is None else ("references", "predictions")
            raise MetricInputError(f"{other}: none given; pass {other}=… along with the {name}")
        if references is not None:
            views, family = _references_view(references)  # decided once for this call: options, rows, scorer
            _check_compute_options(kwargs, family, _benchmark(views))
            self._store(predictions, views, family)
        elif self.writer is None:  # evaluate's own writer: nothing was added with add or add_batch
            raise MetricInputError("predictions and references: none given (nor added with add or add_batch)")
        else:
            _check_compute_options(kwargs, self._family or SWORDS, self._benchmark)
        self._scored_family = self._family  # the stored rows' family, decided as they were stored
        self._family = self._benchmark = None
        self._id_scheme = self._id_schemes[0] if len(set(self._id_schemes)) == 1 else None
        self._id_schemes = ()
        return super().compute(**kwargs)

    def _compute(self, predictions, references, bootstrap=0, **options):  # options: checked in compute()
        # _stored undone; None: a target not in the predictions.
        predictions = [None if items is None else _restored(items) for items in predictions]
        if self._id_scheme is not None:  # keyed again by the ids the input used, so that the scorer names the scheme
            key = "upstream_id" if self._id_scheme == UPSTREAM_IDS else "id"
            predictions = {
                row[key]: items for row, items in zip(references, predictions, strict=True) if items is not None
            }
        evaluated = evaluation.evaluate(  # prepared a target at a time, no copy; with judgments, "extended" added
            predictions,
            references=references,
            family=self._scored_family,
            bootstrap=bootstrap,
            analysis=False,
            source="predictions",
            **options,
        )
        return evaluated.result
