"""The Substitute tab's free text: the words of a context to pick a target from, the chosen occurrence, and the row
a context and target stand for. The rules are the baselines' (swords_baselines.free_text); the limits and messages
the tab's."""

from __future__ import annotations

from swords_baselines import free_text
from swords_baselines.free_text import WORD, guess_pos, occurrences
from swords_space.benchmarks import POS_TAGS, find_example, get_row
from swords_space.errors import SpaceError

MAX_CONTEXT_CHARS = 2000  # benchmark contexts are at most 875 characters
MAX_TARGET_CHARS = 60
MAX_WORD_CHOICES = 400
AUTO_POS = "auto"


def check_context(context: str | None) -> str:
    if context is None or not context.strip():
        raise SpaceError("Type or paste a context first (a sentence or a few, containing the target word).")
    if len(context) > MAX_CONTEXT_CHARS:
        raise SpaceError(
            f"The context has {len(context):,} characters; the limit is {MAX_CONTEXT_CHARS:,} "
            "(benchmark contexts have at most 875). Paste only the sentences around the target."
        )
    return context


def context_words(context: str | None) -> list[tuple[str, str]]:
    """Dropdown choices for picking a target: (label, value) per word occurrence, value "OCCURRENCE:WORD".
    Repeated words are labelled with their occurrence number, "bank (2)"."""
    if not context or len(context) > MAX_CONTEXT_CHARS:
        return []
    seen: dict[str, int] = {}
    choices = []
    for match in WORD.finditer(context):
        word = match.group()
        seen[word] = seen.get(word, 0) + 1
        label = word if seen[word] == 1 else f"{word} ({seen[word]})"
        choices.append((label, f"{seen[word]}:{word}"))
        if len(choices) >= MAX_WORD_CHOICES:
            break
    return choices


def locate(context: str, target: str | None, occurrence: int | float | None = 1) -> tuple[int, str]:
    """(offset, target as written in the context) of the chosen occurrence of the target."""
    target = (target or "").strip()
    if not target:
        raise SpaceError("Choose the target: type the word to substitute, or pick it from the context's words.")
    if len(target) > MAX_TARGET_CHARS:
        raise SpaceError(f"The target is {len(target)} characters long; a target is one word or a short phrase.")
    offsets = occurrences(context, target)
    if not offsets:
        raise SpaceError(f"“{target}” does not occur in the context as a word: check the spelling, or pick it.")
    number = int(occurrence or 1)
    if not 1 <= number <= len(offsets):
        times = "once" if len(offsets) == 1 else f"{len(offsets)} times"
        raise SpaceError(f"“{target}” occurs {times} in the context; choose an occurrence from 1 to {len(offsets)}.")
    offset = offsets[number - 1]
    return offset, context[offset : offset + len(target)]


def make_row(context: str, offset: int, target: str, pos: str) -> dict:
    """A row in the benchmarks' schema for free text (the baselines' make_row), its ids the Space's."""
    return free_text.make_row(context, offset, target, pos, prefix="space")


def resolve_row(
    context: str, target: str | None, occurrence: float | None, pos: str | None, example: dict | None
) -> tuple[dict, tuple[str, str] | None, str]:
    """(row, (config, split) of a benchmark example or None, how the POS was chosen): the example's own row (the
    one picked, while unchanged, or the one with exactly this text), else free text's, its POS given or guessed."""
    if example:  # picked from a benchmark: used as long as the user has not edited context or target
        row = get_row(example.get("config", ""), example.get("split", ""), example.get("id", ""))
        if row is not None and row["context"] == context and row["target"] == (target or "").strip():
            return row, (example["config"], example["split"]), "from the benchmark"
    offset, written = locate(context, target, occurrence)
    if (found := find_example(context, offset, written)) is not None:
        config, split, row = found
        return row, (config, split), "from the benchmark"
    if pos in (None, "", AUTO_POS):
        return make_row(context, offset, written, guess_pos(context, offset, written)), None, "guessed"
    if pos not in POS_TAGS:
        raise SpaceError(f"Unknown part of speech {pos!r}; choose {', '.join(POS_TAGS)} or auto.")
    return make_row(context, offset, written, pos), None, "chosen"
