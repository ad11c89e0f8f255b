"""Writing details files as a Scorer prepares predictions (DetailsStream: a target's records go out as soon as
it is prepared, so memory does not grow with the file), and the comparison file of two systems. Each reads the split's
targets as scored (ScoredTargets) and the Scorer's settings its header states (config, split, setting, k, signature;
k is also the cut-off of its records)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from swords_metric.details.columns import COMPARISON, DETAILS, PAIR_FIGURES, SUBSTITUTE_FIELDS, TARGET_FIELDS
from swords_metric.details.explain import ranked_or_none, substitute_records, target_figures, target_record
from swords_metric.details.formats import DetailsWriter
from swords_metric.details.place import DetailsPlace
from swords_metric.metrics.ranking import PR_FAMILY_NAMES, RankedPrediction
from swords_metric.references.scored import ScoredTargets
from swords_metric.wordnet.relations import target_relations


class DetailsStream:
    """A details file written while a Scorer prepares one system's predictions: `observe` each prepared
    target (its substitute records, then its target record), `finish` (target records of the scored targets
    the input did not name, then the file is put in place) or `abort`."""

    def __init__(self, targets: ScoredTargets, place: DetailsPlace, source: str, settings: dict) -> None:
        self.targets, self.k = targets, settings["k"]
        fields = {
            "substitute": ["kind", "id", "upstream_id", "target", "pos", *SUBSTITUTE_FIELDS],
            "target": ["kind", "id", "upstream_id", "target", "pos", *TARGET_FIELDS],
        }
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
    """One target's figures under two systems (`a_…`, `b_…`: PAIR_FIGURES and whether the input named it) and
    `difference`, A's per-target lenient F@k against acceptable minus B's."""
    record = {
        "kind": "pair",
        "id": row["id"],
        "upstream_id": row.get("upstream_id"),
        "target": row["target"],
        "pos": row.get("pos"),
    }
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
    """The comparison file `request` asks for (its path, a DetailsPlace checked before the predictions were
    prepared; force; its header's settings): one pair record per scored target at its settings' k. Returns how
    many were written."""
    place, _, settings = request
    fields = {
        "pair": [
            "kind",
            "id",
            "upstream_id",
            "target",
            "pos",
            "difference",
            *(f"{side}_{name}" for side in "ab" for name in ("in_predictions", *PAIR_FIGURES)),
        ]
    }
    header = {
        "a": sources[0],
        "b": sources[1],
        **settings,
        "fields": fields,
        "families": list(PR_FAMILY_NAMES),
    }
    with DetailsWriter(place.path, COMPARISON, header, on_complete=place.record) as writer:
        for record in pair_records(targets, ranked_a, ranked_b, settings["k"]):
            writer.write(record)
    return writer.records
