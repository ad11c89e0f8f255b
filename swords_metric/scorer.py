"""Scoring systems against one benchmark split: prepared references, either id scheme, the evaluation set,
signature, confidence intervals and paired tests. Predictions are prepared once (Scorer.prepare from Python
values, Scorer.read from a file in bounded memory) and then scored, compared, or cut at any k."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from swords_dataset.judgements import ACCEPTABLE_ABOVE, CONCEIVABLE_FROM, NOT_IN_BENCHMARK
from swords_metric.arguments import check_flag, check_k, check_split_name
from swords_metric.core import MetricInputError, normalize_prediction_items, prepare_prediction, shown, substitute_lemma
from swords_metric.details.stream import details_observer
from swords_metric.metrics.bootstrap import MIN_PAIRED_RESAMPLES, check_resamples, check_seed, intervals, paired_test
from swords_metric.metrics.target_scores import TargetScores, lemma_class, precision_recall_at, score_targets
from swords_metric.official.scorer import family_scorer
from swords_metric.predictions.files import MAX_PREDICTIONS_BYTES, MAX_TARGET_CHARS, PredictionFile
from swords_metric.predictions.prepared import PreparedPredictions, prepare_in_order, prepare_keyed
from swords_metric.references.shipped import LEMMATIZER
from swords_metric.references.split import ReferenceSplit, shipped_split
from swords_metric.references.target_ids import DATASET_IDS, UPSTREAM_IDS, TargetIndex, UnknownTargetsError

__all__ = [
    "DATASET_IDS",
    "UPSTREAM_IDS",
    "Judgement",
    "PreparedPredictions",
    "Scorer",
    "TargetIndex",
    "UnknownTargetsError",
    "check_resamples",
    "score",
]

# 1.1: CoInCo's problematic targets left out by default; duplicates merged in upstream's order.
METRIC_VERSION = "1.2"  # 1.2: LexSubGen's P@k, R@k by its own conventions (swords_metric/metrics/lexsubgen.py)
SETTINGS = ("generative", "ranking")
CURVE_KS = tuple(range(1, 21))  # precision_recall's default cut-offs; predictions are prepared this deep


@dataclass(frozen=True)
class Judgement:
    """One substitute against a target's gold, as the metric counts it: its lemma, its class (one of
    swords_dataset.judgements.CLASSES) and, when the benchmark judged it, its score and votes."""

    substitute: str
    lemma: str
    label: str
    score: float | None = None
    positive: int | None = None
    total: int | None = None


class Scorer:
    """The references of one split, prepared once, scoring any number of systems.

    >>> scorer = Scorer.from_dataset("coinco", "test")
    >>> scorer.score({"coinco:12": ["fascinating", "incredible"]})["lenient_a_f@10"]
    >>> prepared = scorer.read("runs/system.jsonl")        # a file, streamed: bounded memory
    >>> scorer.score(prepared, bootstrap=1000); scorer.precision_recall(prepared)

    Predictions may name targets by the dataset's `id` or by the upstream SWORDS library's target ids
    (decided per input). CoInCo's "problematic" targets are left out of the scores, as the upstream
    library leaves them out, unless `include_problematic`; predictions for them are accepted and counted.
    Without `split` and `config`, rows that are exactly a shipped split's are signed with its name.

    A benchmark with its own official metrics (TSAR-2022, ProLex: its config, or its rows) gets its family's
    scorer instead (family_scorer.FamilyScorer: `score`, `read`, `signature`), from `Scorer.from_dataset` and
    from `Scorer(rows)` alike; the SWORDS metrics refuse such rows in one line (see family.NOT_SWORDS).
    """

    def __new__(
        cls,
        rows=None,
        k: int = 10,
        split: str | None = None,
        setting: str = "generative",
        include_problematic: bool = False,
        config: str | None = None,
    ):
        scorer = family_scorer(rows, config, split, k, setting, include_problematic)
        return super().__new__(cls) if scorer is None else scorer

    def __init__(
        self,
        rows: Iterable[Mapping],
        k: int = 10,
        split: str | None = None,
        setting: str = "generative",
        include_problematic: bool = False,
        config: str | None = None,
    ):
        """The scorer of any benchmark rows (references prepared on the spot). Without `split` and `config`,
        rows that are exactly a shipped split's are signed with its name."""
        references = ReferenceSplit.from_rows(rows)
        if split is None and config is None:
            config, split = shipped_split([target["id"] for target in references.targets]) or (None, None)
        self._build(references, k, split, setting, include_problematic, config)

    @classmethod
    def from_dataset(
        cls, config: str, split: str, k: int = 10, setting: str = "generative", include_problematic: bool = False
    ) -> Scorer:
        """The scorer of a shipped split: from the references prepared when the dataset was built (fast),
        else from its rows. A combination of splits ("dev+test", "trial+test") scores their targets together,
        each as in its own split, predictions keyed by any of their ids; its signature says `split:dev+test`."""
        import swords_dataset
        from swords_metric.references.shipped import load_shipped

        parts = swords_dataset.split_parts(config, split)
        family = family_scorer(
            lambda: [row for part in parts for row in swords_dataset.rows(config, part)],
            config,
            split,
            k,
            setting,
            include_problematic,
        )
        if family is not None:
            return family
        references = [load_shipped(swords_dataset.DATASET_DIR, config, part) for part in parts]
        references = [
            shipped or ReferenceSplit.from_rows(swords_dataset.rows(config, part))
            for shipped, part in zip(references, parts, strict=True)
        ]
        references = references[0] if len(references) == 1 else ReferenceSplit.joined(references)
        scorer = cls.__new__(cls)
        scorer._build(references, k, split, setting, include_problematic, config)
        return scorer

    def _build(self, references: ReferenceSplit, k, split, setting, include_problematic, config) -> None:
        """The one place a Scorer is set up, however its references were made."""
        if setting not in SETTINGS:
            raise MetricInputError(f"unknown setting {setting!r}; choose {' or '.join(SETTINGS)}")
        self.split_references = references
        self.rows, self.problematic = references.targets, references.problematic
        self.k, self.split, self.setting, self.config = check_k(k), check_split_name(split), setting, config
        self.depth = max(self.k, max(CURVE_KS))  # how much of each ranking prepared predictions keep
        self.include_problematic = check_flag(include_problematic, "include_problematic")
        self.skipped = [flag and not self.include_problematic for flag in self.problematic]
        self.references = [None if skip else ref for ref, skip in zip(references.references, self.skipped, strict=True)]
        self.scored = [reference is not None and bool(reference.lemmas) for reference in self.references]
        benchmarks = sorted({row["benchmark"] for row in self.rows if row["benchmark"]})
        self.benchmark = "+".join(benchmarks) or "custom"
        where = f"{self.config or self.benchmark}" + (f" {self.split}" if self.split else "")
        self.index = TargetIndex([row["id"] for row in self.rows], [row["upstream_id"] for row in self.rows], where)
        self.position = self.index.position

    # -- predictions, prepared once --

    def prepare(
        self, predictions, source: str = "predictions", details: str | Path | None = None, details_force: bool = False
    ) -> PreparedPredictions:
        """Predictions as the metrics use them: a mapping from target id (either scheme) to a list of
        substitutes, or one list per reference in order (any form normalize_prediction_items reads).
        Already prepared predictions are returned as they are (if this Scorer made them). With `details`, a
        path ending .jsonl, .csv or .parquet, the details file is written as they are prepared (see the
        metric card, "Details"; checked before any work: an existing details file is replaced only as
        swords evaluate wrote it, or with `details_force`); `details_file` of the result says where it went."""
        return self._prepared(predictions, source, self.depth, details, details_force)

    def _prepared(
        self, predictions, source: str, depth: int, details: str | Path | None = None, details_force: bool = False
    ) -> PreparedPredictions:
        if isinstance(predictions, PreparedPredictions):
            if predictions.owner is not self:
                raise MetricInputError(f"{predictions.source}: prepared by another Scorer; prepare them with this one")
            if details is not None:
                raise MetricInputError(
                    f"{predictions.source}: already prepared; details are written while "
                    "predictions are prepared (pass details= to read or prepare)"
                )
            return predictions
        with details_observer(self, details, source, details_force) as stream:
            observe = stream.observe if stream is not None else None
            if isinstance(predictions, Mapping):
                records = ((str(key), items, "") for key, items in predictions.items())
                prepared = prepare_keyed(records, self.references, self.index, depth, source, self, observe=observe)
            else:
                prepared = prepare_in_order(predictions, self.rows, self.references, depth, source, self, observe)
        prepared.details_file = stream.written() if stream is not None else None
        return prepared

    def read(
        self,
        path: str | Path,
        max_bytes: int = MAX_PREDICTIONS_BYTES,
        max_target_chars: int = MAX_TARGET_CHARS,
        source: str | None = None,
        details: str | Path | None = None,
        details_force: bool = False,
    ) -> PreparedPredictions:
        """A predictions file (upstream format or JSONL, gzipped or not; see swords_metric/predictions/files.py),
        read as a stream and prepared a target at a time: memory grows with the targets, not with the file. A file
        over max_bytes (uncompressed), or a target over max_target_chars of JSON, is refused. With `details`
        (a .jsonl, .csv or .parquet path), the details file is written as the targets are read (an existing
        one is replaced only as swords evaluate wrote it, or with `details_force`; see prepare)."""
        file = PredictionFile(path, max_bytes, max_target_chars)
        with details_observer(self, details, source or str(path), details_force) as stream:
            prepared = prepare_keyed(
                file,
                self.references,
                self.index,
                self.depth,
                source or str(path),
                self,
                duplicate=file.duplicate,
                observe=stream.observe if stream is not None else None,
            )
        prepared.file_format, prepared.substitutes_lemmatized = file.format, file.substitutes_lemmatized
        prepared.details_file = stream.written() if stream is not None else None
        return prepared

    def align(self, predictions: Mapping[str, object] | Sequence[object], source: str = "predictions") -> list:
        """Predictions in reference order (None where a target has none); see TargetIndex.align."""
        return self.index.align(predictions, source).items

    def target_scores(self, predictions, source: str = "predictions") -> TargetScores:
        return score_targets(self.references, self.prepare(predictions, source).ranked, self.k)

    def precision_recall(self, predictions, ks: Iterable[int] = CURVE_KS) -> dict[int, dict[str, float]]:
        """Precision and recall (percent) at each k, e.g. 1…20, lenient and strict, against acceptable and
        conceivable references: {k: {"lenient_a_p": …, "lenient_a_r": …, …, "strict_c_r": …}}, the values
        Scorer(rows, k=k).score would give as `{setting}_{a|c}_{p|r}@k`. k may be up to this Scorer's
        prepared depth (max(k, 20)), or any k for predictions not yet prepared."""
        ks = sorted({int(k) for k in ks})
        if not ks or ks[0] < 1:
            raise MetricInputError(f"precision_recall needs cut-offs of at least 1, got {ks}")
        prepared = self._prepared(predictions, "predictions", max(self.depth, ks[-1]))
        if ks[-1] > prepared.depth:
            raise MetricInputError(
                f"predictions are prepared {prepared.depth} deep; k={ks[-1]} needs a Scorer with k >= {ks[-1]}"
            )
        return precision_recall_at(self.references, prepared.ranked, ks)

    def analyze(self, predictions, worst: int = 5, relations: bool = True) -> dict:
        """What the system proposed, as plain data: per class and (`relations`) per WordNet relation, the counts and
        shares (percent) of its strict top-k substitutes over all targets (`all`), `by_pos` and `by_gold_size` (buckets
        of the number of acceptable substitutes), and its `worst_targets` with the acceptable substitutes they missed.
        See swords_metric/details/analysis.py; the class shares reproduce strict precision exactly. Relations load
        WordNet's graph (about 0.3 s, once a process)."""
        from swords_metric.details.analysis import analyze

        return analyze(self, self.prepare(predictions).ranked, worst, relations)

    def target_details(self, predictions) -> list[dict]:
        """The per-target records of a details file (kind "target"), for every scored target in reference
        order: P/R/F@k per family, GAP, top-k lemmas, acceptable substitutes missed."""
        from swords_metric.details.explain import ranked_or_none, target_record

        ranked = self.prepare(predictions).ranked
        return [
            target_record(self.rows[i], self.references[i], ranked_or_none(ranked[i]), self.k)
            for i, scored in enumerate(self.scored)
            if scored
        ]

    def differences(self, predictions_a, predictions_b, n: int = 10) -> list[dict]:
        """The `n` targets where two systems differ most in per-target lenient F@k against acceptable, as
        records with both systems' figures and top-k lemmas (a comparison file's `pair` records)."""
        from swords_metric.details.analysis import differences

        return differences(self, self.prepare(predictions_a, "A").ranked, self.prepare(predictions_b, "B").ranked, n)

    def write_comparison(
        self, path: str | Path, predictions_a, predictions_b, sources: tuple[str, str] = ("A", "B"), force: bool = False
    ) -> int:
        """A comparison file (.jsonl, .csv or .parquet): one record per scored target with both systems'
        figures and top-k lemmas. Returns how many records it holds. An existing file is replaced only as
        swords evaluate wrote it, or with `force` (see prepare)."""
        from swords_metric.details.place import DetailsPlace, details_place
        from swords_metric.details.writer import write_comparison

        place = path if isinstance(path, DetailsPlace) else details_place(path, force=force, force_option="force=True")
        a, b = self.prepare(predictions_a, sources[0]), self.prepare(predictions_b, sources[1])
        return write_comparison(self, place, a.ranked, b.ranked, sources)

    def restricted_to_given(self, predictions: PreparedPredictions) -> tuple[Scorer, PreparedPredictions]:
        """A Scorer of just the targets these predictions name (the others left out rather than scored as
        empty answers), and the predictions prepared for it: e.g. a run over part of a split."""
        prepared = self.prepare(predictions)
        keep = [i for i, slot in enumerate(prepared.ranked) if slot is not None]
        scorer = Scorer.__new__(Scorer)
        scorer._build(
            self.split_references.subset(keep), self.k, self.split, self.setting, self.include_problematic, self.config
        )
        subset = PreparedPredictions(
            [prepared.ranked[i] for i in keep],
            prepared.scheme,
            prepared.given,
            prepared.notes,
            prepared.source,
            prepared.depth,
            scorer,
            prepared.file_format,
            prepared.substitutes_lemmatized,
        )
        return scorer, subset

    def lemma_lists(self, predictions: Mapping[str, object] | Sequence[object]) -> list[list[tuple[str, float]] | None]:
        """Per reference, in order, the prediction as the metrics read it before any cut-off: [(lemma, score)]
        ordered by score, the target's lemma and later duplicates dropped (None: no reference, or no
        prediction). What the official scorers are fed when they run beside this one."""
        return [
            None
            if items is None or reference is None
            else prepare_prediction(normalize_prediction_items(items), reference)
            for items, reference in zip(self.align(predictions), self.references, strict=True)
        ]

    def judge(self, target_id: str, substitutes: Iterable[str]) -> list[Judgement]:
        """Each substitute against the target's gold, as the metric counts it: lemmatized under the target's
        POS, matched against the lemmas of the reference (judgements of a lemma's forms merged), classed with
        the benchmark's thresholds. Works for every target of the split, scored or left out."""
        position = self.index.position.get(target_id, self.index.upstream_position.get(target_id))
        if position is None:
            raise MetricInputError(f"no target {shown(target_id)} in {self.index.where}")
        reference = self.split_references.references[position]
        pos = self.rows[position]["pos"]
        judged = []
        for substitute in substitutes:
            lemma = substitute_lemma(substitute, pos)
            i = reference.index.get(lemma) if reference is not None else None
            if i is None or lemma == reference.target_lemma:
                judged.append(Judgement(substitute, lemma, NOT_IN_BENCHMARK))
                continue
            judged.append(
                Judgement(
                    substitute,
                    lemma,
                    lemma_class(reference, lemma),
                    reference.score(i),
                    reference.positives[i],
                    reference.totals[i],
                )
            )
        return judged

    def _covered(self, prepared: PreparedPredictions) -> list[bool]:
        """Per reference: scored, and given predictions (an empty list counts as given)."""
        return [scored and given for scored, given in zip(self.scored, prepared.given_mask(), strict=True)]

    # -- results --

    def signature(self, bootstrap: int = 0, seed: int | None = None) -> str:
        """Everything that decides the numbers, sacrebleu-style, so a reported figure is unambiguous."""
        parts = [
            f"swords-metric:{METRIC_VERSION}",
            f"bench:{self.benchmark}",
            f"split:{self.split or 'custom'}",
            f"setting:{self.setting}",
            f"k:{self.k}",
            f"acc:>{ACCEPTABLE_ABOVE:g}",
            f"conc:>={CONCEIVABLE_FROM:g}",
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
        bootstrap, seed = check_resamples(bootstrap), check_seed(seed)
        prepared = self.prepare(predictions, source)
        scores = score_targets(self.references, prepared.ranked, self.k)
        result: dict = scores.aggregate()
        result["targets_without_predictions"] = int(result["targets_without_predictions"])
        result["targets_scored"] = int(result["targets_scored"])
        given = prepared.given_mask()
        result["targets_not_in_predictions"] = sum(self.scored) - sum(self._covered(prepared))
        result["targets_skipped"] = sum(self.skipped)
        result["predictions_for_skipped_targets"] = sum(
            skip and has for skip, has in zip(self.skipped, given, strict=True)
        )
        result["id_scheme"] = prepared.scheme
        result["input_notes"] = prepared.notes.as_dict()
        if by_pos:
            result["by_pos"] = {
                pos: {name: value for name, value in metrics.items()} for pos, metrics in scores.by_pos().items()
            }
        if bootstrap:
            result["confidence_intervals"] = intervals(scores, self.k, bootstrap, seed)
        result["signature"] = self.signature(bootstrap, seed if bootstrap else None)
        return result

    def compare(
        self, predictions_a, predictions_b, bootstrap: int = 1000, seed: int = 0, sources: tuple[str, str] = ("A", "B")
    ) -> dict:
        """Paired bootstrap test (targets resampled jointly): per metric, A, B, their difference, its 95%
        interval and a two-sided p-value for 'no difference'; and how many targets each input covers."""
        bootstrap = check_resamples(bootstrap, MIN_PAIRED_RESAMPLES, "the paired test's bootstrap")
        seed = check_seed(seed)
        a = self.prepare(predictions_a, sources[0])
        b = self.prepare(predictions_b, sources[1])
        scores_a, scores_b = (score_targets(self.references, p.ranked, self.k) for p in (a, b))
        comparison = paired_test(scores_a, scores_b, self.k, bootstrap, seed)
        covered_a, covered_b = self._covered(a), self._covered(b)
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
