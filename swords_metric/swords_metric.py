"""`evaluate` module: the SWORDS paper's lexical substitution metrics. A thin adapter over swords_metric."""

import datasets
import evaluate

from swords_dataset.schema import FEATURES
from swords_metric.scorer import Scorer

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
Substitutes and targets are lemmatized with WordNet 3.0 exactly as NLTK 3.5's WordNetLemmatizer does,
offline.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: one ranked list of substitutes per reference: strings (ranked by position) or
        {"substitute": str, "score": float} items (ranked by score).
    references: the benchmark rows, straight from `swords_dataset` (a split, or a list of its rows).
    k: the cut-off for P/R/F (default 10).
    bootstrap: number of target resamples for 95% confidence intervals (default 0: none).
    seed: bootstrap seed (default 0).
    split: the split's name, recorded in the signature.
Returns:
    Metrics in percent (`lenient_a_f@10`, `strict_c_p@1`, `gap`, `best_p`, `oot_mode_r`, ...), counts
    (`targets_scored`, `targets_without_predictions`), `by_pos`, `signature`, and with bootstrap
    `confidence_intervals`.
Examples:
    >>> import evaluate, swords_dataset
    >>> test = swords_dataset.load("swords", split="test")
    >>> metric = evaluate.load("swords_metric")
    >>> results = metric.compute(predictions=[["word"]] * len(test), references=test)
"""

# The columns of a benchmark row that scoring reads, typed as swords_dataset's schema types them.
_REFERENCE_COLUMNS = ("id", "benchmark", "target", "pos", "substitutes", "candidates")
_SUBSTITUTE_FIELDS = ("substitute", "labels", "votes_positive", "votes_total")
_REFERENCE = {
    **{name: FEATURES[name] for name in _REFERENCE_COLUMNS if name != "substitutes"},
    "substitutes": datasets.List({name: FEATURES["substitutes"].feature[name] for name in _SUBSTITUTE_FIELDS}),
}


def _reference_view(row):
    """Just the scored columns of a row (evaluate rejects unknown keys and None strings)."""
    view = {name: row.get(name) for name in _REFERENCE_COLUMNS}
    view["id"], view["benchmark"] = str(view["id"] or ""), str(view["benchmark"] or "")
    view["candidates"] = list(view["candidates"] or [])
    view["substitutes"] = [{name: s.get(name) for name in _SUBSTITUTE_FIELDS} for s in view["substitutes"] or []]
    return view


def _references_view(references):
    if references is None:
        return None
    if isinstance(references, datasets.Dataset):
        references = references.select_columns([c for c in _REFERENCE_COLUMNS if c in references.column_names])
    return [_reference_view(row) for row in references]


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class SwordsMetric(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features({"predictions": datasets.List(datasets.Value("string")), "references": _REFERENCE}),
                datasets.Features(
                    {
                        "predictions": datasets.List(
                            {"substitute": datasets.Value("string"), "score": datasets.Value("float64")}
                        ),
                        "references": _REFERENCE,
                    }
                ),
            ],
            reference_urls=["https://arxiv.org/abs/2106.04102"],
        )

    # A loaded split (or its rows) can be passed as references as it is: keep the columns scoring needs.
    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of predictions and references (dataset rows) for the metric's stack."""
        return super().add_batch(predictions=predictions, references=_references_view(references), **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one prediction and its reference (a dataset row)."""
        reference = _reference_view(reference) if reference is not None else None
        return super().add(prediction=prediction, reference=reference, **kwargs)

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Compute the metrics; references are dataset rows (a loaded split works as it is)."""
        return super().compute(predictions=predictions, references=_references_view(references), **kwargs)

    def _compute(self, predictions, references, k=10, bootstrap=0, seed=0, split=None):
        scorer = Scorer(references, k=k, split=split)
        return scorer.score(list(predictions), bootstrap=bootstrap, seed=seed)
