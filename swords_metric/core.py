"""The SWORDS paper's metrics, computed exactly as the official scorers compute them, in plain Python: the
inputs' preprocessing.

Pipeline (one place for each step):
  prepare_reference(row)              dataset row -> Reference (lemmatized, merged, abstentions removed)
  normalize_prediction_items(items)   any accepted form of a system's list -> [(substitute, score)]
  prepare_prediction(pairs, ref)      -> [(lemma, score)], ordered, deduplicated as upstream
  target_scores.rank_prediction, score_targets, TargetScores.aggregate: the metrics (metrics/target_scores.py);
  SemEval-2007's best/oot rules in metrics/semeval.py.
"""

from __future__ import annotations

import reprlib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

import numpy as np

from swords_lexsub.terminal import shown as terminal_text
from swords_metric.metrics.lexsubgen import target_lemma as lexsubgen_target_lemma
from swords_metric.wordnet.lemmatizer import CACHED_LENGTH, lemmatize, lemmatize_bounded


class MetricInputError(ValueError):
    """Predictions or references the metric cannot score; the message names the target. The message is one line
    as a terminal shows it: control characters, lone surrogates and bidirectional controls that a file name or
    an id brought in are escaped (swords_lexsub.terminal.shown)."""

    def __init__(self, message: object = "", *args: object) -> None:
        super().__init__(terminal_text(message), *args)


# --- References ---------------------------------------------------------------------------------------


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
    """(positive, non-abstaining) judgements. CoInCo / SemEval carry no labels: each annotator who produced
    the substitute is an implicit positive, and nobody rejected it."""
    labels = substitute.get("labels")
    if labels:
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
    """Lemmatize reference substitutes and target under the target's POS, drop the target's own lemma,
    merge substitutes sharing a lemma (concatenating their judgements), remove abstentions and drop what
    is left with none. Candidates from the ranking pool that annotators did not give are negatives (one
    FALSE), as in the upstream release of CoInCo and SemEval. None when the row has no substitutes."""
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
        counts = merged.get(lemma)
        if counts is None:
            merged[lemma] = [positive, total]
        else:
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
        lexsubgen_target=lexsubgen_target_lemma(row["target"], pos),
        index={lemma: i for i, (lemma, _) in enumerate(kept)},
    )


# --- Predictions --------------------------------------------------------------------------------------


def shown(value: object, limit: int = 60) -> str:
    """repr(value) cut to `limit` characters, for messages (a file may hold a substitute of megabytes)."""
    try:
        text = repr(value)
    except RecursionError:  # nested too deep for repr (a list 100,000 deep): shown to six levels
        text = reprlib.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class OversizedInteger:
    """A JSON integer with more digits than Python converts (sys.get_int_max_str_digits()): the file reader
    leaves one where the number stood, so that the message names the item it is in."""

    __slots__ = ("digits",)

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return f"an integer of {self.digits:,} digits"


_BY_POSITION = object()  # a {"substitute": ...} item without a "score": ranked by its position


def _score_value(score, where: str, position: int, substitute: str) -> float:
    """A score as the upstream scorer reads it (`float(score)`): numbers, booleans and numeric strings;
    infinities rank first or last. NaN has no rank (upstream's own order checks trip on it) and null is
    not a number (upstream's float() fails on it): both refused."""
    kind = type(score)
    if kind is float:
        value = score
    elif kind is int and -1e300 < score < 1e300:  # the common case, fast; huge ints take the long way
        value = float(score)
    else:
        item = f"{where}item {position} ({shown(substitute, 40)})"
        if score is None:
            raise MetricInputError(
                f"{item}: score is null; give a number (or leave the score out of a "
                '{"substitute": ...} item to rank it by position)'
            )
        if isinstance(score, OversizedInteger):
            raise MetricInputError(f"{item}: score is {score!r}, too large for a float")
        if isinstance(score, bytes) or not isinstance(score, int | float | str | np.integer | np.floating | np.str_):
            raise MetricInputError(f"{item}: score {shown(score, 40)} is not a number")
        try:
            value = float(score)
        except OverflowError:
            raise MetricInputError(f"{item}: score is too large for a float") from None
        except ValueError:
            raise MetricInputError(f"{item}: score {str(score)[:40]!r} is not a number") from None
    if value != value:
        raise MetricInputError(
            f"{where}item {position} ({shown(substitute, 40)}): score is NaN, which cannot be ranked"
        )
    return value


def normalize_prediction_items(items, target_id: str = "") -> list[tuple[str, float]]:
    """[(substitute, score)] from a plain ranked list, [substitute, score] pairs or {substitute, score}
    dicts (lists, tuples or numpy arrays); a plain list, and a dict item without a score, rank by position
    (scores 0, -1, -2, …, as upstream). Substitutes are kept as given, empty ones included: the scorer
    treats them as upstream does. What cannot be read raises MetricInputError naming the target and the
    item."""
    where = f"target {target_id}: " if target_id else ""
    if items is None:
        return []
    if isinstance(items, str | bytes) or not isinstance(items, Sequence | np.ndarray):
        raise MetricInputError(f"{where}predictions must be a list of substitutes, got {type(items).__name__}")
    pairs = []
    append = pairs.append
    for position, item in enumerate(items):
        kind = type(item)  # exact-type fast paths first: ABC isinstance checks dominate on long lists
        if kind is str:
            append((item, -float(position)))
            continue
        if (kind is list or kind is tuple) and len(item) == 2:
            substitute, score = item
            if type(substitute) is str:  # the common [substitute, score] of a file: no further checks needed
                score_kind = type(score)
                if score_kind is float and score == score:  # not NaN
                    append((substitute, score))
                    continue
                if score_kind is int and -1e300 < score < 1e300:
                    append((substitute, float(score)))
                    continue
        elif kind is dict and "substitute" in item:
            substitute, score = item["substitute"], item.get("score", _BY_POSITION)
        elif isinstance(item, str):  # numpy.str_ and other str subclasses
            pairs.append((str(item), -float(position)))
            continue
        elif (isinstance(item, Sequence | np.ndarray) and not isinstance(item, bytes)) and len(item) == 2:
            substitute, score = item
        else:
            raise MetricInputError(
                f"{where}item {position} is {shown(item)}, expected a substitute or [substitute, score]"
            )
        if not isinstance(substitute, str):
            raise MetricInputError(f"{where}item {position}: substitute {shown(substitute)} is not a string")
        substitute = str(substitute)
        value = -float(position) if score is _BY_POSITION else _score_value(score, where, position, substitute)
        pairs.append((substitute, value))
    return pairs


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
