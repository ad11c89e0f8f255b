"""The shipped splits held compactly for look-ups by a long-running reader (the Space): each split read once as an
Arrow table, its ids and the columns search needs as lists, a row a dict only when asked for (all splits as dicts
cost about 350 MB; this, about 40 MB). Rows by id, search by target or lemma, and the example a pasted context and
target occurrence are. Safe to call from several threads."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache

from swords_dataset.configs import check_config

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

_split_lock = threading.Lock()
_index_lock = threading.Lock()


@dataclass(frozen=True)
class _Split:
    table: object  # pyarrow.Table: every column, in Arrow's compact memory
    positions: dict[str, int]  # id -> row number
    targets: list[str]  # lower-cased, for search
    lemmas: list[str]  # lower-cased
    pos: list[str]


@cache
def _read(config: str, split: str) -> _Split:
    from swords_dataset import split_table

    table = split_table(config, split)
    ids = table.column("id").to_pylist()
    return _Split(
        table=table,
        positions={row_id: i for i, row_id in enumerate(ids)},
        targets=[target.lower() for target in table.column("target").to_pylist()],
        lemmas=[(lemma or "").lower() for lemma in table.column("target_lemma").to_pylist()],  # null: no lemma given
        pos=table.column("pos").to_pylist(),
    )


def _split_data(config: str, split: str) -> _Split:
    check_config(config, split)
    with _split_lock:  # two threads asking at once read the file once
        return _read(config, split)


def load_rows(config: str, split: str) -> list[dict]:
    """All rows of a split as dicts: a new list every call (nothing keeps it), for whoever needs them all."""
    return _split_data(config, split).table.to_pylist()


def _row(config: str, split: str, position: int) -> dict:
    return _split_data(config, split).table.slice(position, 1).to_pylist()[0]


def get_row(config: str, split: str, row_id: str) -> dict | None:
    """One row as a dict (built on demand: a new dict every call), or None when the split has no such id."""
    position = _split_data(config, split).positions.get(row_id)
    return None if position is None else _row(config, split, position)


def ids_starting(config: str, split: str, prefix: str) -> list[str]:
    """The ids of a split that start with `prefix`, in the split's order."""
    return [row_id for row_id in _split_data(config, split).positions if row_id.startswith(prefix)]


def search(
    config: str, split: str, query: str = "", pos: str | None = None, limit: int = 200, columns: list[str] | None = None
) -> tuple[list[dict], int]:
    """Rows whose target or lemma starts with `query` (case-insensitive), of the given POS (None: any), exact matches
    first: at most `limit` (with `columns` only, when given), and how many matched."""
    data = _split_data(config, split)
    needle = (query or "").strip().lower()
    matches = [
        i
        for i, (target, lemma, tag) in enumerate(zip(data.targets, data.lemmas, data.pos, strict=True))
        if (pos is None or tag == pos) and (not needle or target.startswith(needle) or lemma.startswith(needle))
    ]
    # Exact matches first, so "bright" is not buried under "brightly" and "brightness".
    matches.sort(key=lambda i: data.targets[i] != needle and data.lemmas[i] != needle)
    shown = matches[: max(limit, 0)]
    table = data.table.select(columns) if columns else data.table
    rows = table.take(shown).to_pylist() if shown else []
    return rows, len(matches)


@cache
def _build_index() -> dict[tuple[str, int, str], tuple[str, str, int]]:
    """(context, offset, target) -> (config, split, row number), over LOOKUP_ORDER, first wins; equal contexts share
    one string."""
    index: dict[tuple[str, int, str], tuple[str, str, int]] = {}
    contexts: dict[str, str] = {}
    for config, split in LOOKUP_ORDER:
        table = _split_data(config, split).table
        columns = zip(*(table.column(name).to_pylist() for name in ("context", "offset", "target")), strict=True)
        for i, (context, offset, target) in enumerate(columns):
            context = contexts.setdefault(context, context)
            index.setdefault((context, offset, target), (config, split, i))
    return index


def _index() -> dict[tuple[str, int, str], tuple[str, str, int]]:
    with _index_lock:
        return _build_index()


def find_example(context: str, offset: int, target: str) -> tuple[str, str, dict] | None:
    """(config, split, row) of the example with this context (ends' whitespace aside) and occurrence, else None."""
    index = _index()
    stripped = context.strip()
    lead = len(context) - len(context.lstrip())
    for key in ((context, offset, target), (stripped, offset - lead, target)):
        if (hit := index.get(key)) is not None:
            config, split, position = hit
            return config, split, _row(config, split, position)
    return None


def warm(splits: list[tuple[str, str]]) -> None:
    """Read what the first look-ups need: the example index and the given splits."""
    _index()
    for config, split in splits:
        _split_data(config, split)
