"""The bundled benchmarks as the Space uses them: the splits it offers and their labels, ids as its tables show
them, a row's snippet, and search (over swords_dataset's compact split index: no cache written, on a read-only
Space)."""

from __future__ import annotations

import swords_dataset
from swords_dataset import split_index
from swords_dataset.split_index import find_example as find_example  # the tabs' look-ups, re-exported
from swords_dataset.split_index import get_row as get_row
from swords_dataset.split_index import ids_starting
from swords_dataset.split_index import load_rows as load_rows
from swords_lexsub.errors import SwordsError
from swords_space.errors import SpaceError, shown

POS_TAGS = ("NOUN", "VERB", "ADJ", "ADV")
ALL_POS = "all"
SNIPPET_CHARS = 70
# What a search result needs to be shown (example_label): not the gold, not the candidates.
LISTED_COLUMNS = ["id", "context", "target", "offset", "pos", "target_lemma"]


def splits() -> list[tuple[str, str]]:
    """Every (config, split) the Space shows, in the dataset card's order (ProLex and TSAR-2022 too)."""
    return [(config, split) for config, names in swords_dataset.CONFIGS.items() for split in names]


def split_label(config: str, split: str) -> str:
    return f"{config} {split}"


def parse_split_label(label: str) -> tuple[str, str]:
    """'swords test' -> ('swords', 'test'); an unknown pair is a SwordsError naming the choices."""
    config, _, split = (label or "").strip().partition(" ")
    swords_dataset.check_config(config, split)
    if (config, split) not in splits():
        raise SwordsError(f"the Space does not offer {config}; choose one of {', '.join(split_choices())}")
    return config, split


def split_choices() -> list[str]:
    """Every split's label, for the UI's benchmark choices."""
    return [split_label(config, split) for config, split in splits()]


def choose_split(label: str | None) -> tuple[str, str]:
    """A benchmark chosen in the UI (or sent to the API) -> (config, split), else a SpaceError naming the choices."""
    unknown = SpaceError(f"Unknown benchmark {shown(label)}; choose one of {', '.join(split_choices())}.")
    if not isinstance(label, str | None) or len(label or "") > 60:
        raise unknown
    try:
        return parse_split_label(label or "")
    except SwordsError:
        raise unknown from None


SHORT_ID_CHARS = 10  # "t:65b44b55…": a SWORDS id's first 8 hex digits, unique in every split (checked by a test)
ELLIPSIS = "…"


def short_id(row_id: str) -> str:
    """An id as a table shows it: a SWORDS id cut to 8 hex digits and "…" (full_id undoes it); a short one whole."""
    return row_id if len(row_id) <= SHORT_ID_CHARS + 4 else row_id[:SHORT_ID_CHARS] + ELLIPSIS


def full_id(config: str, split: str, shown_id: str) -> str:
    """The id a table's short id stands for (short_id), or the id itself when it is not a short one."""
    if not shown_id.endswith(ELLIPSIS):
        return shown_id
    matches = ids_starting(config, split, shown_id[: -len(ELLIPSIS)])
    return matches[0] if len(matches) == 1 else shown_id


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
    """Rows whose target or lemma starts with `query` (case-insensitive), of the given POS: at most `limit`
    (LISTED_COLUMNS only), and how many matched."""
    any_pos = pos in (None, "", ALL_POS)
    return split_index.search(config, split, query, None if any_pos else pos, limit, LISTED_COLUMNS)


def warm() -> None:
    """Read what the first requests need (called in the background at start)."""
    split_index.warm(splits())
