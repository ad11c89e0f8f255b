"""Writing details files as a Scorer prepares predictions (DetailsStream: a target's records go out as soon as
it is prepared, so memory does not grow with the file), and the comparison file of two systems."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from swords_metric.details.columns import COMPARISON, DETAILS, PAIR_FIGURES, SUBSTITUTE_FIELDS, TARGET_FIELDS
from swords_metric.details.explain import ranked_or_none, substitute_records, target_figures, target_record
from swords_metric.details.formats import DetailsWriter
from swords_metric.details.place import DetailsPlace
from swords_metric.metrics.ranking import PR_FAMILY_NAMES, RankedPrediction
from swords_metric.wordnet.relations import target_relations


def _header(scorer, sources: dict) -> dict:
    return {
        **sources,
        "config": scorer.config,
        "split": scorer.split,
        "setting": scorer.setting,
        "k": scorer.k,
        "signature": scorer.signature(),
    }


class DetailsStream:
    """A details file written while a Scorer prepares one system's predictions: `observe` each prepared
    target (its substitute records, then its target record), `finish` (target records of the scored targets
    the input did not name, then the file is put in place) or `abort`."""

    def __init__(self, scorer, place: DetailsPlace, source: str) -> None:
        self.scorer = scorer
        fields = {
            "substitute": ["kind", "id", "upstream_id", "target", "pos", *SUBSTITUTE_FIELDS],
            "target": ["kind", "id", "upstream_id", "target", "pos", *TARGET_FIELDS],
        }
        self.writer = DetailsWriter(
            place.path,
            DETAILS,
            {**_header(scorer, {"predictions": source}), "fields": fields},
            on_complete=place.record,
        )
        self.observed = bytearray(len(scorer.rows))

    def observe(self, position: int, pairs: list, ranked: RankedPrediction) -> None:
        scorer = self.scorer
        row, reference = scorer.rows[position], scorer.references[position]
        relations = target_relations(reference.target_lemma, reference.pos)
        counted = 0
        for record in substitute_records(row, reference, pairs, scorer.k, relations):
            counted += record["rank"] is not None
            self.writer.write(record)
        self._target(position, ranked, len(pairs), counted)
        self.observed[position] = 1

    def _target(self, position: int, ranked: RankedPrediction | None, given: int, counted: int) -> None:
        scorer = self.scorer
        record = target_record(scorer.rows[position], scorer.references[position], ranked, scorer.k)
        self.writer.write({**record, "substitutes_given": given, "substitutes_counted": counted})

    def finish(self) -> None:
        for position, scored in enumerate(self.scorer.scored):
            if scored and not self.observed[position]:
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


def pair_records(scorer, ranked_a: Sequence, ranked_b: Sequence):
    """pair_record of every scored target, in reference order."""
    for position, scored in enumerate(scorer.scored):
        if scored:
            yield pair_record(
                scorer.rows[position],
                scorer.references[position],
                ranked_or_none(ranked_a[position]),
                ranked_or_none(ranked_b[position]),
                scorer.k,
            )


def write_comparison(
    scorer, place: DetailsPlace, ranked_a: Sequence, ranked_b: Sequence, sources: tuple[str, str]
) -> int:
    """The comparison file: one pair record per scored target. Returns how many were written."""
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
        **_header(scorer, {"a": sources[0], "b": sources[1]}),
        "fields": fields,
        "families": list(PR_FAMILY_NAMES),
    }
    with DetailsWriter(place.path, COMPARISON, header, on_complete=place.record) as writer:
        for record in pair_records(scorer, ranked_a, ranked_b):
            writer.write(record)
    return writer.records
