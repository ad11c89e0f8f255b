"""What the readers share in making a row: the row itself (schema_row), whitespace-normalised text, the check that
the target stands at its offset, the substitutes that annotators produced (CoInCo, SemEval-2007), and the
candidates: the pools of their `lemma.POS::` lists with the gold added."""

from __future__ import annotations

from pathlib import Path

from swords_dataset.builder.errors import BuildError
from swords_dataset.schema import empty_provenance, sort_substitutes, sorted_candidates


def normalize_whitespace(text: str) -> str:
    return " ".join(text.split())


def schema_row(
    row_id: str,
    benchmark: str,
    context_id: str,
    context: str,
    target: str,
    offset: int,
    substitutes: list[dict],
    *,
    pos: str | None = None,
    target_lemma: str | None = None,
    target_cefr: int | None = None,
    candidates: list[str] | None = None,
    provenance: dict | None = None,
    upstream_id: str | None = None,
) -> dict:
    """A row of the shared schema, its target checked to stand at its offset. Left out: what ProLex and TSAR-2022
    do not give (a POS, a lemma, a candidate pool: no ranking setting), no provenance, and the upstream id, which
    the build adds to the benchmarks the upstream SWORDS library had (build/rows.py)."""
    row = {
        "id": row_id,
        "upstream_id": upstream_id,
        "benchmark": benchmark,
        "context_id": context_id,
        "context": context,
        "target": target,
        "offset": offset,
        "pos": pos,
        "target_lemma": target_lemma,
        "target_cefr": target_cefr,
        "substitutes": substitutes,
        "candidates": [] if candidates is None else candidates,
        "provenance": empty_provenance() if provenance is None else provenance,
    }
    check_offset(row)
    return row


def check_offset(row: dict) -> None:
    start = row["offset"]
    if row["context"][start : start + len(row["target"])] != row["target"]:
        raise BuildError(f"{row['id']}: target {row['target']!r} is not at offset {start} of its context")


def produced_substitutes(answers: list[tuple[str, int]], source: str) -> list[dict]:
    """(substitute, number of annotators who gave it) -> schema substitutes, most frequent first. These
    sources record no per-annotator judgements: every vote is positive and `labels` stays empty."""
    return sort_substitutes(
        [
            {
                "substitute": text,
                "score": float(count),
                "votes_positive": count,
                "votes_total": count,
                "labels": [],
                "sources": [source],
                "cefr": None,
            }
            for text, count in answers
        ]
    )


def pool_with_gold(pool: list[str], substitutes: list[dict]) -> list[str]:
    """A row's candidates: its lemma.POS list, plus the gold substitutes it lacks, so a ranker can rank every gold
    item."""
    return sorted_candidates(pool + [s["substitute"] for s in substitutes])


def read_candidate_lists(path: Path) -> dict[str, list[str]]:
    """`lemma.POS::cand;cand;…` lines (Latin-1, as upstream) -> candidates in file order."""
    lists = {}
    with open(path, encoding="latin-1") as f:
        for line_number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                continue
            if "::" not in line:
                raise BuildError(f"{path}:{line_number}: no '::' separator")
            key, candidates = line.split("::", 1)
            words = [normalize_whitespace(c) for c in candidates.split(";")]
            lists[key.strip()] = [w for w in words if w]
    return lists
