"""Free text as a benchmark-shaped row, so that every system can answer a context and target no benchmark holds: the
words of a text, where a target stands in it as a word, a guessed part of speech, and the row itself (no gold)."""

from __future__ import annotations

import hashlib
import re

from swords_dataset.schema import UD_POS, empty_provenance
from swords_metric import UD_TO_WORDNET, lemmatize, load_wordnet_graph

# A word: letters, possibly joined by apostrophes or hyphens ("don't", "well-known"); no digits.
WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")

# The word before a target that tells its part of speech: after a determiner a noun or adjective, after "to" or a
# modal a verb, after a degree word an adjective or adverb.
_DETERMINERS = frozenset("a an the this that these those my your his her its our their some any no every each".split())
_VERB_CUES = frozenset("to will would can could shall should may might must not n't did does do".split())
_DEGREE = frozenset("very too so quite rather more most less least really".split())


def occurrences(context: str, target: str) -> list[int]:
    """Offsets where `target` stands as a whole word, case-sensitive, else case-insensitive ("The" for "the")."""
    pattern = r"(?<![^\W_])" + re.escape(target) + r"(?![^\W_])"
    found = [m.start() for m in re.finditer(pattern, context)]
    return found or [m.start() for m in re.finditer(pattern, context, flags=re.IGNORECASE)]


def _frequency(word: str, pos: str) -> int | None:
    """How often `word` (lemmatized for pos) is tagged with that POS in SemCor, +1; None without a WordNet lemma."""
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
    """A POS for the target at `offset`: WordNet's most frequent use of the word, nudged by the word before it
    (after "the" a noun or adjective, after "to" or a modal a verb)."""
    before = WORD.findall(context[:offset])
    previous = before[-1].lower() if before else ""
    scores: dict[str, float] = {}
    for pos in UD_POS:
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
    return max(scores, key=lambda pos: (scores[pos], -UD_POS.index(pos)))


def make_row(context: str, offset: int, target: str, pos: str, prefix: str = "text") -> dict:
    """A row in the benchmarks' schema for free text (no gold, benchmark "custom"); its ids `prefix:` and a digest."""
    digest = hashlib.sha1(f"{offset}:{target}:{context}".encode()).hexdigest()[:16]
    return {
        "id": f"{prefix}:{digest}",
        "benchmark": "custom",
        "context_id": f"{prefix}:{hashlib.sha1(context.encode()).hexdigest()[:16]}",
        "context": context,
        "target": target,
        "offset": offset,
        "pos": pos,
        "target_lemma": lemmatize(target, pos),
        "substitutes": [],
        "candidates": [],
        "provenance": empty_provenance(),
    }
