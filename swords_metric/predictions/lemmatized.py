"""A system's list for one target as the upstream scorer ranks it (prepare_prediction): ordered by score,
lemmatized under the target's POS, the target's lemma dropped, each lemma's best occurrence kept; and what was
unusual in it counted (InputNotes: empty substitutes, copies of the target, duplicates, Unicode variants)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter

from swords_metric.references.reference import Reference
from swords_metric.wordnet.lemmatizer import CACHED_LENGTH, lemmatize, lemmatize_bounded


@dataclass
class InputNotes:
    """What a predictions file held that the scorer treats in its particular (upstream's) way."""

    empty_substitutes: int = 0  # "" or whitespace only: one wrong answer (all such merge into one)
    target_copies: int = 0  # lemmatize to the target's lemma: dropped
    duplicates: int = 0  # share a lemma with a better-ranked substitute: merged into it
    unicode_variants: int = 0  # match a gold word only as plain_text: not matched, as upstream

    def as_dict(self) -> dict[str, int]:
        return {
            "empty_substitutes": self.empty_substitutes,
            "target_copies": self.target_copies,
            "duplicates": self.duplicates,
            "unicode_variants": self.unicode_variants,
        }

    def add(self, other: InputNotes) -> None:
        self.empty_substitutes += other.empty_substitutes
        self.target_copies += other.target_copies
        self.duplicates += other.duplicates
        self.unicode_variants += other.unicode_variants


def plain_text(text: str) -> str:
    """`text` without invisible format characters (Unicode category Cf: zero-width joiners and spaces, bidi
    marks, soft hyphens) and NFKC-normalised (accents composed, fullwidth letters and no-break spaces as their
    plain forms): what a reader sees. Upstream compares substitutes as they are, so scoring does not use this;
    it only counts the predicted substitutes that would match a gold word this way (unicode_variant)."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", "".join(c for c in text if unicodedata.category(c) != "Cf"))


def unicode_variant(substitute: str, lemma: str, reference: Reference) -> bool:
    """Whether a predicted substitute whose `lemma` is not in the reference would match a gold lemma (other than
    the target's) as plain_text: a variant of a gold word a reader cannot tell from it (an NFD "table d'hôte", a
    zero-width joiner, a no-break space, fullwidth letters). Only non-ASCII substitutes can be such variants."""
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
    """As the upstream scorer: order by score (stable: ties keep the given order), lemmatize under the
    target's POS, drop the target's lemma, keep each lemma's first (best) occurrence. Returns
    [(lemma, score)] ordered by score."""
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
