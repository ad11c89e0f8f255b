"""The one evaluation: predictions (or two runs, or a run with judgments and their tasks) in, one Evaluation out:
its figures, intervals, comparison, extended figures, notes, and how to present them. Every surface renders an
Evaluation and none re-orchestrates; the options are checked once, here, worded for the surface that asked (`style`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from swords_lexsub.terminal import shown
from swords_metric.errors import MetricInputError
from swords_metric.families import Family, decided
from swords_metric.metrics.bootstrap import MIN_PAIRED_RESAMPLES, check_resamples, check_seed
from swords_metric.options import check_family_options, check_flag, check_k, check_setting, check_split_name

BOOTSTRAP, WORST, DIFFERENCES = 1000, 5, 10  # resamples, worst targets, differences named when not given


@dataclass
class Evaluation:
    """One evaluation (see the module): `result`, one system's (the scorer's score, with `extended`, `judgments`,
    `analysis`, `targets_in_split` as they apply), or `comparison`, two systems' paired test (and `differences`)."""

    family: Family
    dataset: str | None
    split: str | None
    k: int
    setting: str
    source: str
    result: dict | None = None
    comparison: dict | None = None
    notes: list[str] = field(default_factory=list)
    details: tuple[Path, int] | None = None  # the details file written: where, how many records

    @property
    def unit(self) -> str:
        """What the figures are: "percent" (the SWORDS metrics) or "fraction (0-1)" (the official families')."""
        return self.family.reader.unit

    @property
    def targets(self) -> tuple[int, int]:
        """(targets scored, targets of the split): fewer scored with --given-only (a `swords run --limit`)."""
        result = self.result or {}
        scored = result.get("targets_scored", 0)
        return scored, result.get("targets_in_split", scored)

    @property
    def limited(self) -> bool:
        """Whether fewer targets were scored than the split holds (a partial run's figures: not comparable)."""
        scored, total = self.targets
        return scored < total

    def json(self, published: bool = False) -> dict:
        """What `--json` prints: the result (or the comparison), its unit among its keys."""
        if self.comparison is not None:
            return self.comparison
        result = dict(self.result)
        if published:
            from swords_metric.published import published_json

            result["published"] = published_json(self.result, self.dataset, self.split)
        return result

    def text(self, published: bool = False) -> str:
        """The report `swords evaluate` prints: the family's, then the extended gold, summary, published rows."""
        from swords_metric.report import format_analysis, format_comparison, format_differences

        if self.comparison is not None:
            blocks = [format_comparison(self.comparison, self.family.reader)]
            if self.comparison.get("differences") is not None:
                blocks.append(format_differences(self.comparison["differences"], self.k))
            return "\n\n".join(blocks)
        title = f"{self.source} on {self.dataset} {self.split}"
        blocks = [self.family.report(self.result, title, self.k, self.setting)]
        if "extended" in self.result:
            from swords_metric.judgments.extended import format_extended

            blocks.append(format_extended(self.result, self.k, self.setting))
        if self.result.get("analysis") is not None:
            blocks.append(format_analysis(self.result["analysis"]))
        if published:
            from swords_metric.published import format_published

            blocks.append(format_published(self.result, self.dataset, self.split, self.source))
        return "\n\n".join(blocks)


def evaluate(
    predictions=None,
    *,
    dataset: str | None = None,
    split: str | None = None,
    references: Iterable[Mapping] | None = None,
    scorer=None,
    family: Family | None = None,
    compare: tuple | None = None,
    judgments: Iterable[str | Path] | None = None,
    k: int = 10,
    setting: str = "generative",
    include_problematic: bool = False,
    bootstrap: int | None = None,
    seed: int = 0,
    given_only: bool = False,
    details=None,
    force: bool = False,
    analysis: bool = True,
    worst: int | None = None,
    relations: bool = False,
    differences: int | None = None,
    by_pos: bool = True,
    source: str | None = None,
    sources: tuple[str, str] | None = None,
    style: str = "api",
) -> Evaluation:
    """Evaluate `predictions` (a file's path, Python values, or predictions a scorer prepared), or the two runs of
    `compare`, on a benchmark split (`dataset` and `split`, or `references` rows, or a `scorer` made already), with
    the gold `judgments` extends when given. `bootstrap` None: the family's default (the SWORDS metrics draw 95%
    intervals, the official scorers none; a comparison draws 1,000). Options a family does not take are refused
    first, worded for `style` ("cli": swords evaluate's flags; "api": the Python API's names)."""
    family = decided(dataset, references, given=scorer.family if scorer is not None else family)
    asked = {"details": details, "force": force, "relations": relations, "no_analysis": not analysis}
    asked |= {"worst": worst, "differences": differences}
    k = check_options(family, style, dataset, k, setting, include_problematic, 0, seed, split, judgments, **asked)
    if bootstrap is None:
        bootstrap = family.default_bootstrap(BOOTSTRAP, compared=compare is not None)
    if scorer is None:
        from swords_metric.scorer import make_scorer

        rows_or_config = dataset if references is None else references
        scorer = make_scorer(rows_or_config, split, family, k, setting, include_problematic, dataset)
        if style == "cli" and include_problematic and not any(scorer.problematic):  # nothing for it to do
            raise MetricInputError(
                f"--include-problematic: {dataset} {split} has no problematic targets (only CoInCo flags any); leave "
                "the option out"
            )
    evaluation = Evaluation(family, dataset or scorer.config, split or scorer.split, scorer.k, setting, "")
    if compare is not None:
        return _compare(evaluation, scorer, compare, bootstrap, seed, details, differences, sources, style)
    evaluation.source = source or (str(predictions) if isinstance(predictions, str | Path) else "predictions")
    check_resamples(bootstrap, what="--bootstrap" if style == "cli" else "bootstrap")
    merged = None
    if judgments:  # read and checked before the run is
        from swords_metric.judgments.merge import merge_judgments

        merged = merge_judgments(scorer, [judgments] if isinstance(judgments, str | Path) else judgments)
    prepared = scorer.read_or_prepare(predictions, evaluation.source, details, force, given_only)
    evaluation.details = getattr(prepared, "details_file", None)
    split_targets = len(prepared.ranked)
    if given_only:
        scorer, prepared = scorer.restricted_to_given(prepared)
    result = scorer.score(prepared, bootstrap=bootstrap, seed=seed, by_pos=by_pos, source=evaluation.source)
    if merged is not None:
        from swords_metric.judgments.extended import extend_result

        extend_result(result, scorer, prepared, predictions, merged, references, bootstrap, seed, by_pos)
    if given_only:
        result["targets_in_split"] = split_targets  # so that a comparison with the whole split says so
    if analysis:
        relations = relations or details is not None  # with details, WordNet's graph is loaded already
        summary = family.analysis(scorer, prepared, WORST if worst is None else worst, relations)
        if summary is not None:
            result["analysis"] = summary
    evaluation.result, evaluation.notes = result, family.notes(result, evaluation.source)
    return evaluation


def check_options(
    family: Family,
    style: str,
    dataset: str | None = None,
    k: object = 10,
    setting: object = "generative",
    include_problematic: object = False,
    bootstrap: object = 0,
    seed: object = 0,
    split: object = None,
    judgments: object = None,
    **asked: object,
) -> int:
    """Every option of an evaluation, before any work: its kind, then whether `family` takes it. Returns k."""
    setting, k = check_setting(setting), check_k(k)
    include_problematic = check_flag(include_problematic, "include_problematic")
    check_family_options(family, style, dataset, **asked, include_problematic=include_problematic, setting=setting, k=k)
    check_resamples(bootstrap, what="--bootstrap" if style == "cli" else "bootstrap")
    check_seed(seed)
    check_split_name(split)
    if judgments is not None:
        from swords_metric.judgments.extended import check_judgments_option

        check_judgments_option(judgments, family, dataset)
    return k


def _compare(evaluation, scorer, paths, bootstrap, seed, details, differences, sources, style) -> Evaluation:
    what = "the paired test's --bootstrap" if style == "cli" else "the paired test's bootstrap"
    check_resamples(bootstrap, MIN_PAIRED_RESAMPLES, what)  # before reading
    sources = sources or tuple(str(path) for path in paths)
    # A file may hold part of the split (a TSAR-2022 .tsv its lines in any order, as tsar_eval.py reads it): the
    # targets it leaves out are scored without answers, and the coverage note says how many each covers.
    a, b = (scorer.read_or_prepare(path, source, given_only=True) for path, source in zip(paths, sources, strict=True))
    result = scorer.compare(a, b, bootstrap=bootstrap, seed=seed, sources=sources)
    coverage = result["coverage"]
    if not coverage["a"] == coverage["b"] == coverage["both"]:
        evaluation.notes.append(
            f"the files cover different targets ({sources[0]}: {coverage['a']:,}, {sources[1]}: "
            f"{coverage['b']:,}, both: {coverage['both']:,} of {coverage['targets_scored']:,}); a missing target is "
            "an empty answer"
        )
    listed = evaluation.family.differences(scorer, a, b, DIFFERENCES if differences is None else differences)
    if listed is not None:
        result["differences"] = listed
    if details is not None:
        records = scorer.write_comparison(details, a, b, sources=sources)
        evaluation.details = (getattr(details, "path", details), records)
    evaluation.comparison, evaluation.source = result, " vs ".join(shown(source) for source in sources)
    return evaluation
