"""Which scorer a benchmark gets (`scorer_for`: the class its metric family names), and the `Scorer`: one split's
references prepared once, scoring any number of systems with the SWORDS metrics. Predictions are prepared once
(Scorer.prepare from Python values, Scorer.read from a file in bounded memory), then scored, compared, cut at any k."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import swords_dataset
from swords_dataset.judgements import ACCEPTABLE_ABOVE, CONCEIVABLE_FROM
from swords_metric.errors import MetricInputError
from swords_metric.families import SWORDS, Family, family_of, refuse_row, rows_family
from swords_metric.families.base import ScorerBase
from swords_metric.metrics.bootstrap import MIN_PAIRED_RESAMPLES, check_resamples, check_seed, intervals, paired_test
from swords_metric.metrics.target_scores import TargetScores, precision_recall_at, score_targets
from swords_metric.options import check_flag, check_k, check_scorer_options, check_setting, check_split_name
from swords_metric.predictions.files import MAX_PREDICTIONS_BYTES, MAX_TARGET_CHARS, PredictionFile
from swords_metric.predictions.prepared import PreparedPredictions, prepare_given, prepare_keyed
from swords_metric.references.shipped import LEMMATIZER, shipped_references
from swords_metric.references.split import ReferenceSplit, ScoredTargets, shipped_split
from swords_metric.signature import Signature

if TYPE_CHECKING:
    from swords_metric.details.explain import Judgement
    from swords_metric.official.scorer import FamilyScorer

__all__ = ["PreparedPredictions", "Scorer", "check_resamples", "score", "scorer_for"]

# 1.1: CoInCo's problematic targets left out by default; duplicates merged in upstream's order.
METRIC_VERSION = "1.2"  # 1.2: LexSubGen's P@k, R@k by its own conventions (swords_metric/metrics/lexsubgen.py)
CURVE_KS = tuple(range(1, 21))  # precision_recall's default cut-offs; predictions are prepared this deep


def scorer_for(
    config_or_rows: str | Iterable[Mapping],
    split: str | None = None,
    *,
    k: int = 10,
    setting: str = "generative",
    include_problematic: bool = False,
    config: str | None = None,
    family: Family | None = None,
) -> Scorer | FamilyScorer:
    """The scorer of a shipped split (`scorer_for("coinco", "test")`; joined: "dev+test") or rows (`scorer_for(rows)`)
    of the metric family the registry decides by the config's name, else the first row's benchmark (or given as
    `family`, as `swords evaluate` decides it): a `Scorer` (the SWORDS paper's metrics) or a `FamilyScorer`
    (TSAR-2022's, ProLex's official metrics), its options checked first."""
    named = isinstance(config_or_rows, str)
    rows = config_or_rows
    if named:
        config = config_or_rows
        if split is None:
            raise MetricInputError(f"scorer_for({config!r}): give the split too, e.g. scorer_for({config!r}, 'test')")
        swords_dataset.split_parts(config, split)  # a split of the config, or one line naming the choices
    if not config:
        rows, by_rows = rows_family(rows)  # an iterator's first row is looked at and kept
        family = family or by_rows
    chosen = family or family_of(config)
    k = check_scorer_options(chosen, k, setting, include_problematic)
    return make_scorer(config if named else rows, split, chosen, k, setting, include_problematic, config)


def make_scorer(
    source: str | Iterable[Mapping], split, family: Family, k: int, setting: str, include_problematic: bool, config
) -> Scorer | FamilyScorer:
    """The family's scorer of a shipped split (`source` its config) or of rows, its options checked already."""
    named = isinstance(source, str)
    if named:
        parts = swords_dataset.split_parts(source, split)
        rows = itertools.chain.from_iterable(swords_dataset.rows(source, part) for part in parts)
    else:
        rows = source
    if family is not SWORDS:  # its own official metrics: the one scorer of every official family
        from swords_metric.official.scorer import FamilyScorer  # not imported where the SWORDS metrics score

        return FamilyScorer(rows, config=config, split=split, k=k, family=family)
    if named:
        return Scorer.from_references(shipped_references(source, parts), k, split, setting, include_problematic, source)
    return Scorer(rows, k=k, split=split, setting=setting, include_problematic=include_problematic, config=config)


class Scorer(ScorerBase):
    """The references of one split, prepared once, scoring any number of systems with the SWORDS paper's metrics.

    >>> scorer = Scorer.from_dataset("coinco", "test")
    >>> scorer.score({"coinco:12": ["fascinating", "incredible"]})["lenient_a_f@10"]
    >>> prepared = scorer.read("runs/system.jsonl")        # a file, streamed: bounded memory
    >>> scorer.score(prepared, bootstrap=1000); scorer.precision_recall(prepared)

    Predictions may name targets by the dataset's `id` or by the upstream SWORDS library's target ids (decided per
    input). CoInCo's "problematic" targets are left out of the scores, as the upstream library leaves them out, unless
    `include_problematic`; predictions for them are accepted and counted. `Scorer(rows)` is the SWORDS metrics only
    (TSAR-2022 and ProLex rows are refused in one line); `scorer_for` and `Scorer.from_dataset` give any benchmark's
    scorer (for those two, their `FamilyScorer`). It implements ScorerBase (swords_metric/families/base.py)."""

    family = SWORDS  # the metric family (swords_metric/families/swords.py), as FamilyScorer.family

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
        references = ReferenceSplit.from_rows(rows, refuse_row)
        if split is None and config is None:
            config, split = shipped_split([target["id"] for target in references.targets]) or (None, None)
        self._build(references, k, split, setting, include_problematic, config)

    @classmethod
    def from_dataset(
        cls, config: str, split: str, k: int = 10, setting: str = "generative", include_problematic: bool = False
    ) -> Scorer | FamilyScorer:
        """The scorer of a shipped split, as `scorer_for(config, split, ...)` gives it: for the SWORDS metrics' configs
        a Scorer from the references prepared when the dataset was built (fast), else from its rows; for TSAR-2022's
        and ProLex's, their FamilyScorer. Joined splits ("dev+test", "trial+test") score their targets together, each as
        in its own split, predictions keyed by any of their ids; the signature says `split:dev+test`."""
        return scorer_for(config, split, k=k, setting=setting, include_problematic=include_problematic)

    @classmethod
    def from_references(
        cls, references: ReferenceSplit, k: int, split: str | None, setting: str, include_problematic: bool, config=None
    ) -> Scorer:
        """The scorer of references already prepared (a shipped split's, a subset of another scorer's)."""
        scorer = cls.__new__(cls)
        scorer._build(references, k, split, setting, include_problematic, config)
        return scorer

    def _build(self, references: ReferenceSplit, k, split, setting, include_problematic, config) -> None:
        """The one place a Scorer is set up, however its references were made."""
        setting = check_setting(setting)
        self.split_references, self.rows, self.problematic = references, references.targets, references.problematic
        self.k, self.split, self.setting, self.config = check_k(k), check_split_name(split), setting, config
        self.depth = max(self.k, max(CURVE_KS))  # how much of each ranking prepared predictions keep
        self.include_problematic = check_flag(include_problematic, "include_problematic")
        self.targets = targets = ScoredTargets.of(references, self.include_problematic, self.config, self.split)
        self.benchmark, self.skipped, self.references = targets.benchmark, targets.skipped, targets.references
        self.scored, self.index, self.position = targets.scored, targets.index, targets.index.position

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
        return self._prepared(predictions, source, self.depth, self._details(details, details_force))

    def read(
        self,
        path: str | Path,
        max_bytes: int = MAX_PREDICTIONS_BYTES,
        max_target_chars: int = MAX_TARGET_CHARS,
        source: str | None = None,
        details: str | Path | None = None,
        details_force: bool = False,
        partial: bool = False,
    ) -> PreparedPredictions:
        """A predictions file (upstream format or JSONL, gzipped or not; see swords_metric/predictions/files.py),
        read as a stream and prepared a target at a time: memory grows with the targets, not with the file. A file
        over max_bytes (uncompressed), or a target over max_target_chars of JSON, is refused. `details` and
        `details_force` as in prepare: the details file is written as the targets are read. `partial` is
        FamilyScorer.read's (a file keyed by id may always hold part of a split)."""
        file = PredictionFile(path, max_bytes, max_target_chars)
        source, targets = source or str(path), self.targets
        keyed = functools.partial(
            prepare_keyed, file, targets.references, targets.index, self.depth, source, self, file.duplicate
        )
        prepared = _with_details(self._details(details, details_force), targets, source, keyed)
        prepared.file_format, prepared.substitutes_lemmatized = file.format, file.substitutes_lemmatized
        return prepared

    def _prepared(self, predictions, source: str, depth: int, details=None) -> PreparedPredictions:
        """Predictions prepared `depth` deep: those this Scorer prepared already are returned as they are."""
        if isinstance(predictions, PreparedPredictions):
            if predictions.owner is not self:
                raise MetricInputError(f"{predictions.source}: prepared by another Scorer; prepare them with this one")
            if details is not None:
                raise MetricInputError(
                    f"{predictions.source}: already prepared; details are written while "
                    "predictions are prepared (pass details= to read or prepare)"
                )
            return predictions
        targets = self.targets
        given = functools.partial(
            prepare_given, predictions, targets.rows, targets.references, targets.index, depth, source, self
        )
        return _with_details(details, targets, source, given)

    def restricted_to_given(self, predictions: PreparedPredictions) -> tuple[Scorer, PreparedPredictions]:
        """A Scorer of just the targets these predictions name (the others left out rather than scored as
        empty answers), and the predictions prepared for it: e.g. a run over part of a split."""
        prepared = self.prepare(predictions)
        keep = [i for i, slot in enumerate(prepared.ranked) if slot is not None]
        if not keep:
            raise MetricInputError(
                f"{prepared.source} answers no target of {self.targets.index.where} ({len(prepared.ranked):,} "
                "targets), so --given-only has nothing to score"
            )
        subset = self.split_references.subset(keep)
        scorer = Scorer.from_references(subset, self.k, self.split, self.setting, self.include_problematic, self.config)
        return scorer, prepared.subset(keep, scorer)

    def judge(self, target_id: str, substitutes: Iterable[str]) -> list[Judgement]:
        """Each substitute against the target's gold, as the metric counts it: lemmatized under the target's
        POS, matched against the lemmas of the reference (judgements of a lemma's forms merged), classed with
        the benchmark's thresholds. Works for every target of the split, scored or left out."""
        from swords_metric.details.explain import judge_target

        return judge_target(self.targets, target_id, substitutes)

    # -- results --

    def signature(self, bootstrap: int = 0, seed: int | None = None, extra: tuple = ()) -> str:
        """Everything that decides the numbers (swords_metric/signature.py), so a reported figure is unambiguous;
        `extra` (key, value) settings go last (an extended gold's judgments: swords_metric/judgments/extended.py)."""
        settings = [
            ("setting", self.setting),
            ("k", self.k),
            ("acc", f">{ACCEPTABLE_ABOVE:g}"),
            ("conc", f">={CONCEIVABLE_FROM:g}"),
            ("lemma", LEMMATIZER),
            ("targets", sum(self.scored)),
        ]
        if any(self.problematic):
            settings.append(("problematic", "included" if self.include_problematic else "excluded"))
        signature = Signature(SWORDS.name, METRIC_VERSION, self.benchmark, self.split, (*settings, *extra))
        return str(signature.resampled(bootstrap, seed))

    def target_scores(self, predictions, source: str = "predictions") -> TargetScores:
        return score_targets(self.references, self.prepare(predictions, source).ranked, self.k)

    target_statistics = target_scores  # the interface's name (scorer_base.py): the per-target sums

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
        prepared, targets = self.prepare(predictions, source), self.targets
        scores = score_targets(targets.references, prepared.ranked, self.k)
        result: dict = scores.aggregate()
        result["targets_without_predictions"] = int(result["targets_without_predictions"])
        result["targets_scored"] = int(result["targets_scored"])
        result["targets_not_in_predictions"] = sum(targets.scored) - sum(_covered(targets, prepared))
        result["targets_skipped"] = sum(targets.skipped)
        result["predictions_for_skipped_targets"] = sum(
            skip and has for skip, has in zip(targets.skipped, prepared.given_mask(), strict=True)
        )
        result["id_scheme"] = prepared.scheme
        result["input_notes"] = asdict(prepared.notes)
        if by_pos:
            result["by_pos"] = {pos: dict(metrics) for pos, metrics in scores.by_pos().items()}
        if bootstrap:
            result["confidence_intervals"] = intervals(scores, bootstrap, seed)
        result["signature"] = self.signature(bootstrap, seed)
        result["unit"] = self.family.reader.scale  # percent
        return result

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

    def compare(
        self, predictions_a, predictions_b, bootstrap: int = 1000, seed: int = 0, sources: tuple[str, str] = ("A", "B")
    ) -> dict:
        """Paired bootstrap test (targets resampled jointly): per metric, A, B, their difference, its 95%
        interval and a two-sided p-value for 'no difference'; and how many targets each input covers."""
        bootstrap = check_resamples(bootstrap, MIN_PAIRED_RESAMPLES, "the paired test's bootstrap")
        seed = check_seed(seed)
        a, b = self.prepare(predictions_a, sources[0]), self.prepare(predictions_b, sources[1])
        targets = self.targets
        scores_a, scores_b = (score_targets(targets.references, p.ranked, self.k) for p in (a, b))
        coverage = self._coverage(sum(targets.scored), _covered(targets, a), _covered(targets, b))
        metrics = paired_test(scores_a, scores_b, scores_a.aggregate(), scores_b.aggregate(), bootstrap, seed)
        return {"a": sources[0], "b": sources[1], "metrics": metrics, "coverage": coverage,
                "signature": self.signature(bootstrap, seed), "unit": self.family.reader.scale}  # fmt: skip

    # -- what the metric counted (swords_metric/details/) --

    def analyze(self, predictions, worst: int = 5, relations: bool = True) -> dict:
        """What the system proposed, as plain data: per class and (`relations`) per WordNet relation, the counts and
        shares (percent) of its strict top-k substitutes over all targets (`all`), `by_pos` and `by_gold_size` (buckets
        of the number of acceptable substitutes), and its `worst_targets` with the acceptable substitutes they missed.
        See swords_metric/details/analysis.py; the class shares reproduce strict precision exactly. Relations load
        WordNet's graph (about 0.3 s, once a process)."""
        from swords_metric.details.analysis import analyze

        return analyze(self.targets, self.prepare(predictions).ranked, self.k, worst, relations)

    def target_details(self, predictions) -> list[dict]:
        """The per-target records of a details file (kind "target"), for every scored target in reference
        order: P/R/F@k per family, GAP, top-k lemmas, acceptable substitutes missed."""
        from swords_metric.details.explain import target_records

        return target_records(self.targets, self.prepare(predictions).ranked, self.k)

    def differences(self, predictions_a, predictions_b, n: int = 10) -> list[dict]:
        """The `n` targets where two systems differ most in per-target lenient F@k against acceptable, as
        records with both systems' figures and top-k lemmas (a comparison file's `pair` records)."""
        from swords_metric.details.analysis import differences

        return differences(self.targets, self.prepare(predictions_a, "A"), self.prepare(predictions_b, "B"), self.k, n)

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
        return write_comparison(self.targets, self._details(place, force), a.ranked, b.ranked, sources)

    def _details(self, path, force: bool) -> tuple | None:  # the file asked for (or None), its header's settings
        settings = {"config": self.config, "split": self.split, "setting": self.setting, "k": self.k}
        return None if path is None else (path, force, {**settings, "signature": self.signature()})


def _covered(targets: ScoredTargets, prepared: PreparedPredictions) -> list[bool]:
    """Per reference: scored, and given predictions (an empty list counts as given)."""
    return [scored and given for scored, given in zip(targets.scored, prepared.given_mask(), strict=True)]


def _with_details(request: tuple | None, targets: ScoredTargets, source: str, prepare) -> PreparedPredictions:
    """`prepare(observe)`, the details file `request` asks for (where, force, its header's settings; None: none)
    written while it prepares: finished, or dropped if preparing fails. The writer is imported only then."""
    if request is None:
        return prepare(None)
    from swords_metric.details.place import DetailsPlace, details_place
    from swords_metric.details.writer import DetailsStream

    path, force, settings = request
    place = path if isinstance(path, DetailsPlace) else details_place(path, force=force)
    stream = DetailsStream(targets, place, source, settings)
    try:
        prepared = prepare(stream.observe)
    except BaseException as error:
        stream.abort(error)
        raise
    stream.finish()
    prepared.details_file = stream.written()
    return prepared


def score(predictions, references: Iterable[Mapping], k: int = 10, include_problematic: bool = False, **kwargs) -> dict:
    """One call: score predictions (mapping by id, or a list per reference) against benchmark rows, with the metrics
    their benchmark's scorer (scorer_for) gives."""
    return scorer_for(references, k=k, include_problematic=include_problematic).score(predictions, **kwargs)
