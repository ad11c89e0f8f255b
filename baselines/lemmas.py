"""A system's ranked list with one form per lemma, lemmatized as the SWORDS metrics lemmatize (issue 50): the
metrics merge a lemma's forms into its best-ranked one, so a later form ("rooms" after "room") fills a place in the
list without counting; it is left out, and the next word takes its place."""

from __future__ import annotations

from swords_baselines.system import Prediction
from swords_metric import lemmatize


def one_form_per_lemma(prediction: Prediction, pos: str | None) -> Prediction:
    """`prediction` (best first) keeping each lemma's first form, lemmatized under the target's UD POS `pos` as the
    metrics do; unchanged without a POS (ProLex, TSAR-2022: their metrics compare forms, not lemmas)."""
    if not pos:
        return prediction
    seen: set[str] = set()
    kept = []
    for word, score in prediction:
        lemma = lemmatize(word, pos)
        if lemma not in seen:
            seen.add(lemma)
            kept.append((word, score))
    return kept
