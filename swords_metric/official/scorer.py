"""The scorer of a benchmark with its own official metrics (TSAR-2022, ProLex): `scorer_for` (swords_metric/scorer.py)
gives one of these for such a config or its rows, to `Scorer.from_dataset`, the `evaluate` module and `swords evaluate`.

Predictions come in every form the SWORDS scorer reads (a mapping from target id, or one list per row; strings
ranked by position, [substitute, score] pairs or {"substitute", "score"} objects ranked by score, ties in the
order given; JSONL and upstream-format files) and in the benchmark's official format (TSAR's .tsv, ProLex's
.csv, matched to the rows by line order and checked line by line): answers.py reads them. A target missing
from the predictions is an instance without answers (0 in every metric, counted in the mean), as tsar_eval.py
scores a line without answers and evaluate.py an empty answer list; tsar_eval.py itself scores only the lines its
file holds (restricted_to_given does that). Figures are fractions (0–1), as both official scorers print them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from swords_dataset import SPLIT_JOINER
from swords_metric.arguments import check_flag, check_k
from swords_metric.errors import MetricInputError, shown
from swords_metric.metrics.bootstrap import check_resamples, check_seed
from swords_metric.official.answers import MAX_ANSWERS_KEPT, Answers, prepare_answers, read_answers
from swords_metric.official.bootstrap import mean_intervals, ratio_intervals
from swords_metric.official.prolex import PROLEX_ASPECTS, prolex_counts, prolex_figures, prolex_gold, prolex_scores
from swords_metric.official.tsar2022 import TsarGold, official_figures, tsar_instance_values, tsar_scores
from swords_metric.predictions.files import MAX_PREDICTIONS_BYTES, MAX_TARGET_CHARS
from swords_metric.references.metric_family import PROLEX, SWORDS, TSAR2022, metric_family, row_family
from swords_metric.references.split import reference_substitutes, without_gold
from swords_metric.references.target_ids import TargetIndex
from swords_metric.signature import Signature

FAMILY_METRIC_VERSION = "1.0"
# What each family's figures reproduce: the official scorer, at the commit the shared data pins.
OFFICIAL_SCORERS = {TSAR2022: "tsar_eval.py@089c266", PROLEX: "evaluate.py@f54ba0f:hard"}


class FamilyScorer:
    """The rows of one split of a TSAR-2022 or ProLex config, scoring any number of systems."""

    def __init__(self, rows: Iterable[Mapping], config: str | None = None, split: str | None = None, k: int = 10):
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
        families = {row_family(row) for row in self.rows}
        self.config = config or _one_config(self.rows)
        self.split = split or _split_of(self.rows)
        self.family = metric_family(self.config) if self.config else families.pop()
        if families - {self.family}:
            raise MetricInputError(f"references: rows of several metric families ({', '.join(sorted(families))})")
        self.k = int(k)
        self.where = where = f"{self.config or self.family}" + (f" {self.split}" if self.split else "")
        if self.family == PROLEX and self.k > MAX_ANSWERS_KEPT:
            raise MetricInputError(
                f"k {self.k}: ProLex's metrics read a target's first k answers, and at most "
                f"{MAX_ANSWERS_KEPT:,} are kept of a target; give k up to {MAX_ANSWERS_KEPT:,}"
            )
        if not any(row["substitutes"] for row in self.rows):
            raise without_gold([str(row["id"]) for row in self.rows])
        self.index = TargetIndex(
            [str(row["id"]) for row in self.rows], [str(row["upstream_id"] or "") for row in self.rows], where
        )
        if self.family == TSAR2022:
            self.golds = [TsarGold.from_row(row) for row in self.rows]
        elif self.family == PROLEX:
            self.golds = [prolex_gold(row) for row in self.rows]
        else:
            raise MetricInputError(f"references: {where} is scored with the SWORDS metrics (swords_metric.Scorer)")
        check_family_options(self.family, self.k)

    # -- predictions --

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
    ) -> Answers:
        """A predictions file, its format chosen by its extension: the benchmark's official format (TSAR .tsv, ProLex
        .csv; .gz too) or JSONL / upstream JSON. Every format is streamed: at most max_bytes (after decompression)
        and max_target_chars for one target (a JSONL line, a TSV line). `partial`: a TSV may hold any of the split's
        lines, in any order (as tsar_eval.py reads it); the others are not in the predictions."""
        path = Path(path)
        return read_answers(self, path, max_bytes, max_target_chars, source or str(path), partial)

    def restricted_to_given(self, predictions) -> tuple[FamilyScorer, Answers]:
        """A scorer of just the rows these predictions name (the others left out rather than scored as empty
        answers), and the predictions prepared for it: e.g. a run over the first targets of a split."""
        answers = self.prepare(predictions)
        keep = [i for i, items in enumerate(answers.ranked) if items is not None]
        if not keep:
            raise MetricInputError(
                f"{answers.source} answers no target of {self.where} ({len(self.rows):,} "
                "targets), so there is nothing to score with only the targets it answers "
                "(--given-only)"
            )
        scorer = FamilyScorer([self.rows[i] for i in keep], config=self.config, split=self.split, k=self.k)
        return scorer, answers.subset(keep, scorer)

    # -- results --

    def signature(self, bootstrap: int = 0, seed: int | None = None) -> str:
        """Everything that decides the numbers (swords_metric/signature.py): the family, its official scorer, k
        where the family's metrics take one (ProLex), the targets; and the resamples, with `bootstrap`."""
        settings: list[tuple[str, object]] = [("family", self.family)]
        if self.family == PROLEX:
            settings.append(("k", self.k))
        settings += [("scorer", OFFICIAL_SCORERS[self.family]), ("match", "exact"), ("scale", "fraction")]
        settings.append(("targets", len(self.rows)))
        signature = Signature(
            self.family, FAMILY_METRIC_VERSION, self.config or self.family, self.split, tuple(settings)
        )
        return str(signature.resampled(bootstrap, seed))

    def score(
        self, predictions, bootstrap: int = 0, seed: int = 0, by_pos: bool = True, source: str = "predictions"
    ) -> dict:
        """The family's official metrics (fractions), the counts, and the signature. TSAR-2022: acc@1,
        acc@{1,2,3}@top1, map@{3,5,10}, potential@{3,5,10}, and `official`: the figures floored to 4 decimals under
        tsar_eval.py's names, as it prints them for a file of every scored instance (one not in the predictions as
        a line without answers); `input_notes`: answers dropped as it drops them, targets with more answers than
        are kept. ProLex: {acc,prof}_{p,r,f}@k, against the acceptable and
        the proficiency-oriented substitutes, and how many instances each counts (those with such gold). With
        bootstrap > 0, `confidence_intervals`: 95% intervals of every metric from resampling instances (seeded);
        `by_pos` is accepted for the Scorer's signature (these benchmarks give no POS)."""
        bootstrap, seed = check_resamples(bootstrap), check_seed(seed)
        answers = self.prepare(predictions, source)
        result: dict = {"family": self.family}
        if self.family == TSAR2022:
            figures = tsar_scores(self.golds, answers.ranked)
            result.update(figures)
            if bootstrap:
                result["confidence_intervals"] = mean_intervals(
                    tsar_instance_values(self.golds, answers.ranked), bootstrap, seed
                )
            result["official"] = official_figures(figures)
            result["input_notes"] = {
                "complex_word_or_repeat_dropped": sum(answers.dropped),
                "targets_past_answer_limit": sum(answers.cut),
            }
        else:
            for aspect in PROLEX_ASPECTS:
                golds = [gold[aspect] for gold in self.golds]
                p, r, f = prolex_scores(golds, answers.ranked, self.k)
                result.update({f"{aspect}_p@{self.k}": p, f"{aspect}_r@{self.k}": r, f"{aspect}_f@{self.k}": f})
                result[f"targets_scored_{aspect}"] = sum(1 for gold in golds if gold)
                if bootstrap:
                    names = [f"{aspect}_{m}@{self.k}" for m in "prf"]
                    intervals = ratio_intervals(
                        prolex_counts(golds, answers.ranked, self.k),
                        lambda sums, names=names: dict(zip(names, prolex_figures(**sums), strict=True)),
                        bootstrap,
                        seed,
                    )
                    result.setdefault("confidence_intervals", {}).update(intervals)
        result["targets_scored"] = len(self.rows)
        result["targets_without_predictions"] = answers.without_answers
        result["targets_not_in_predictions"] = len(self.rows) - answers.given
        result["signature"] = self.signature(bootstrap, seed)
        return result


def check_family_options(
    family: str, k: object = 10, setting: object = "generative", include_problematic: object = False
) -> None:
    """The Python API's options as a family's metrics take them, one MetricInputError naming the option (as
    `swords evaluate` refuses the same options, swords_metric/official/cli.py): checked before any work."""
    k, include_problematic = check_k(k), check_flag(include_problematic, "include_problematic")
    if family == SWORDS:
        return
    if setting != "generative":
        raise MetricInputError(
            f"setting {setting!r}: the {family} metrics score a system's ranked answers "
            "(generative); the ranking setting is the SWORDS metrics'"
        )
    if include_problematic:
        raise MetricInputError(f"include_problematic: only CoInCo flags problematic targets, not {family}")
    if family == TSAR2022 and k != 10:
        raise MetricInputError(
            f"k={k}: TSAR-2022's metrics have their own cut-offs (ACC@1, ACC@k@Top1 at 1-3, MAP@k "
            "and Potential@k at 3, 5, 10); leave k out"
        )


def _id_parts(row: Mapping) -> list[str]:
    parts = str(row["id"]).split(":")
    return parts if len(parts) > 2 else []  # "config:split:n", as swords_dataset writes these benchmarks' ids


def _one_config(rows: list[dict]) -> str | None:
    """The config the rows' ids name (None for other ids); rows of several configs are refused: each is its own
    language and its own official figures, and a signature names one benchmark."""
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


def _split_of(rows: list[dict]) -> str | None:
    """The split the rows' ids name; several, in the order they come, as a joined split ("trial+test")."""
    splits = list(dict.fromkeys(parts[1] for parts in map(_id_parts, rows) if parts))
    return SPLIT_JOINER.join(splits) or None
