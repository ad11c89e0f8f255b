"""Scoring systems against one benchmark split: prepared references, either id scheme, the evaluation set,
signature, confidence intervals and paired tests."""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .core import (
    ACCEPTABLE,
    CONCEIVABLE,
    InputNotes,
    MetricInputError,
    TargetScores,
    metrics_from_totals,
    normalize_prediction_items,
    prepare_prediction,
    prepare_reference,
    score_targets,
)

# 1.1: CoInCo's problematic targets left out by default; duplicates merged in upstream's order.
METRIC_VERSION = "1.1"
LEMMATIZER = "wordnet3.0+nltk3.5-morphy"
SETTINGS = ("generative", "ranking")
# The metrics that get bootstrap confidence intervals and paired tests.
INTERVAL_METRICS = ("lenient_a_f@{k}", "lenient_c_f@{k}", "strict_a_f@{k}", "strict_c_f@{k}", "gap", "gap_rat")
MAX_RESAMPLES = 1_000_000
MIN_PAIRED_RESAMPLES = 100  # below this a p-value says little (its resolution is 1 / resamples)
_RESAMPLE_CHUNK = 1000  # resamples drawn and summed at a time: memory stays bounded whatever the count
_REFERENCE_FIELDS = ("id", "upstream_id", "target", "pos", "substitutes", "candidates", "benchmark")

# How a predictions mapping names targets: by the dataset's `id` column or by the upstream SWORDS
# library's target ids (`upstream_id`; for SWORDS the two are the same).
DATASET_IDS, UPSTREAM_IDS = "dataset", "upstream"


class UnknownTargetsError(MetricInputError):
    """Predictions keyed by ids the references do not have; `belongs_to` is the (config, split) they do
    belong to, when the ids are those of another shipped split."""

    def __init__(self, message: str, belongs_to: tuple[str, str] | None = None):
        super().__init__(message)
        self.belongs_to = belongs_to


def check_resamples(bootstrap: object, minimum: int = 0, what: str = "bootstrap") -> int:
    """A resample count as an int in [minimum, MAX_RESAMPLES], or a MetricInputError saying why not."""
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, numbers.Integral):
        raise MetricInputError(f"{what} must be a whole number of resamples, got {bootstrap!r}")
    if not minimum <= bootstrap <= MAX_RESAMPLES:
        raise MetricInputError(f"{what} must be between {minimum} and {MAX_RESAMPLES:,} resamples, got {bootstrap}")
    return int(bootstrap)


def _describe_ids(target_id: str) -> str:
    if target_id.startswith("t:") and len(target_id) == 42:
        return "an upstream SWORDS id"
    if target_id.split(":", 1)[0] in ("coinco", "semeval07"):
        return "a dataset id"
    return "an id of neither scheme"


@dataclass
class Alignment:
    """Predictions in reference order (None where a target has none) and how the input named targets."""

    items: list
    scheme: str | None  # DATASET_IDS or UPSTREAM_IDS for a mapping; None for a list in reference order
    given: int  # how many targets the input named


class TargetIndex:
    """The targets of a split under both id schemes: puts predictions keyed by either in reference order."""

    def __init__(self, ids: Sequence[str], upstream_ids: Sequence[str | None], where: str):
        self.size, self.where = len(ids), where
        self.position = {target_id: i for i, target_id in enumerate(ids)}
        if len(self.position) != len(ids):
            raise MetricInputError("reference ids are not unique")
        self.upstream_position = {target_id: i for i, target_id in enumerate(upstream_ids) if target_id}

    def align(self, predictions, source: str = "predictions") -> Alignment:
        """A mapping is keyed by target id, all of one scheme (an unknown id is an error: the wrong
        dataset or split); a sequence must have one entry per reference, in order."""
        if isinstance(predictions, Mapping):
            keys = [str(key) for key in predictions]
            scheme, index = self._scheme(keys, source)
            aligned = [None] * self.size
            for key, items in zip(keys, predictions.values(), strict=True):
                aligned[index[key]] = items
            return Alignment(aligned, scheme, len(keys))
        if isinstance(predictions, str | bytes) or not isinstance(predictions, Sequence | np.ndarray):
            raise MetricInputError(f"{source}: expected a mapping of target id to substitutes, or a list per target")
        if len(predictions) != self.size:
            raise MetricInputError(f"{source}: {len(predictions)} prediction lists for {self.size} references")
        return Alignment(list(predictions), None, len(predictions))

    def _scheme(self, keys: list[str], source: str) -> tuple[str, dict[str, int]]:
        """Which id scheme names these targets, and its index; a mix or an unknown id is an error."""
        upstream = sum(key in self.upstream_position for key in keys)
        if upstream == len(keys):
            return UPSTREAM_IDS, self.upstream_position
        ours = sum(key in self.position for key in keys)
        if ours == len(keys):
            return DATASET_IDS, self.position
        unknown = [key for key in keys if key not in self.position and key not in self.upstream_position]
        if not unknown:
            raise MetricInputError(
                f"{source}: mixes {ours:,} dataset ids (the `id` column) and {upstream:,} upstream SWORDS ids "
                f"(`upstream_id`, t:…); use one scheme per file"
            )
        raise self._unknown_error(unknown, len(keys), source)

    def _unknown_error(self, unknown: list[str], total: int, source: str) -> UnknownTargetsError:
        message = (
            f"{source}: {len(unknown):,} of {total:,} target ids are not in {self.where} "
            f"(first: {unknown[0][:80]!r}, {_describe_ids(unknown[0])})"
        )
        belongs_to = None
        try:
            import swords_dataset

            located = swords_dataset.locate_ids(unknown)
        except Exception:  # the shipped dataset is unreadable: the message goes without the owner
            located = []
        if located:
            config, split, column, hits = located[0]
            sample = min(len(unknown), 500)
            kind = "upstream SWORDS ids" if column == "upstream_id" else "dataset ids"
            if config.startswith("swords"):
                kind = "ids"  # SWORDS ids are both
            message += f"; {hits} of the first {sample} are {kind} of {config} {split}"
            if hits * 2 > sample and f"{config} {split}" != self.where:
                belongs_to = (config, split)
        else:
            message += "; no shipped benchmark split has them"
        return UnknownTargetsError(message, belongs_to)


@dataclass
class _Prepared:
    scores: TargetScores
    alignment: Alignment
    notes: InputNotes = field(default_factory=InputNotes)


class Scorer:
    """The references of one split, prepared once, scoring any number of systems.

    >>> scorer = Scorer.from_dataset("coinco", "test")
    >>> scorer.score({"coinco:12": ["fascinating", "incredible"]})["lenient_a_f@10"]

    Predictions may name targets by the dataset's `id` or by the upstream SWORDS library's target ids
    (decided per input). CoInCo's "problematic" targets are left out of the scores, as the upstream
    library leaves them out, unless `include_problematic`; predictions for them are accepted and counted.
    """

    def __init__(
        self,
        rows: Iterable[Mapping],
        k: int = 10,
        split: str | None = None,
        setting: str = "generative",
        include_problematic: bool = False,
        config: str | None = None,
    ):
        views, problematic = [], []
        for position, row in enumerate(rows):
            view = {key: row.get(key) for key in _REFERENCE_FIELDS}
            view["id"] = str(view["id"]) if view["id"] else str(position)
            for key in ("target", "pos"):
                if not isinstance(view[key], str):
                    raise MetricInputError(f"reference {view['id']}: '{key}' must be a string, got {view[key]!r}")
            views.append(view)
            problematic.append(bool((row.get("provenance") or {}).get("coinco_problematic")))
        skip = [flag and not include_problematic for flag in problematic]
        references = [None if skipped else prepare_reference(view) for view, skipped in zip(views, skip, strict=True)]
        self._setup(views, problematic, references, k, split, setting, include_problematic, config)

    def _setup(self, views, problematic, references, k, split, setting, include_problematic, config) -> None:
        if setting not in SETTINGS:
            raise MetricInputError(f"unknown setting {setting!r}; choose {' or '.join(SETTINGS)}")
        if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
            raise MetricInputError(f"k must be a positive integer, got {k!r}")
        self.rows, self.problematic = views, problematic
        self.k, self.split, self.setting, self.config = int(k), split, setting, config
        self.include_problematic = bool(include_problematic)
        self.skipped = [flag and not self.include_problematic for flag in self.problematic]
        self.references = [None if skip else ref for ref, skip in zip(references, self.skipped, strict=True)]
        self.scored = [reference is not None and bool(reference.lemmas) for reference in self.references]
        benchmarks = sorted({row["benchmark"] for row in self.rows if row["benchmark"]})
        self.benchmark = "+".join(benchmarks) or "custom"
        where = f"{self.config or self.benchmark}" + (f" {self.split}" if self.split else "")
        self.index = TargetIndex([row["id"] for row in self.rows], [row["upstream_id"] for row in self.rows], where)
        self.position = self.index.position

    @classmethod
    def from_dataset(
        cls, config: str, split: str, k: int = 10, setting: str = "generative", include_problematic: bool = False
    ) -> Scorer:
        """The scorer of a shipped split: from the references prepared when the dataset was built (fast),
        else from its rows."""
        import swords_dataset

        from . import prepared

        swords_dataset.check_config(config, split)
        ready = prepared.load(swords_dataset.DATASET_DIR, config, split, LEMMATIZER)
        if ready is None:
            rows = swords_dataset.rows(config, split)
            return cls(rows, k=k, split=split, setting=setting, include_problematic=include_problematic, config=config)
        scorer = cls.__new__(cls)
        scorer._setup(ready.views, ready.problematic, ready.references, k, split, setting, include_problematic, config)
        return scorer

    # -- predictions -> per-target scores --

    def align(self, predictions: Mapping[str, object] | Sequence[object], source: str = "predictions") -> list:
        """Predictions in reference order (None where a target has none); see TargetIndex.align."""
        return self.index.align(predictions, source).items

    def _prepare(self, predictions, source: str) -> _Prepared:
        alignment = self.index.align(predictions, source)
        notes = InputNotes()
        prepared = []
        for row, reference, items in zip(self.rows, self.references, alignment.items, strict=True):
            if reference is None or items is None:
                prepared.append(None)
                continue
            prepared.append(prepare_prediction(normalize_prediction_items(items, row["id"]), reference, notes))
        return _Prepared(score_targets(self.references, prepared, self.k), alignment, notes)

    def _covered(self, alignment: Alignment) -> list[bool]:
        """Per reference: scored, and given predictions (an empty list counts as given)."""
        return [scored and items is not None for scored, items in zip(self.scored, alignment.items, strict=True)]

    def target_scores(self, predictions, source: str = "predictions") -> TargetScores:
        return self._prepare(predictions, source).scores

    # -- results --

    def signature(self, bootstrap: int = 0, seed: int | None = None) -> str:
        """Everything that decides the numbers, sacrebleu-style, so a reported figure is unambiguous."""
        parts = [
            f"swords-metric:{METRIC_VERSION}",
            f"bench:{self.benchmark}",
            f"split:{self.split or 'custom'}",
            f"setting:{self.setting}",
            f"k:{self.k}",
            f"acc:>{ACCEPTABLE:g}",
            f"conc:>={CONCEIVABLE:g}",
            f"lemma:{LEMMATIZER}",
            f"targets:{sum(self.scored)}",
        ]
        if any(self.problematic):
            parts.append(f"problematic:{'included' if self.include_problematic else 'excluded'}")
        if bootstrap:
            parts.append(f"bootstrap:{bootstrap},seed:{seed}")
        return "|".join(parts)

    def score(
        self, predictions, bootstrap: int = 0, seed: int = 0, by_pos: bool = True, source: str = "predictions"
    ) -> dict:
        """All metrics (percent), counts, per-POS breakdown, signature and, with bootstrap > 0, 95%
        confidence intervals from resampling targets (seeded).

        Besides the metrics: `targets_scored`; `targets_without_predictions` (not in the input, or an
        empty list: scored as empty answers, as upstream scores them), of which `targets_not_in_predictions`
        were not in the input at all; `targets_skipped` (CoInCo's problematic targets, left out) and
        `predictions_for_skipped_targets`; `id_scheme`; `input_notes` (empty substitutes, copies of the
        target, duplicates after lemmatization: all scored as upstream scores them)."""
        bootstrap = check_resamples(bootstrap)
        prepared = self._prepare(predictions, source)
        scores = prepared.scores
        result: dict = scores.aggregate()
        result["targets_without_predictions"] = int(result["targets_without_predictions"])
        result["targets_scored"] = int(result["targets_scored"])
        given = [items is not None for items in prepared.alignment.items]
        result["targets_not_in_predictions"] = sum(self.scored) - sum(self._covered(prepared.alignment))
        result["targets_skipped"] = sum(self.skipped)
        result["predictions_for_skipped_targets"] = sum(
            skip and has for skip, has in zip(self.skipped, given, strict=True)
        )
        result["id_scheme"] = prepared.alignment.scheme
        result["input_notes"] = prepared.notes.as_dict()
        if by_pos:
            result["by_pos"] = {
                pos: {name: value for name, value in metrics.items()} for pos, metrics in scores.by_pos().items()
            }
        if bootstrap:
            result["confidence_intervals"] = self._intervals(scores, bootstrap, seed)
        result["signature"] = self.signature(bootstrap, seed if bootstrap else None)
        return result

    def _resampled(self, scores: Sequence[TargetScores], bootstrap: int, seed: int) -> list[dict[str, np.ndarray]]:
        """The interval metrics of every resample (targets drawn with replacement, jointly for all the
        given systems), drawn in chunks so that memory stays bounded."""
        names = [m.format(k=self.k) for m in INTERVAL_METRICS]
        n_targets = len(scores[0])
        rng = np.random.default_rng(seed)
        collected: list[dict[str, list[np.ndarray]]] = [{name: [] for name in names} for _ in scores]
        for start in range(0, bootstrap, _RESAMPLE_CHUNK):
            size = min(_RESAMPLE_CHUNK, bootstrap - start)
            draws = rng.integers(0, n_targets, size=(size, n_targets))
            flat = (draws + (np.arange(size) * n_targets)[:, None]).ravel()  # resample r's draws offset by r*n
            counts = np.bincount(flat, minlength=size * n_targets).reshape(size, n_targets)
            for system, into in zip(scores, collected, strict=True):
                metrics = metrics_from_totals(system.resampled_totals(counts.astype(np.float64)), self.k)
                for name in names:
                    into[name].append(np.atleast_1d(metrics[name]))
        return [{name: np.concatenate(parts) for name, parts in into.items()} for into in collected]

    def _intervals(self, scores: TargetScores, bootstrap: int, seed: int) -> dict[str, list[float]]:
        resampled = self._resampled([scores], bootstrap, seed)[0]
        return {
            name: [float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))]
            for name, values in resampled.items()
        }

    def compare(
        self, predictions_a, predictions_b, bootstrap: int = 1000, seed: int = 0, sources: tuple[str, str] = ("A", "B")
    ) -> dict:
        """Paired bootstrap test (targets resampled jointly): per metric, A, B, their difference, its 95%
        interval and a two-sided p-value for 'no difference'; and how many targets each input covers."""
        bootstrap = check_resamples(bootstrap, MIN_PAIRED_RESAMPLES, "the paired test's bootstrap")
        a = self._prepare(predictions_a, sources[0])
        b = self._prepare(predictions_b, sources[1])
        resampled_a, resampled_b = self._resampled([a.scores, b.scores], bootstrap, seed)
        observed_a, observed_b = a.scores.aggregate(), b.scores.aggregate()
        comparison = {}
        for name in resampled_a:
            difference = resampled_a[name] - resampled_b[name]
            p_value = min(1.0, 2 * min(float(np.mean(difference <= 0)), float(np.mean(difference >= 0))))
            comparison[name] = {
                "a": observed_a[name],
                "b": observed_b[name],
                "difference": observed_a[name] - observed_b[name],
                "interval": [float(np.percentile(difference, 2.5)), float(np.percentile(difference, 97.5))],
                "p_value": p_value,
            }
        covered_a, covered_b = self._covered(a.alignment), self._covered(b.alignment)
        coverage = {
            "targets_scored": sum(self.scored),
            "a": sum(covered_a),
            "b": sum(covered_b),
            "both": sum(x and y for x, y in zip(covered_a, covered_b, strict=True)),
        }
        return {
            "a": sources[0],
            "b": sources[1],
            "metrics": comparison,
            "coverage": coverage,
            "signature": self.signature(bootstrap, seed),
        }


def score(predictions, references: Iterable[Mapping], k: int = 10, include_problematic: bool = False, **kwargs) -> dict:
    """One call: score predictions (mapping by id, or a list per reference) against dataset rows."""
    return Scorer(references, k=k, include_problematic=include_problematic).score(predictions, **kwargs)
