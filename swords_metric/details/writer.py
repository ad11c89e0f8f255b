"""Details files written as a Scorer prepares predictions (a target's records go out as soon as it is prepared, so
memory does not grow with the file), and the comparison file of two systems."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from swords_metric.details.explain import ranked_or_none, row_fields, substitute_records, target_figures, target_record
from swords_metric.details.formats import (
    COMMON_FIELDS,
    COMPARISON,
    DETAILS,
    PAIR_FIELDS,
    PAIR_FIGURES,
    SUBSTITUTE_FIELDS,
    TARGET_FIELDS,
    DetailsWriter,
)
from swords_metric.details.place import DetailsPlace
from swords_metric.metrics.ranking import PR_FAMILY_NAMES, RankedPrediction
from swords_metric.references.split import ScoredTargets
from swords_metric.wordnet.relations import target_relations


class DetailsStream:
    """A details file written as a Scorer prepares one system's predictions: `observe`, then `finish` or `abort`."""

    def __init__(self, targets: ScoredTargets, place: DetailsPlace, source: str, settings: dict) -> None:
        self.targets, self.k = targets, settings["k"]
        fields = {"substitute": [*COMMON_FIELDS, *SUBSTITUTE_FIELDS], "target": [*COMMON_FIELDS, *TARGET_FIELDS]}
        self.writer = DetailsWriter(
            place.path,
            DETAILS,
            {"predictions": source, **settings, "fields": fields},
            on_complete=place.record,
        )
        self.observed = bytearray(len(targets.rows))

    def observe(self, position: int, pairs: list, ranked: RankedPrediction) -> None:
        row, reference = self.targets.rows[position], self.targets.references[position]
        relations = target_relations(reference.target_lemma, reference.pos)
        counted = 0
        for record in substitute_records(row, reference, pairs, self.k, relations):
            counted += record["rank"] is not None
            self.writer.write(record)
        self._target(position, ranked, len(pairs), counted)
        self.observed[position] = 1

    def _target(self, position: int, ranked: RankedPrediction | None, given: int, counted: int) -> None:
        record = target_record(self.targets.rows[position], self.targets.references[position], ranked, self.k)
        self.writer.write({**record, "substitutes_given": given, "substitutes_counted": counted})

    def finish(self) -> None:
        for position in self.targets.scored_positions():
            if not self.observed[position]:
                self._target(position, None, 0, 0)
        self.writer.close()

    def abort(self, error: BaseException) -> None:
        self.writer.abort(error)

    def written(self) -> tuple[Path, int]:
        """Where the finished file is, and how many records it holds."""
        return self.writer.path, self.writer.records


def pair_record(row, reference, ranked_a: RankedPrediction | None, ranked_b: RankedPrediction | None, k: int) -> dict:
    """One target's figures under two systems (`a_…`, `b_…`) and `difference`: A's lenient F@k A minus B's."""
    record = row_fields(row, "pair")
    sides = {}
    for side, ranked in (("a", ranked_a), ("b", ranked_b)):
        figures = target_figures(reference, ranked, k)
        figures["top"] = list(ranked.top[:k]) if ranked is not None else []
        sides[side] = {
            f"{side}_in_predictions": ranked is not None,
            **{f"{side}_{name}": figures[name] for name in PAIR_FIGURES},
        }
    record["difference"] = sides["a"]["a_lenient_a_f"] - sides["b"]["b_lenient_a_f"]
    return {**record, **sides["a"], **sides["b"]}


def pair_records(targets: ScoredTargets, ranked_a: Sequence, ranked_b: Sequence, k: int):
    """pair_record of every scored target, in reference order."""
    for position in targets.scored_positions():
        yield pair_record(
            targets.rows[position],
            targets.references[position],
            ranked_or_none(ranked_a[position]),
            ranked_or_none(ranked_b[position]),
            k,
        )


def write_comparison(
    targets: ScoredTargets, request: tuple, ranked_a: Sequence, ranked_b: Sequence, sources: tuple[str, str]
) -> int:
    """The comparison file `request` (DetailsPlace, force, header settings) asks for; how many records it holds."""
    place, _, settings = request
    fields = {"pair": [*COMMON_FIELDS, *PAIR_FIELDS]}
    header = {"a": sources[0], "b": sources[1], **settings, "fields": fields, "families": list(PR_FAMILY_NAMES)}
    with DetailsWriter(place.path, COMPARISON, header, on_complete=place.record) as writer:
        for record in pair_records(targets, ranked_a, ranked_b, settings["k"]):
            writer.write(record)
    return writer.records
