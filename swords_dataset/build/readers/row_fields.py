"""What several readers share in making a row's fields: whitespace-normalised text, the check that the target
stands at its offset, the substitutes that annotators produced (CoInCo, SemEval-2007) and the candidate pools of
their `lemma.POS::` lists."""

from __future__ import annotations

from pathlib import Path

from swords_dataset.build.errors import BuildError
from swords_dataset.schema import sort_substitutes


def normalize_whitespace(text: str) -> str:
    return " ".join(text.split())


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
