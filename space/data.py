"""The bundled benchmarks as the Space uses them: rows by split, search, and finding a pasted context.

Rows are read straight from the Parquet files inside ``swords_dataset`` (faster than ``datasets.load`` and
writes no cache, which matters on a read-only Space) and kept in memory once read.
"""

from __future__ import annotations

import threading
from functools import cache, lru_cache

import swords_dataset

# The splits a pasted context is looked up in, first match wins: SWORDS before CoInCo (SWORDS targets were
# drawn from CoInCo, so a SWORDS context is usually also a CoInCo one, with other gold).
LOOKUP_ORDER: tuple[tuple[str, str], ...] = (
    ("swords", "test"),
    ("swords", "dev"),
    ("coinco", "test"),
    ("coinco", "dev"),
    ("semeval07", "test"),
    ("semeval07", "trial"),
)
POS_TAGS = ("NOUN", "VERB", "ADJ", "ADV")
ALL_POS = "all"
SNIPPET_CHARS = 70

_index_lock = threading.Lock()
_load_lock = threading.Lock()


def splits() -> list[tuple[str, str]]:
    """Every (config, split), in the dataset card's order."""
    return [(config, split) for config, names in swords_dataset.CONFIGS.items() for split in names]


def split_label(config: str, split: str) -> str:
    return f"{config} {split}"


def parse_split_label(label: str) -> tuple[str, str]:
    """'swords test' -> ('swords', 'test'); an unknown pair is a SwordsError naming the choices."""
    config, _, split = (label or "").strip().partition(" ")
    swords_dataset.check_config(config, split)
    return config, split


def load_rows(config: str, split: str) -> list[dict]:
    """All rows of a split (cached; the same list every call, so never mutate it)."""
    swords_dataset.check_config(config, split)
    with _load_lock:  # two sessions asking at once read the file once
        return _load_rows(config, split)


@cache
def _load_rows(config: str, split: str) -> list[dict]:
    return swords_dataset.rows(config, split)


@cache
def _rows_by_id(config: str, split: str) -> dict[str, dict]:
    return {row["id"]: row for row in load_rows(config, split)}


def get_row(config: str, split: str, row_id: str) -> dict | None:
    return _rows_by_id(config, split).get(row_id)


def snippet(row: dict, width: int = SNIPPET_CHARS) -> str:
    """The context around the target on one line, the target in «»."""
    context, start = row["context"], row["offset"]
    end = start + len(row["target"])
    left = " ".join(context[max(0, start - width // 2) : start].split())
    right = " ".join(context[end : end + width // 2].split())
    return f"…{left} «{row['target']}» {right}…"


def example_label(row: dict) -> str:
    return f"{row['target']} ({row['pos']}) — {snippet(row, 50)}"


def search(config: str, split: str, query: str = "", pos: str = ALL_POS, limit: int = 200) -> tuple[list[dict], int]:
    """Rows whose target or target lemma starts with `query` (case-insensitive; all when empty), of the
    given POS; at most `limit` of them, and how many matched in all."""
    needle = (query or "").strip().lower()
    matches = [
        row
        for row in load_rows(config, split)
        if (pos in (None, "", ALL_POS) or row["pos"] == pos)
        and (not needle or row["target"].lower().startswith(needle) or row["target_lemma"].lower().startswith(needle))
    ]
    # Exact matches first, so "bright" is not buried under "brightly" and "brightness".
    matches.sort(key=lambda row: (row["target"].lower() != needle and row["target_lemma"].lower() != needle))
    return matches[:limit], len(matches)


def _index() -> dict[tuple[str, int, str], tuple[str, str, str]]:
    with _index_lock:
        return _build_index()


@lru_cache(maxsize=1)
def _build_index() -> dict[tuple[str, int, str], tuple[str, str, str]]:
    index: dict[tuple[str, int, str], tuple[str, str, str]] = {}
    for config, split in LOOKUP_ORDER:
        for row in load_rows(config, split):
            index.setdefault((row["context"], row["offset"], row["target"]), (config, split, row["id"]))
    return index


def find_example(context: str, offset: int, target: str) -> tuple[str, str, dict] | None:
    """(config, split, row) of the benchmark example with exactly this context and target occurrence,
    also when the paste lost or gained whitespace at its ends; None for free text."""
    index = _index()
    stripped = context.strip()
    lead = len(context) - len(context.lstrip())
    for key in ((context, offset, target), (stripped, offset - lead, target)):
        hit = index.get(key)
        if hit is not None:
            config, split, row_id = hit
            return config, split, _rows_by_id(config, split)[row_id]
    return None


def warm() -> None:
    """Read what the first requests need (called in the background at start)."""
    _index()
