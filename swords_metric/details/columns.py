"""What a details file holds (what `swords evaluate --details FILE` and Scorer.write_comparison write): its kinds of
record, their fields in order, each field's type, the formats by extension, and what marks a file as one of these
(a JSONL header record, a CSV's first line, a Parquet file's metadata key). One file, one table: every record has
`kind` and the target's ids, target and POS; a `substitute` record adds SUBSTITUTE_FIELDS, a `target` record
TARGET_FIELDS (a comparison file has `pair` records, PAIR_FIELDS)."""

from __future__ import annotations

from swords_metric.metrics.ranking import PR_FAMILY_NAMES

DETAILS, COMPARISON = "swords-lexsub details", "swords-lexsub comparison"
VERSION = 1
EXTENSIONS = (".jsonl", ".csv", ".parquet")
PARQUET_METADATA_KEY = b"swords_lexsub"

COMMON_FIELDS = ("kind", "id", "upstream_id", "target", "pos")
SUBSTITUTE_FIELDS = (
    "position",
    "substitute",
    "score",
    "lemma",
    "empty",
    "dropped",
    "merged_into_rank",
    "rank",
    "in_strict_top_k",
    "in_lenient_top_k",
    "class",
    "gold_score",
    "votes_positive",
    "votes_total",
    "relation",
)
_FAMILY_FIELDS = tuple(
    f"{name}_{part}"
    for name in PR_FAMILY_NAMES
    for part in ("hits", "predicted", "reference_k", "reference", "p", "r", "f")
)
TARGET_FIELDS = (
    "in_predictions",
    "substitutes_given",
    "substitutes_counted",
    "reference_size",
    "acceptable",
    "conceivable",
    *_FAMILY_FIELDS,
    "gap",
    "gap_rat",
    "top",
    "acceptable_missed",
)
PAIR_FIGURES = tuple(f"{name}_{part}" for name in PR_FAMILY_NAMES for part in ("p", "r", "f")) + (
    "gap",
    "gap_rat",
    "top",
)
PAIR_FIELDS = ("difference", *(f"{side}_{field}" for side in ("a", "b") for field in ("in_predictions", *PAIR_FIGURES)))
DETAILS_COLUMNS = COMMON_FIELDS + SUBSTITUTE_FIELDS + TARGET_FIELDS
COMPARISON_COLUMNS = COMMON_FIELDS + PAIR_FIELDS
COLUMNS = {DETAILS: DETAILS_COLUMNS, COMPARISON: COMPARISON_COLUMNS}
FORMATS = tuple(COLUMNS)
HEADER_LINES = frozenset(",".join(columns).encode() for columns in COLUMNS.values())  # a CSV's first line

STRING_FIELDS = {"kind", "id", "upstream_id", "target", "pos", "substitute", "lemma", "dropped", "class", "relation"}
_BOOLEANS = {"empty", "in_strict_top_k", "in_lenient_top_k", "in_predictions", "a_in_predictions", "b_in_predictions"}
_LISTS = {"top", "acceptable_missed", "a_top", "b_top"}
_FLOATS = {"score", "gold_score", "difference"}


def field_type(name: str) -> str:
    """A column's type: string, bool, list (of strings), float or int."""
    if name in STRING_FIELDS:
        return "string"
    if name in _BOOLEANS:
        return "bool"
    if name in _LISTS:
        return "list"
    if name in _FLOATS or name.endswith(("_p", "_r", "_f", "gap", "gap_rat")):
        return "float"
    return "int"
