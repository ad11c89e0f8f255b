"""What the readers share in making a row: the row itself (schema_row), whitespace-normalised text, the check that
the target stands at its offset, the substitutes annotators produced (CoInCo, SemEval-2007), the candidates (the
pools of their `lemma.POS::` lists with the gold added); and what the ProLex and TSAR-2022 readers ask of a raw
source's text, whatever a later release holds: strict UTF-8 (a bad byte named by line and column), no leading
byte-order mark (it would shift every offset on its line), and words that are words."""

from __future__ import annotations

import codecs
from pathlib import Path

from swords_dataset.builder.errors import BuildError
from swords_dataset.schema import empty_provenance, sort_substitutes, sorted_candidates
from swords_lexsub.terminal import clipped


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
    """A row of the shared schema, its target checked to stand at its offset (what a source lacks left out; the
    upstream id the build adds: rows.py)."""
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


def produced_substitutes(answers: list[tuple[str, int]], source: str, annotators: int | None = None) -> list[dict]:
    """(substitute, number of annotators who gave it) -> schema substitutes, most frequent first, ties in the given
    order (`labels` empty: these sources record no judgements; `votes_total` each one's votes, else `annotators`)."""
    return sort_substitutes(
        [
            {
                "substitute": text,
                "score": float(count),
                "votes_positive": count,
                "votes_total": count if annotators is None else annotators,
                "labels": [],
                "sources": [source],
                "cefr": None,
            }
            for text, count in answers
        ]
    )


def pool_with_gold(pool: list[str], substitutes: list[dict]) -> list[str]:
    """A row's candidates: its lemma.POS list, plus the gold substitutes it lacks, so every gold item is ranked."""
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


def source_text(path: Path) -> str:
    """The file's text: strict UTF-8 without its byte-order mark, else one BuildError naming the line and column."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise BuildError(f"{path}:{line}: not UTF-8 (byte 0x{data[error.start]:02x} at column {column})") from None
    return text[1:] if text.startswith(codecs.BOM_UTF8.decode("utf-8")) else text


def checked_word(value: object, where: str, what: str) -> str:
    """`value` if it is a word (a string not all whitespace), else one BuildError naming `what` and what it is."""
    if not isinstance(value, str):
        raise BuildError(f"{where}: {what} is {clipped(repr(value))} (of type {type(value).__name__}), not a word")
    if not value.strip():
        raise BuildError(f"{where}: {what} is empty" + (f" ({value!r})" if value else ""))
    return value
