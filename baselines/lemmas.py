"""A system's ranked list with one form per lemma, lemmatized as the SWORDS metrics lemmatize (issue 50): the
metrics merge a lemma's forms into its best-ranked one, so a later form ("rooms" after "room") fills a place in the
list without counting; it is left out, and the next word takes its place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from swords_metric import lemmatize

Item = TypeVar("Item", bound=tuple)  # (word, what goes with it: a score, a WordNet relation)


def one_form_per_lemma(ranked: Sequence[Item], pos: str | None) -> list[Item]:
    """`ranked` (word first in each item, best first) keeping each lemma's first form, lemmatized under the target's
    UD POS `pos` as the metrics do; as it is without a POS (ProLex, TSAR-2022: their metrics compare forms)."""
    if not pos:
        return list(ranked)
    first: dict[str, Item] = {}
    for item in ranked:
        first.setdefault(lemmatize(item[0], pos), item)
    return list(first.values())
