"""A benchmark split as the metric holds it: what scoring reads of a row, each row's prepared reference, the targets
as a Scorer scores them (`ScoredTargets`, what the details and the judgments take instead of the Scorer), and which
shipped split given ids are."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from swords_metric.errors import MetricInputError, shown
from swords_metric.references.reference import Reference, prepare_reference
from swords_metric.references.target_ids import TargetIndex

# The columns of a benchmark row that scoring reads (and, of its substitutes and provenance, these fields).
REFERENCE_COLUMNS = ("id", "upstream_id", "benchmark", "target", "pos", "substitutes", "candidates", "provenance")
SUBSTITUTE_FIELDS = ("substitute", "labels", "votes_positive", "votes_total")
PROVENANCE_FIELDS = ("coinco_problematic",)
# What the Scorer keeps of each row once its reference is prepared (the target word: for the details).
TARGET_FIELDS = ("id", "upstream_id", "pos", "benchmark", "target")


def reference_substitutes(row: Mapping, position: int) -> list:
    """A row's `substitutes` as a list; a MetricInputError naming the row when they are missing, None (`datasets`
    fills a missing column so) or not a list of dicts."""
    substitutes = row.get("substitutes")
    if substitutes is None or isinstance(substitutes, str | bytes | Mapping) or not isinstance(substitutes, Iterable):
        name = row.get("id") if row.get("id") not in (None, "") else f"item {position}"
        got = "no 'substitutes'" if substitutes is None else f"'substitutes' is {shown(substitutes)}"
        raise MetricInputError(
            f"reference {name}: {got}; a benchmark row holds its gold substitutes (a list), "
            "so there is nothing to score it against"
        )
    substitutes = list(substitutes)
    for number, substitute in enumerate(substitutes):
        if not isinstance(substitute, Mapping):
            raise MetricInputError(
                f"reference {row.get('id')}: substitute {number} is {shown(substitute)}, expected "
                "a dict with 'substitute' (as swords_dataset gives them)"
            )
    return substitutes


def without_gold(ids: Sequence[str]) -> MetricInputError:
    """The error for references none of which has a gold substitute (every metric would be 0 over nothing)."""
    return MetricInputError(
        f"reference {ids[0]}: no gold substitutes, nor has any of the {len(ids):,} references; "
        "there is nothing to score against (give benchmark rows with their substitutes)"
    )


def _ids(row: Mapping) -> dict:
    return {"id": str(row["id"]), **{key: str(row.get(key) or "") for key in ("upstream_id", "benchmark")}}


def _substitutes(row: Mapping, position: int) -> list[dict]:
    return [{name: s.get(name) for name in SUBSTITUTE_FIELDS} for s in reference_substitutes(row, position)]


def reference_view(row: object, position: int, refuse_row=None) -> dict:
    """The fields the SWORDS metrics read of one benchmark row, normalised; a MetricInputError naming the row if it is
    not one (a row without a POS: by `refuse_row`, naming its family, if given)."""
    if not isinstance(row, Mapping):
        raise MetricInputError(
            f"references: item {position} is {shown(row)}, expected a benchmark row (a dict with "
            "'id', 'target', 'pos' and 'substitutes', as swords_dataset gives them)"
        )
    if row.get("id") is None or row.get("id") == "":
        raise MetricInputError(
            f"references: item {position} has no 'id' (give benchmark rows as swords_dataset gives them)"
        )
    view = _ids(row)
    for key in ("target", "pos"):
        if not isinstance(row.get(key), str):
            if refuse_row is not None:
                refuse_row(row)
            raise MetricInputError(f"reference {view['id']}: '{key}' must be a string, got {shown(row.get(key))}")
        view[key] = row[key]
    view["substitutes"] = _substitutes(row, position)
    view["candidates"] = list(row.get("candidates") or [])
    view["provenance"] = {"coinco_problematic": bool((row.get("provenance") or {}).get("coinco_problematic"))}
    return view


def family_reference_view(row: Mapping, position: int) -> dict:
    """The same fields of a TSAR-2022 or ProLex row (no POS, no candidates), for the `evaluate` module's store."""
    if not isinstance(row.get("target"), str):
        raise MetricInputError(f"reference {row.get('id')}: 'target' must be a string, got {shown(row.get('target'))}")
    view = {**_ids(row), "target": row["target"], "pos": "", "substitutes": _substitutes(row, position)}
    return {**view, "candidates": [], "provenance": {"coinco_problematic": False}}


@dataclass
class ReferenceSplit:
    """Per row, in order: its kept fields (`targets`), CoInCo's problematic flag, its prepared reference (or None)."""

    targets: list[dict]
    problematic: list[bool]
    references: list[Reference | None]

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping], refuse_row=None) -> ReferenceSplit:
        """Prepare every row's reference on the spot (lemmatizing its substitutes and candidates)."""
        if rows is None or isinstance(rows, str | bytes | Mapping) or not isinstance(rows, Iterable):
            raise MetricInputError(
                f"references: expected benchmark rows (a loaded split or a list of its rows), got {shown(rows)}"
            )
        targets, problematic, references = [], [], []
        for position, row in enumerate(rows):
            view = reference_view(row, position, refuse_row)
            targets.append({key: view[key] for key in TARGET_FIELDS})
            problematic.append(view["provenance"]["coinco_problematic"])
            references.append(prepare_reference(view))
        if not targets:
            raise MetricInputError("references: none given; score against a benchmark split's rows")
        if all(reference is None for reference in references):
            raise without_gold([target["id"] for target in targets])
        return cls(targets, problematic, references)

    @classmethod
    def joined(cls, parts: Sequence[ReferenceSplit]) -> ReferenceSplit:
        """Several splits as one, in order (e.g. CoInCo dev+test): each target scored as in its own split."""
        return cls(
            [t for p in parts for t in p.targets],
            [f for p in parts for f in p.problematic],
            [r for p in parts for r in p.references],
        )

    def subset(self, positions: Sequence[int]) -> ReferenceSplit:
        return ReferenceSplit(
            [self.targets[i] for i in positions],
            [self.problematic[i] for i in positions],
            [self.references[i] for i in positions],
        )


@dataclass(frozen=True)
class ScoredTargets:
    """Per target, in the split's order: its row's kept fields and prepared reference (`split`), the reference as
    scored (None where left out), whether it is `scored` (has gold lemmas) or `skipped` (problematic); the `index`
    by either id scheme; `benchmark`, the rows' benchmarks joined by "+" ("custom": none)."""

    split: ReferenceSplit
    references: list[Reference | None]
    scored: list[bool]
    skipped: list[bool]
    index: TargetIndex
    benchmark: str

    @classmethod
    def of(
        cls, split: ReferenceSplit, include_problematic: bool, config: str | None, name: str | None
    ) -> ScoredTargets:
        """The targets of `split` as scored: CoInCo's problematic ones left out (as upstream) or included."""
        benchmark = "+".join(sorted({row["benchmark"] for row in split.targets if row["benchmark"]})) or "custom"
        where = f"{config or benchmark}" + (f" {name}" if name else "")
        skipped = [flag and not include_problematic for flag in split.problematic]
        references = [None if skip else ref for ref, skip in zip(split.references, skipped, strict=True)]
        scored = [reference is not None and bool(reference.lemmas) for reference in references]
        index = TargetIndex([row["id"] for row in split.targets], [row["upstream_id"] for row in split.targets], where)
        return cls(split, references, scored, skipped, index, benchmark)

    @property
    def rows(self) -> list[dict]:
        """Each target's kept fields (split.py's TARGET_FIELDS)."""
        return self.split.targets

    def position(self, target_id: str) -> int | None:
        """Where a target is, named by its dataset id or its upstream id; None for neither."""
        return self.index.position.get(target_id, self.index.upstream_position.get(target_id))

    def find(self, target_id: str) -> int:
        """position, or a MetricInputError naming the target and the split."""
        position = self.position(target_id)
        if position is None:
            raise MetricInputError(f"no target {shown(target_id)} in {self.index.where}")
        return position

    def scored_positions(self) -> Iterator[int]:
        """The positions of the scored targets, in order."""
        return (position for position, scored in enumerate(self.scored) if scored)


def shipped_split(ids: Sequence[str]) -> tuple[str | None, str] | None:
    """(config, split) of the shipped split whose ids are exactly these (config None when several configs have them,
    as SWORDS test and its reannotation do), or of two splits joined; None when none is."""
    import swords_dataset

    sized = [(c, s) for c, splits in swords_dataset.CONFIGS.items() for s in splits if _size(c, s) == len(ids)]
    if not ids:
        return None
    if not sized:
        return joined_split(ids)
    exact = [
        (config, split)
        for config, split, column, hits in swords_dataset.locate_ids(ids, sample=len(ids))
        if column == "id" and hits == len(ids) and (config, split) in sized
    ]
    if not exact or len({split for _, split in exact}) > 1:
        return joined_split(ids)
    return (exact[0][0] if len(exact) == 1 else None), exact[0][1]


def joined_split(ids: Sequence[str]) -> tuple[str, str] | None:
    """(config, "dev+test") when the ids are exactly two shipped splits of one config, one after the other."""
    import swords_dataset

    for config, splits in swords_dataset.CONFIGS.items():
        for first, second in itertools.permutations(splits, 2):
            if _size(config, first) + _size(config, second) != len(ids):
                continue
            given = [
                swords_dataset.split_table(config, split, ["id"]).column("id").to_pylist() for split in (first, second)
            ]
            if given[0] + given[1] == list(ids):
                return config, f"{first}{swords_dataset.SPLIT_JOINER}{second}"
    return None


def _size(config: str, split: str) -> int:
    """The rows of a shipped split (its Parquet file's metadata)."""
    import pyarrow.parquet as pq

    import swords_dataset

    return pq.read_metadata(swords_dataset.DATASET_DIR / swords_dataset.parquet_path(config, split)).num_rows
