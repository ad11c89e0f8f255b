"""LexSubGen's precision and recall at k (Arefyev et al. 2020; Samsung/LexSubGen), by its conventions, which are
not the SWORDS scorer's:

- the gold is the substitutes as the benchmark lists them (those with a positive judgement): not lemmatized,
  not lower-cased, the target not removed, and each listed substitute counted in |gold|;
- a prediction is lower-cased, then lemmatized (nltk's WordNet lemmatizer under the target's POS), then dropped
  if it is the target's lemma (the lower-cased target, lemmatized the same way); a lemma repeated keeps its best
  rank (LexSubGen's lemmatizing step merges a lemma's forms); the top 10 are kept;
- P@k is the hits among the first k divided by k (a slot not filled is a miss), R@k the hits among the first k
  divided by |gold|; both are averaged over the targets that have a gold substitute.

The project's reading of LexSubGen's `compute_precision_recall_f1_topk` after its post-processing (issue 25); no
parity with LexSubGen's own code was run.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from swords_metric.wordnet.lemmatizer import lemmatize_lowercased, wordnet_pos

#: k of each figure: precision at 1 and 3, recall at 10 (LexSubGen's tables); how deep a ranking is kept.
KS = {"p": (1, 3), "r": (10,)}
DEPTH = 10
COLUMNS = [(f"lexsubgen_{kind}@{k}", kind, k) for kind, ks in KS.items() for k in ks]


def top_predictions(ordered: Iterable[str], target: str, pos: str) -> tuple[str, ...]:
    """A system's substitutes, best first, as LexSubGen scores them (`target`: Reference.lexsubgen_target)."""
    wn_pos = wordnet_pos(pos)
    kept: dict[str, None] = {}
    for substitute in ordered:
        lemma = lemmatize_lowercased(substitute, wn_pos)
        if lemma != target:
            kept.setdefault(lemma)
            if len(kept) == DEPTH:
                break
    return tuple(kept)


def values(gold: Sequence[str], top: Sequence[str], into: dict[str, float]) -> None:
    """One target's P@1, P@3, R@10 (fractions) into `into`, and `lexsubgen:targets` 1; nothing without gold."""
    if not gold:
        return
    into["lexsubgen:targets"] = 1.0
    listed = frozenset(gold)
    for key, kind, k in COLUMNS:
        hits = len([lemma for lemma in top[:k] if lemma in listed])
        into[key] = hits / (k if kind == "p" else len(gold))
