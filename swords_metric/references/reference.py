"""One target's gold as scoring reads it: a benchmark row's substitutes lemmatized under the target's POS as the
official scorers lemmatize them, merged by lemma, abstentions removed (prepare_reference -> Reference)."""

from __future__ import annotations

from dataclasses import dataclass, field

from swords_metric.wordnet.lemmatizer import lemmatize, lemmatize_lowercased, wordnet_pos


@dataclass(frozen=True)
class Reference:
    """One target's reference after the scorer's preprocessing."""

    id: str
    pos: str
    target_lemma: str
    lemmas: tuple[str, ...]
    positives: tuple[int, ...]
    totals: tuple[int, ...]
    # LexSubGen's view of the target (swords_metric/metrics/lexsubgen.py): the substitutes as listed with a positive
    # judgement, and the target's lemma as it compares predictions with it.
    lexsubgen_gold: tuple[str, ...] = ()
    lexsubgen_target: str = ""
    index: dict = field(default_factory=dict, compare=False, repr=False)  # lemma -> position
    cache: dict = field(default_factory=dict, compare=False, repr=False)  # what scoring derives from it, once

    def score(self, i: int) -> float:
        return self.positives[i] / self.totals[i]


def _judgement_counts(substitute: dict) -> tuple[int, int]:
    """(positive, non-abstaining) judgements. CoInCo / SemEval carry no labels: each annotator who gave the
    substitute is a positive, and nobody rejected it."""
    if labels := substitute.get("labels"):
        # Spelled out (not a loop over the label sets): this runs for every reference substitute.
        positive = labels.count("TRUE") + labels.count("TRUE_IMPLICIT")
        return positive, len(labels) - labels.count("UNSURE")
    positive = int(substitute["votes_positive"])
    return positive, int(substitute.get("votes_total", positive))


# Benchmarks whose targets the upstream library holds in lower case: every SemEval-2007 target of its
# dataset is ("thus" where the sentence, and our `target`, say "Thus"). The lemmatizer is case-sensitive.
_LOWER_CASE_TARGETS = frozenset({"semeval07"})


def scored_target(row: dict) -> str:
    """The target string as the upstream scorer lemmatizes it."""
    target = row["target"]
    return target.lower() if row.get("benchmark") in _LOWER_CASE_TARGETS else target


def prepare_reference(row: dict) -> Reference | None:
    """Lemmatize substitutes and target under the target's POS, drop the target's lemma, merge substitutes sharing a
    lemma (adding their judgements), drop abstentions and what is left with none. Candidates annotators did not give
    are negatives (one FALSE), as in upstream's CoInCo and SemEval. None when the row has no substitutes."""
    substitutes = row.get("substitutes") or []
    if not substitutes:
        return None
    pos = row.get("pos") or ""
    target_lemma = lemmatize(scored_target(row), pos)
    # Judgements only matter through their counts, so merging adds counts instead of concatenating lists.
    merged: dict[str, list[int]] = {}
    given = {s["substitute"].lower() for s in substitutes}
    items = [(s["substitute"], _judgement_counts(s)) for s in substitutes]
    items += [(c, (0, 1)) for c in row.get("candidates") or [] if c.lower() not in given]
    for text, (positive, total) in items:
        lemma = lemmatize(text, pos)
        if lemma == target_lemma:
            continue
        counts = merged.setdefault(lemma, [0, 0])
        counts[0] += positive
        counts[1] += total
    kept = [(lemma, counts) for lemma, counts in merged.items() if counts[1] > 0]
    return Reference(
        id=str(row.get("id", "")),
        pos=pos,
        target_lemma=target_lemma,
        lemmas=tuple(lemma for lemma, _ in kept),
        positives=tuple(counts[0] for _, counts in kept),
        totals=tuple(counts[1] for _, counts in kept),
        lexsubgen_gold=tuple(text for text, (positive, _) in items[: len(substitutes)] if positive > 0),
        lexsubgen_target=lemmatize_lowercased(row["target"], wordnet_pos(pos)),
        index={lemma: i for i, (lemma, _) in enumerate(kept)},
    )
