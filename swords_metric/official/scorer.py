"""The scorer of a benchmark with its own official metrics (TSAR-2022, ProLex), as `scorer_for` gives it. A target
missing from the predictions is an instance without answers (0 in every metric, counted in the mean), as tsar_eval.py
scores a line without answers and evaluate.py an empty answer list; tsar_eval.py itself scores only the lines its
file holds (restricted_to_given does that). Figures are fractions (0–1), as both official scorers print them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from swords_dataset import SPLIT_JOINER
from swords_metric.errors import MetricInputError, shown
from swords_metric.families import Family, one_family, rows_family
from swords_metric.families.base import ScorerBase
from swords_metric.metrics.bootstrap import (
    MIN_PAIRED_RESAMPLES,
    check_resamples,
    check_seed,
    intervals,
    paired_test,
)
from swords_metric.official.answers import Answers, prepare_answers, read_answers
from swords_metric.options import check_k
from swords_metric.predictions.files import MAX_PREDICTIONS_BYTES, MAX_TARGET_CHARS
from swords_metric.references.split import reference_substitutes, without_gold
from swords_metric.references.target_ids import TargetIndex
from swords_metric.signature import Signature

FAMILY_METRIC_VERSION = "1.0"


class FamilyScorer(ScorerBase):
    """The rows of one split of a TSAR-2022 or ProLex config, scoring any number of systems."""

    def __init__(
        self,
        rows: Iterable[Mapping],
        config: str | None = None,
        split: str | None = None,
        k: int = 10,
        family: Family | None = None,
    ):
        """The scorer of a TSAR-2022 or ProLex split's rows; `family`: as the registry decided it (else by the rows)."""
        if rows is None or isinstance(rows, str | bytes | Mapping) or not isinstance(rows, Iterable):
            raise MetricInputError(
                f"references: expected benchmark rows (a loaded split or a list of its rows), got {shown(rows)}"
            )
        k = check_k(k)
        self.rows = []
        for position, row in enumerate(rows):
            if not isinstance(row, Mapping) or not row.get("id"):
                raise MetricInputError(
                    f"references: item {position} is {shown(row)}, expected a benchmark row with an 'id'"
                )
            self.rows.append({key: row.get(key) for key in ("id", "upstream_id", "benchmark", "target", "context")})
            self.rows[-1]["substitutes"] = reference_substitutes(row, position)
        if not self.rows:
            raise MetricInputError("references: none given; score against a benchmark split's rows")
        self.config = config or _one_config(self.rows)
        # Else the split the rows' ids name; several, in the order they come, joined ("trial+test").
        self.split = split or SPLIT_JOINER.join(dict.fromkeys(p[1] for p in map(_id_parts, self.rows) if p)) or None
        self.family = family or rows_family(self.rows)[1]
        one_family(self.rows, self.family)
        self.k = int(k)
        self.where = where = f"{self.config or self.family}" + (f" {self.split}" if self.split else "")
        self.family.check_k(self.k)
        if not any(row["substitutes"] for row in self.rows):
            raise without_gold([str(row["id"]) for row in self.rows])
        self.index = TargetIndex(
            [str(row["id"]) for row in self.rows], [str(row["upstream_id"] or "") for row in self.rows], where
        )
        self.golds = self.family.golds(self.rows, where)

    def prepare(self, predictions, source: str = "predictions") -> Answers:
        """Predictions in any form (see the module), kept per row as the metrics read them (answers.py)."""
        if isinstance(predictions, Answers):
            if predictions.owner is not self:
                raise MetricInputError(f"{predictions.source}: read by another scorer; read them with this one")
            return predictions
        return prepare_answers(self, predictions, source)

    def read(
        self,
        path: str | Path,
        max_bytes: int = MAX_PREDICTIONS_BYTES,
        max_target_chars: int = MAX_TARGET_CHARS,
        source: str | None = None,
        partial: bool = False,
        details: None = None,
        details_force: bool = False,
    ) -> Answers:
        """A predictions file, its format chosen by its extension: the benchmark's official format (TSAR .tsv, ProLex
        .csv; .gz too) or JSONL / upstream JSON, streamed: at most max_bytes (after decompression) and
        max_target_chars for one target. `partial`: a TSV may hold any of the split's lines, in any order (as
        tsar_eval.py reads it). `details` and `details_force` are Scorer.read's (the options refuse them here)."""
        path = Path(path)
        return read_answers(self, path, max_bytes, max_target_chars, source or str(path), partial)

    def restricted_to_given(self, predictions) -> tuple[FamilyScorer, Answers]:
        """A scorer of just the rows these predictions name, and the predictions prepared for it."""
        answers = self.prepare(predictions)
        keep = [i for i, items in enumerate(answers.ranked) if items is not None]
        if not keep:
            raise MetricInputError(
                f"{answers.source} answers no target of {self.where} ({len(self.rows):,} "
                "targets), so there is nothing to score with only the targets it answers "
                "(--given-only)"
            )
        kept = [self.rows[i] for i in keep]
        scorer = FamilyScorer(kept, config=self.config, split=self.split, k=self.k, family=self.family)
        return scorer, answers.subset(keep, scorer)

    def target_statistics(self, predictions) -> list[tuple[dict[str, list[float]], object]]:
        """Per instance, the statistics the figures are computed from, in groups (each with its figures from sums)."""
        return self.family.statistics(self.golds, self.prepare(predictions).ranked, self.k)

    def signature(self, bootstrap: int = 0, seed: int | None = None) -> str:
        """Everything that decides the numbers (swords_metric/signature.py)."""
        settings = self.family.signature_settings(self.k, len(self.rows))
        name = self.family.name
        signature = Signature(name, FAMILY_METRIC_VERSION, self.config or name, self.split, settings)
        return str(signature.resampled(bootstrap, seed))

    def score(
        self, predictions, bootstrap: int = 0, seed: int = 0, by_pos: bool = True, source: str = "predictions"
    ) -> dict:
        """The family's official metrics (fractions), the counts, and the signature. TSAR-2022: acc@1,
        acc@{1,2,3}@top1, map@{3,5,10}, potential@{3,5,10}, and `official`: the figures floored to 4 decimals under
        tsar_eval.py's names, as it prints them; `input_notes`: answers dropped, targets past the answer limit.
        ProLex: {acc,prof}_{p,r,f}@k and how many instances each counts (those with such gold). With bootstrap > 0,
        `confidence_intervals`: 95% intervals from resampling instances (seeded); `by_pos` is accepted for the
        Scorer's signature (these benchmarks give no POS)."""
        bootstrap, seed = check_resamples(bootstrap), check_seed(seed)
        answers = self.prepare(predictions, source)
        result: dict = {"family": self.family.name}
        drawn = intervals(self.target_statistics(answers), bootstrap, seed) if bootstrap else None
        result.update(self.family.figures(self.golds, answers, self.k, drawn))
        result["targets_scored"] = len(self.rows)
        result["targets_without_predictions"] = answers.without_answers
        result["targets_not_in_predictions"] = len(self.rows) - answers.given
        result["signature"] = self.signature(bootstrap, seed)
        result["unit"] = self.family.reader.scale  # fraction
        return result

    def compare(
        self, predictions_a, predictions_b, bootstrap: int = 1000, seed: int = 0, sources: tuple[str, str] = ("A", "B")
    ) -> dict:
        """Paired bootstrap test, as Scorer.compare's: per metric, A, B, difference, 95% interval, p-value; coverage."""
        bootstrap = check_resamples(bootstrap, MIN_PAIRED_RESAMPLES, "the paired test's bootstrap")
        seed = check_seed(seed)
        a, b = self.prepare(predictions_a, sources[0]), self.prepare(predictions_b, sources[1])
        observed = [self.family.figures(self.golds, answers, self.k, None) for answers in (a, b)]
        statistics = [self.target_statistics(answers) for answers in (a, b)]
        metrics = paired_test(*statistics, *observed, bootstrap, seed)
        given_a, given_b = ([items is not None for items in answers.ranked] for answers in (a, b))
        coverage = self._coverage(len(self.rows), given_a, given_b)
        metrics = {key: metrics[key] for key in self.family.keys(self.k)}  # in a report's order
        result = {"a": sources[0], "b": sources[1], "metrics": metrics}
        if "official" in observed[0]:  # TSAR-2022: each file's figures as tsar_eval.py prints them, as score gives
            result["official"] = {"a": observed[0]["official"], "b": observed[1]["official"]}
        unit = self.family.reader.scale
        return result | {"coverage": coverage, "signature": self.signature(bootstrap, seed), "unit": unit}


def _id_parts(row: Mapping) -> list[str]:
    parts = str(row["id"]).split(":")
    return parts if len(parts) > 2 else []  # "config:split:n", as swords_dataset writes these benchmarks' ids


def _one_config(rows: list[dict]) -> str | None:
    """The config the rows' ids name (None for other ids); rows of several configs are refused (one benchmark)."""
    first = None
    for position, parts in enumerate(map(_id_parts, rows)):
        if parts and first is None:
            first = parts[0]
        elif parts and parts[0] != first:
            raise MetricInputError(
                f"reference {shown(rows[position]['id'])} (item {position}) is a row of {parts[0]}, "
                f"the rows before it of {first}; score one benchmark at a time"
            )
    return first
