"""The bundled benchmarks as the Space uses them: rows by split, search, and finding a pasted context.

Each split is read once straight from its Parquet file inside ``swords_dataset`` (faster than
``datasets.load``, and writes no cache, which matters on a read-only Space) and kept compact: its Arrow
table, the few columns search needs as lists, and one index of every (context, offset, target). A row
becomes a Python dict only when asked for. (All splits as dicts cost about 350 MB; this, about 40 MB.)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache

import swords_dataset
from swords_lexsub.errors import SwordsError
from swords_metric import metric_family
from swords_space.errors import SpaceError, shown

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
# What a search result needs to be shown (example_label): not the gold, not the candidates.
LISTED_COLUMNS = ["id", "context", "target", "offset", "pos", "target_lemma"]

_split_lock = threading.Lock()
_index_lock = threading.Lock()


def splits() -> list[tuple[str, str]]:
    """Every (config, split) the Space shows, in the dataset card's order: ProLex and TSAR-2022 too (their rows have
    no POS or lemma, and they are scored with their own official metrics: swords_metric.metric_family)."""
    return [(config, split) for config, names in swords_dataset.CONFIGS.items() for split in names]


def is_swords_family(config: str) -> bool:
    """Whether a config is scored with the SWORDS metrics (SWORDS, CoInCo, SemEval-2007), which the Space's
    classes, live judgements, analysis and comparisons are made of; ProLex and TSAR-2022 have their own."""
    return metric_family(config) == "swords"


def split_label(config: str, split: str) -> str:
    return f"{config} {split}"


def parse_split_label(label: str) -> tuple[str, str]:
    """'swords test' -> ('swords', 'test'); an unknown pair is a SwordsError naming the choices."""
    config, _, split = (label or "").strip().partition(" ")
    swords_dataset.check_config(config, split)
    if (config, split) not in splits():
        raise SwordsError(f"the Space does not offer {config}; choose one of {', '.join(split_choices())}")
    return config, split


def split_choices(swords_family_only: bool = False) -> list[str]:
    """Every split's label, for the UI's benchmark choices (only the SWORDS metrics' benchmarks when asked)."""
    return [
        split_label(config, split) for config, split in splits() if not swords_family_only or is_swords_family(config)
    ]


def choose_split(label: str | None) -> tuple[str, str]:
    """A benchmark chosen in the UI (or sent to the API) -> (config, split); anything else is a SpaceError
    naming the choices."""
    unknown = SpaceError(f"Unknown benchmark {shown(label)}; choose one of {', '.join(split_choices())}.")
    if not isinstance(label, str | None) or len(label or "") > 60:
        raise unknown
    try:
        return parse_split_label(label or "")
    except SwordsError:
        raise unknown from None


@dataclass(frozen=True)
class _Split:
    table: object  # pyarrow.Table: every column, in Arrow's compact memory
    positions: dict[str, int]  # id -> row number
    targets: list[str]  # lower-cased, for search
    lemmas: list[str]  # lower-cased
    pos: list[str]


@cache
def _read(config: str, split: str) -> _Split:
    table = swords_dataset.split_table(config, split)
    ids = table.column("id").to_pylist()
    return _Split(
        table=table,
        positions={row_id: i for i, row_id in enumerate(ids)},
        targets=[target.lower() for target in table.column("target").to_pylist()],
        lemmas=[(lemma or "").lower() for lemma in table.column("target_lemma").to_pylist()],  # null: no lemma given
        pos=table.column("pos").to_pylist(),
    )


def _split_data(config: str, split: str) -> _Split:
    swords_dataset.check_config(config, split)
    with _split_lock:  # two sessions asking at once read the file once
        return _read(config, split)


def load_rows(config: str, split: str) -> list[dict]:
    """All rows of a split as dicts: a new list every call (nothing keeps it), for whoever needs them all."""
    return _split_data(config, split).table.to_pylist()


def _row(config: str, split: str, position: int) -> dict:
    return _split_data(config, split).table.slice(position, 1).to_pylist()[0]


SHORT_ID_CHARS = 10  # "t:65b44b55…": a SWORDS id's first 8 hex digits, unique in every split (checked by a test)
ELLIPSIS = "…"


def short_id(row_id: str) -> str:
    """An id as a table shows it: a 42-character SWORDS id cut to its first 8 hex digits and "…" (full_id undoes
    it); a short id (coinco:4) whole."""
    return row_id if len(row_id) <= SHORT_ID_CHARS + 4 else row_id[:SHORT_ID_CHARS] + ELLIPSIS


def full_id(config: str, split: str, shown_id: str) -> str:
    """The id a table's short id stands for (short_id), or the id itself when it is not a short one."""
    if not shown_id.endswith(ELLIPSIS):
        return shown_id
    prefix = shown_id[: -len(ELLIPSIS)]
    matches = [row_id for row_id in _split_data(config, split).positions if row_id.startswith(prefix)]
    return matches[0] if len(matches) == 1 else shown_id


def get_row(config: str, split: str, row_id: str) -> dict | None:
    """One row as a dict (built on demand: a new dict every call), or None when the split has no such id."""
    position = _split_data(config, split).positions.get(row_id)
    return None if position is None else _row(config, split, position)


def snippet(row: dict, width: int = SNIPPET_CHARS) -> str:
    """The context around the target on one line, the target in «»."""
    context, start = row["context"], row["offset"]
    end = start + len(row["target"])
    left = " ".join(context[max(0, start - width // 2) : start].split())
    right = " ".join(context[end : end + width // 2].split())
    return f"…{left} «{row['target']}» {right}…"


def example_label(row: dict) -> str:
    tag = f" ({row['pos']})" if row["pos"] else ""  # ProLex and TSAR-2022 give no POS
    return f"{row['target']}{tag} — {snippet(row, 50)}"


def search(config: str, split: str, query: str = "", pos: str = ALL_POS, limit: int = 200) -> tuple[list[dict], int]:
    """Rows whose target or target lemma starts with `query` (case-insensitive; all when empty), of the
    given POS; at most `limit` of them (with the LISTED_COLUMNS only), and how many matched in all."""
    data = _split_data(config, split)
    needle = (query or "").strip().lower()
    any_pos = pos in (None, "", ALL_POS)
    matches = [
        i
        for i, (target, lemma, tag) in enumerate(zip(data.targets, data.lemmas, data.pos, strict=True))
        if (any_pos or tag == pos) and (not needle or target.startswith(needle) or lemma.startswith(needle))
    ]
    # Exact matches first, so "bright" is not buried under "brightly" and "brightness".
    matches.sort(key=lambda i: data.targets[i] != needle and data.lemmas[i] != needle)
    shown = matches[: max(limit, 0)]
    rows = data.table.select(LISTED_COLUMNS).take(shown).to_pylist() if shown else []
    return rows, len(matches)


@cache
def _build_index() -> dict[tuple[str, int, str], tuple[str, str, int]]:
    """(context, offset, target) -> (config, split, row number), over LOOKUP_ORDER, first wins. Equal
    contexts share one string (CoInCo has about six targets a context, and SWORDS reuses CoInCo's)."""
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
    """(config, split, row) of the benchmark example with exactly this context and target occurrence,
    also when the paste lost or gained whitespace at its ends; None for free text."""
    index = _index()
    stripped = context.strip()
    lead = len(context) - len(context.lstrip())
    for key in ((context, offset, target), (stripped, offset - lead, target)):
        hit = index.get(key)
        if hit is not None:
            config, split, position = hit
            return config, split, _row(config, split, position)
    return None


def warm() -> None:
    """Read what the first requests need (called in the background at start)."""
    _index()
    for config, split in splits():
        _split_data(config, split)
