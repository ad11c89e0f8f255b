"""Who judged: a judge's name as everything that compares judges compares it ('Alice' and 'alice' stay two names).
A name whose letters mix scripts ('\\u0430lice', a Cyrillic 'а' before Latin) would pass for another's:
`check_judge_name` refuses it. A letter's script is the first word of its Unicode name.
"""

from __future__ import annotations

import functools
import unicodedata

from swords_metric.errors import MetricInputError

LLM_PREFIX = "llm:"  # an LLM judge's id: llm:<model>:<prompt sha256[:8]>
# Scripts that one name may mix: Japanese writes Han with kana, Korean Hangul with Han.
_EAST_ASIAN = frozenset({"CJK", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO", "IDEOGRAPHIC"})
# Name words that are no script: the script is the next word (FULLWIDTH LATIN CAPITAL LETTER A).
_WIDTHS = frozenset({"FULLWIDTH", "HALFWIDTH"})


@functools.lru_cache(maxsize=4096)  # a merge asks once a record, of a few names
def judge_id(name: str) -> str:
    """A judge's name as judges are compared: trimmed, NFC, an LLM judge's `llm:` prefix lower-case."""
    name = unicodedata.normalize("NFC", name.strip())
    if name[: len(LLM_PREFIX)].lower() == LLM_PREFIX:
        name = LLM_PREFIX + name[len(LLM_PREFIX) :]
    return name


def is_llm_judge(name: str) -> bool:
    """Whether a name is an LLM judge's id (`llm:` in any case): a person's name never passes for a model's."""
    return name.strip()[: len(LLM_PREFIX)].lower() == LLM_PREFIX


def _script(character: str) -> str | None:
    if not unicodedata.category(character).startswith("L"):
        return None
    words = unicodedata.name(character, "").split()
    if words and words[0] in _WIDTHS:
        words = words[1:]
    if not words:
        return None
    return "EAST ASIAN" if words[0] in _EAST_ASIAN else words[0]


@functools.lru_cache(maxsize=4096)  # a merge checks every record's name: a few names, many times
def _mixed(name: str) -> tuple[str, ...]:
    """The scripts of a name's letters, in the order they first appear ('Latin', 'Cyrillic'); none for an LLM's."""
    found = () if is_llm_judge(name) else dict.fromkeys(script for script in map(_script, name) if script is not None)
    return tuple(script.title() for script in found)


def check_judge_name(name: str, where: str = "") -> str:
    """A judge's name as judge_id gives it, or one MetricInputError naming `where` (if given) when its letters mix
    scripts (an LLM judge's id, made by swords judge llm from a model's name, is not checked)."""
    mixed = _mixed(name)
    if len(mixed) > 1:
        escaped = name.encode("ascii", "backslashreplace").decode("ascii")
        text = (
            f"the judge's name '{escaped}' mixes {' and '.join(mixed)} letters, so it would pass for another name; "
            "write it in one script"
        )
        raise MetricInputError(f"{where}: {text}" if where else text[0].upper() + text[1:])
    return judge_id(name)
