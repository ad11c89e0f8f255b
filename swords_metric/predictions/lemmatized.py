"""A system's list for one target as the upstream scorer ranks it (prepare_prediction), and what was unusual in it
counted (InputNotes)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter

from swords_metric.references.reference import Reference
from swords_metric.wordnet.lemmatizer import CACHED_LENGTH, lemmatize, lemmatize_bounded


@dataclass
class InputNotes:
    """What a predictions file held that the scorer treats in upstream's particular way."""

    empty_substitutes: int = 0  # "" or whitespace only: one wrong answer (all such merge into one)
    target_copies: int = 0  # lemmatize to the target's lemma: dropped
    duplicates: int = 0  # share a lemma with a better-ranked substitute: merged into it
    unicode_variants: int = 0  # match a gold word only as plain_text: not matched, as upstream

    def add(self, other: InputNotes) -> None:  # once a target: spelled out
        self.empty_substitutes += other.empty_substitutes
        self.target_copies += other.target_copies
        self.duplicates += other.duplicates
        self.unicode_variants += other.unicode_variants


def plain_text(text: str) -> str:
    """`text` as a reader sees it: without invisible format characters (Unicode category Cf) and NFKC-normalised.
    Scoring does not use it (upstream compares substitutes as they are); unicode_variant counts with it."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", "".join(c for c in text if unicodedata.category(c) != "Cf"))


def unicode_variant(substitute: str, lemma: str, reference: Reference) -> bool:
    """Whether a substitute whose `lemma` is not in the reference would match a gold lemma (not the target's) as
    plain_text: a variant a reader cannot tell from a gold word (an NFD "table d'hôte", a zero-width joiner)."""
    if substitute.isascii() or lemma in reference.index:
        return False
    plain = plain_text(substitute)
    if plain == substitute:
        return False
    plain_lemma = substitute_lemma(plain, reference.pos)
    return plain_lemma in reference.index and plain_lemma != reference.target_lemma


_substitute_of, _score_of = itemgetter(0), itemgetter(1)


def substitute_lemma(substitute: str, pos: str) -> str:
    """A system's substitute lemmatized as scoring lemmatizes it (a long one without filling the cache)."""
    return (lemmatize if len(substitute) <= CACHED_LENGTH else lemmatize_bounded)(substitute, pos)


def prepare_prediction(
    pairs: Iterable[tuple[str, float]], reference: Reference, notes: InputNotes | None = None
) -> list[tuple[str, float]]:
    """As the upstream scorer: order by score (ties as given), lemmatize under the target's POS, drop the target's
    lemma, keep each lemma's best occurrence. Returns [(lemma, score)] ordered by score."""
    best: dict[str, float] = {}
    target_lemma, pos = reference.target_lemma, reference.pos
    # reverse=True keeps equal scores in the given order, as upstream's stable sort on -score does.
    ordered = sorted(pairs, key=_score_of, reverse=True)
    # The lemmatizer's cache would keep every long substitute a file holds: those take lemmatize_bounded.
    short = max(map(len, map(_substitute_of, ordered)), default=0) <= CACHED_LENGTH
    lemmatize_each = lemmatize if short else lemmatize_bounded
    for substitute, score in ordered:
        lemma = lemmatize_each(substitute, pos)
        if lemma == target_lemma:
            if notes is not None:
                notes.target_copies += 1
            continue
        if notes is not None:
            if not lemma:
                notes.empty_substitutes += 1
            elif lemma in best:
                notes.duplicates += 1
            elif not substitute.isascii() and unicode_variant(substitute, lemma, reference):
                notes.unicode_variants += 1
        if lemma not in best:
            best[lemma] = score
    return list(best.items())
