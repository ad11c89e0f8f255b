"""Free text to a benchmark-shaped row: the words of a context, a target's occurrences, a guessed POS; and the row a
context and target stand for (a benchmark example's own when they are one, else free text's)."""

from __future__ import annotations

import hashlib
import re

from swords_dataset.schema import empty_provenance
from swords_metric import UD_TO_WORDNET, lemmatize, load_wordnet_graph
from swords_space.benchmarks import POS_TAGS, find_example, get_row
from swords_space.errors import SpaceError

MAX_CONTEXT_CHARS = 2000  # benchmark contexts are at most 875 characters
MAX_TARGET_CHARS = 60
MAX_WORD_CHOICES = 400
AUTO_POS = "auto"

# A word: letters, possibly joined by apostrophes or hyphens ("don't", "well-known"); no digits.
WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")

_DETERMINERS = frozenset("a an the this that these those my your his her its our their some any no every each".split())
_VERB_CUES = frozenset("to will would can could shall should may might must not n't did does do".split())
_DEGREE = frozenset("very too so quite rather more most less least really".split())


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


def parse_word_choice(value: str | None) -> tuple[str, int] | None:
    """ "2:bank" -> ("bank", 2)."""
    occurrence, _, word = (value or "").partition(":")
    if not word or not occurrence.isdigit():
        return None
    return word, int(occurrence)


def occurrences(context: str, target: str) -> list[int]:
    """Offsets where `target` stands as a whole word (not inside a longer word), case-sensitive; if it
    never does, case-insensitive ("The" at a sentence start for "the")."""
    pattern = r"(?<![^\W_])" + re.escape(target) + r"(?![^\W_])"
    found = [m.start() for m in re.finditer(pattern, context)]
    return found or [m.start() for m in re.finditer(pattern, context, flags=re.IGNORECASE)]


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


def _frequency(word: str, pos: str) -> int | None:
    """How often `word` (lemmatized for pos) is tagged with that POS in SemCor, +1; None when WordNet has
    no such lemma."""
    graph = load_wordnet_graph()
    lemma = lemmatize(word, pos).replace(" ", "_")
    synsets = graph.synsets(lemma, UD_TO_WORDNET[pos])
    if not synsets:
        return None
    total = 0
    for synset in synsets:
        words = [w.lower() for w in graph.words(synset)]
        if lemma in words:
            total += graph.tag_counts(synset)[words.index(lemma)]
    return total + 1


def guess_pos(context: str, offset: int, target: str) -> str:
    """A POS for the target: WordNet's most frequent use of the word, nudged by the word before it (after
    "the" a noun or adjective, after "to" or a modal a verb). Users can override it."""
    before = WORD.findall(context[:offset])
    previous = before[-1].lower() if before else ""
    scores: dict[str, float] = {}
    for pos in POS_TAGS:
        frequency = _frequency(target, pos)
        if frequency is None:
            continue
        score = float(frequency)
        if previous in _DETERMINERS:
            score *= {"NOUN": 3.0, "ADJ": 2.0}.get(pos, 0.1)
        elif previous in _VERB_CUES:
            score *= {"VERB": 4.0, "ADV": 1.0}.get(pos, 0.2)
        elif previous in _DEGREE:
            score *= {"ADJ": 3.0, "ADV": 3.0}.get(pos, 0.2)
        if pos == "ADV" and target.lower().endswith("ly"):
            score *= 3.0
        scores[pos] = score
    if not scores:
        return "ADV" if target.lower().endswith("ly") else "NOUN"
    return max(scores, key=lambda pos: (scores[pos], -POS_TAGS.index(pos)))


def make_row(context: str, offset: int, target: str, pos: str) -> dict:
    """A row in the benchmarks' schema for free text (no gold), so every system can answer it."""
    digest = hashlib.sha1(f"{offset}:{target}:{context}".encode()).hexdigest()[:16]
    return {
        "id": f"space:{digest}",
        "benchmark": "custom",
        "context_id": f"space:{hashlib.sha1(context.encode()).hexdigest()[:16]}",
        "context": context,
        "target": target,
        "offset": offset,
        "pos": pos,
        "target_lemma": lemmatize(target, pos),
        "substitutes": [],
        "candidates": [],
        "provenance": empty_provenance(),
    }


def resolve_row(
    context: str, target: str | None, occurrence: float | None, pos: str | None, example: dict | None
) -> tuple[dict, tuple[str, str] | None, str]:
    """The row a context and target stand for: a benchmark example's own (the one picked, while context and target
    are as it filled them in, or the one with exactly this text), else free text's, with the POS given or guessed.
    Returns (row, (config, split) if it is a benchmark example, how the POS was chosen)."""
    if example:  # picked from a benchmark: used as long as the user has not edited context or target
        row = get_row(example.get("config", ""), example.get("split", ""), example.get("id", ""))
        if row is not None and row["context"] == context and row["target"] == (target or "").strip():
            return row, (example["config"], example["split"]), "from the benchmark"
    offset, written = locate(context, target, occurrence)
    found = find_example(context, offset, written)
    if found is not None:
        config, split, row = found
        return row, (config, split), "from the benchmark"
    if pos in (None, "", AUTO_POS):
        return make_row(context, offset, written, guess_pos(context, offset, written)), None, "guessed"
    if pos not in POS_TAGS:
        raise SpaceError(f"Unknown part of speech {pos!r}; choose {', '.join(POS_TAGS)} or auto.")
    return make_row(context, offset, written, pos), None, "chosen"
