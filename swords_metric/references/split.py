"""A benchmark split as the metric holds it: what scoring reads of a row, and each row's prepared reference.

The Scorer is built from a ReferenceSplit, whichever way it was made: from rows (`ReferenceSplit.from_rows`,
lemmatizing on the spot) or from the file prepared when the dataset was built (swords_metric/references/shipped.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from swords_metric.errors import MetricInputError, shown
from swords_metric.references.reference import Reference, prepare_reference

# The columns of a benchmark row that scoring reads (and, of its substitutes and provenance, these fields):
# the one statement of it, for the Scorer, the prepared file and the `evaluate` module's features.
REFERENCE_COLUMNS = ("id", "upstream_id", "benchmark", "target", "pos", "substitutes", "candidates", "provenance")
SUBSTITUTE_FIELDS = ("substitute", "labels", "votes_positive", "votes_total")
PROVENANCE_FIELDS = ("coinco_problematic",)
# What the Scorer keeps of each row once its reference is prepared (the target word: for the details).
TARGET_FIELDS = ("id", "upstream_id", "pos", "benchmark", "target")


def reference_substitutes(row: Mapping, position: int) -> list:
    """A row's `substitutes` as a list; a MetricInputError naming the row when it has none to give: missing or None
    (a table without the column, which `datasets` fills with None from a card's features) or not a list."""
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


def reference_view(row: object, position: int, refuse_row=None) -> dict:
    """The fields the SWORDS metrics read of one benchmark row, normalised (ids and benchmark as strings, lists for
    the substitutes and candidates); a MetricInputError naming the row if it is not one. A TSAR-2022 or ProLex row
    (no POS) is refused: the SWORDS metrics do not apply (the `evaluate` module's view of those rows is
    family_reference_view); `refuse_row` says so, naming the row's family (swords_metric.families.refuse_row)."""
    if not isinstance(row, Mapping):
        raise MetricInputError(
            f"references: item {position} is {shown(row)}, expected a benchmark row (a dict with "
            "'id', 'target', 'pos' and 'substitutes', as swords_dataset gives them)"
        )
    if row.get("id") is None or row.get("id") == "":
        raise MetricInputError(
            f"references: item {position} has no 'id' (give benchmark rows as swords_dataset gives them)"
        )
    view = {
        "id": str(row["id"]),
        "upstream_id": str(row.get("upstream_id") or ""),
        "benchmark": str(row.get("benchmark") or ""),
    }
    for key in ("target", "pos"):
        if not isinstance(row.get(key), str):
            if refuse_row is not None:
                refuse_row(row)
            raise MetricInputError(f"reference {view['id']}: '{key}' must be a string, got {shown(row.get(key))}")
        view[key] = row[key]
    view["substitutes"] = [
        {name: s.get(name) for name in SUBSTITUTE_FIELDS} for s in reference_substitutes(row, position)
    ]
    view["candidates"] = list(row.get("candidates") or [])
    view["provenance"] = {"coinco_problematic": bool((row.get("provenance") or {}).get("coinco_problematic"))}
    return view


def family_reference_view(row: Mapping, position: int) -> dict:
    """The same fields of a row of a benchmark with its own metrics (TSAR-2022, ProLex: no POS (""), no candidates),
    for the `evaluate` module's store; its FamilyScorer reads the target and the substitutes' votes and labels."""
    if not isinstance(row.get("target"), str):
        raise MetricInputError(f"reference {row.get('id')}: 'target' must be a string, got {shown(row.get('target'))}")
    return {
        "id": str(row["id"]),
        "upstream_id": str(row.get("upstream_id") or ""),
        "benchmark": str(row.get("benchmark") or ""),
        "target": row["target"],
        "pos": "",
        "substitutes": [
            {name: s.get(name) for name in SUBSTITUTE_FIELDS} for s in reference_substitutes(row, position)
        ],
        "candidates": [],
        "provenance": {"coinco_problematic": False},
    }


@dataclass
class ReferenceSplit:
    """Per row, in order: its ids, POS and benchmark (`targets`), CoInCo's problematic flag, and its prepared
    reference (None for a row without substitutes)."""

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


def shipped_split(ids: Sequence[str]) -> tuple[str | None, str] | None:
    """(config, split) of the shipped split whose ids are exactly these (config None when several configs
    have them, as the SWORDS test subset and its reannotation do), or of two splits joined (joined_split); None
    when no split is."""
    import pyarrow.parquet as pq

    import swords_dataset

    sized = [
        (config, split)
        for config, splits in swords_dataset.CONFIGS.items()
        for split in splits
        if pq.read_metadata(swords_dataset.DATASET_DIR / swords_dataset.parquet_path(config, split)).num_rows
        == len(ids)
    ]
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
    import itertools

    import pyarrow.parquet as pq

    import swords_dataset

    def path(config: str, split: str):
        return swords_dataset.DATASET_DIR / swords_dataset.parquet_path(config, split)

    for config, splits in swords_dataset.CONFIGS.items():
        for first, second in itertools.permutations(splits, 2):
            sizes = [pq.read_metadata(path(config, split)).num_rows for split in (first, second)]
            if sum(sizes) != len(ids):
                continue
            given = [
                swords_dataset.split_table(config, split, ["id"]).column("id").to_pylist() for split in (first, second)
            ]
            if given[0] + given[1] == list(ids):
                return config, f"{first}{swords_dataset.SPLIT_JOINER}{second}"
    return None
