"""The SWORDS paper's metrics, computed exactly as the official scorers compute them, in plain Python.

Pipeline (one place for each step):
  prepare_reference(row)            dataset row -> Reference (lemmatized, merged, abstentions removed)
  prepare_prediction(items, ref)    a system's list -> [(lemma, score)], ordered, deduplicated as upstream
  score_targets(refs, preds, k)     -> TargetScores: per-target sums (numerators and denominators)
  TargetScores.aggregate(rows)      -> {metric name: percent}, micro- or macro-averaged as each metric is

Every metric is a ratio of sums over targets, which makes bootstrap resampling and per-POS breakdowns
cheap: they aggregate a subset (or a resample) of the same per-target rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

import numpy as np

from .lemmatizer import lemmatize

ACCEPTABLE = 0.5  # score > 0.5
CONCEIVABLE = 0.1  # score >= 0.1 (with at most 10 judgements: at least one positive)
LEXSUBGEN_KS = {"p": (1, 3), "r": (10,)}


class MetricInputError(ValueError):
    """Predictions or references the metric cannot score; the message names the target."""


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
        index={lemma: i for i, (lemma, _) in enumerate(kept)},
    )


# --- Predictions --------------------------------------------------------------------------------------


def _score_value(score, where: str, position: int, substitute: str) -> float:
    """A score as the upstream scorer reads it (`float(score)`): numbers, booleans and numeric strings;
    infinities rank first or last. NaN has no rank (upstream's own order checks trip on it): refused."""
    kind = type(score)
    if kind is float:
        value = score
    elif kind is int and -1e300 < score < 1e300:  # the common case, fast; huge ints take the long way
        value = float(score)
    else:
        if isinstance(score, bytes) or not isinstance(score, int | float | str | np.integer | np.floating | np.str_):
            raise MetricInputError(f"{where}item {position} ({substitute!r}): score {score!r} is not a number")
        try:
            value = float(score)
        except OverflowError:
            raise MetricInputError(f"{where}item {position} ({substitute!r}): score is too large for a float") from None
        except ValueError:
            raise MetricInputError(
                f"{where}item {position} ({substitute!r}): score {str(score)[:40]!r} is not a number"
            ) from None
    if value != value:
        raise MetricInputError(f"{where}item {position} ({substitute!r}): score is NaN, which cannot be ranked")
    return value


def normalize_prediction_items(items, target_id: str = "") -> list[tuple[str, float]]:
    """[(substitute, score)] from a plain ranked list, [substitute, score] pairs or {substitute, score}
    dicts (lists, tuples or numpy arrays); a plain list ranks by position (scores 0, -1, -2, …, as
    upstream). Substitutes are kept as given, empty ones included: the scorer treats them as upstream
    does. What cannot be read raises MetricInputError naming the target and the item."""
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
            substitute, score = item["substitute"], item.get("score")
        elif isinstance(item, str):  # numpy.str_ and other str subclasses
            pairs.append((str(item), -float(position)))
            continue
        elif (isinstance(item, Sequence | np.ndarray) and not isinstance(item, bytes)) and len(item) == 2:
            substitute, score = item
        else:
            shown = repr(item)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise MetricInputError(f"{where}item {position} is {shown}, expected a substitute or [substitute, score]")
        if not isinstance(substitute, str):
            raise MetricInputError(f"{where}item {position}: substitute {substitute!r} is not a string")
        substitute = str(substitute)
        value = -float(position) if score is None else _score_value(score, where, position, substitute)
        pairs.append((substitute, value))
    return pairs


@dataclass
class InputNotes:
    """What a predictions file held that the scorer treats in its particular (upstream's) way."""

    empty_substitutes: int = 0  # "" or whitespace only: one wrong answer (all such merge into one)
    target_copies: int = 0  # lemmatize to the target's lemma: dropped
    duplicates: int = 0  # share a lemma with a better-ranked substitute: merged into it

    def as_dict(self) -> dict[str, int]:
        return {"empty_substitutes": self.empty_substitutes, "target_copies": self.target_copies,
                "duplicates": self.duplicates}


_score_of = itemgetter(1)


def prepare_prediction(
    pairs: Iterable[tuple[str, float]], reference: Reference, notes: InputNotes | None = None
) -> list[tuple[str, float]]:
    """As the upstream scorer: order by score (stable: ties keep the given order), lemmatize under the
    target's POS, drop the target's lemma, keep each lemma's first (best) occurrence. Returns
    [(lemma, score)] ordered by score."""
    best: dict[str, float] = {}
    target_lemma, pos = reference.target_lemma, reference.pos
    # reverse=True keeps equal scores in the given order, as upstream's stable sort on -score does.
    for substitute, score in sorted(pairs, key=_score_of, reverse=True):
        lemma = lemmatize(substitute, pos)
        if lemma == target_lemma:
            if notes is not None:
                notes.target_copies += 1
            continue
        if notes is not None:
            if not lemma:
                notes.empty_substitutes += 1
            elif lemma in best:
                notes.duplicates += 1
        if lemma not in best:
            best[lemma] = score
    return list(best.items())


# --- SemEval-2007 best / oot, as semeval07_score.pl computes them -------------------------------------

# The Perl scorer's regular expressions, byte-for-byte in meaning (ASCII \w and \s, no Unicode).
_GOLD_ENTRY = re.compile(r"(\w[\w'\-\s]+) (\d+)", re.ASCII)
_GOLD_FIRST = re.compile(r"[\w'\-\s]+ (\d+)", re.ASCII)
_NON_PREFIX = re.compile(r"^non(\s|-)(.*)$", re.ASCII)


def _perl_split_semicolons(text: str) -> list[str]:
    """Perl's split(';', $s): trailing empty fields are dropped, inner ones kept."""
    parts = text.split(";")
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _perl_line_rest(text: str) -> str:
    # The scorer reads a line with `(.*)`, which stops at the first newline.
    return text.split("\n", 1)[0]


@dataclass(frozen=True)
class SemevalGold:
    norms: dict[str, float]  # answer -> its share of the annotators' answers (plus hyphen-less variants)
    mode: str | None  # the unique most frequent answer, if any


def semeval_gold(reference: Reference) -> SemevalGold | None:
    """readgoldfile() on the line `dummy.n ID :: sub n;sub n;…;` built from the reference: substitutes
    with at least one positive judgement, weighted by that count, most frequent first. None when the
    scorer would not count the item (fewer than two answers and no answer given twice)."""
    entries = sorted(
        ((lemma, n) for lemma, n in zip(reference.lemmas, reference.positives, strict=True) if n > 0),
        key=lambda entry: -entry[1],
    )
    answers = _perl_line_rest(";".join(f"{lemma} {n}" for lemma, n in entries) + ";")
    fields = [f for f in _perl_split_semicolons(answers) if "pn" not in f]  # the scorer drops proper nouns so
    first = _GOLD_FIRST.search(fields[0]) if fields else None
    if not (len(fields) > 1 or (first is not None and int(first.group(1)) > 1)):
        return None
    counts: dict[str, int] = {}
    mode, mode_count, mode_cancelled = None, None, False
    for text in fields:
        match = _GOLD_ENTRY.search(text)
        if match is None:
            continue
        answer, n = match.group(1).replace("'", "", 1), int(match.group(2))
        if not mode:
            mode, mode_count = answer, n
        elif not mode_cancelled and n == mode_count:
            mode_cancelled = True  # a tie for most frequent: no mode
        counts[answer] = n
    total = sum(counts.values())
    if not total:
        return SemevalGold(norms={}, mode=None if mode_cancelled else mode)
    norms: dict[str, float] = {}
    for answer, n in counts.items():
        norms[answer] = n / total
        if "-" in answer:  # a hyphenated gold answer also matches with spaces
            norms[answer.replace("-", " ")] = n / total
    return SemevalGold(norms=norms, mode=None if mode_cancelled else mode)


def _fix_answer(answer: str) -> str:
    # Most answers hold no "non" prefix, hyphen or apostrophe: test before matching and replacing.
    if answer.startswith("non"):
        non = _NON_PREFIX.match(answer)
        if non:
            answer = "non" + non.group(2)
    if "-" in answer:
        answer = answer.replace("-", " ")
    if "'" in answer:
        answer = answer.replace("'", "", 1)
    return answer


def semeval_answers(lemmas: Sequence[str]) -> list[str]:
    """The system line `sub;sub;…;` as the scorer splits and normalises it (fixmisc): "non-x"/"non x"
    becomes "nonx", hyphens become spaces, one apostrophe is removed. (Its American/British table is
    assigned a hash reference in Perl and so never applies; nor does it here.)"""
    return [_fix_answer(answer) for answer in _perl_split_semicolons(_perl_line_rest(";".join(lemmas) + ";"))]


# --- Per-target scores and their aggregation ---------------------------------------------------------


def _gap_denominator(weights: Iterable[float]) -> float:
    """GAP's denominator, the best average precision the reference allows (depends on the reference only)."""
    denominator, accumulated, rank = 0.0, 0.0, 0
    for weight in sorted(weights, reverse=True):
        accumulated += float(weight)
        if weight > 0:
            rank += 1
            denominator += accumulated / rank
    return denominator


def _gap_pair(facts: _Facts, ranked: Sequence[str]) -> tuple[float | None, float | None]:
    """Generalized average precision (Kishida 2005; Thater et al. 2010), as Melamud's implementation, weighted
    by the positive counts (GAP) and by the ratios (GAP-rat), in one pass over the ranking (a lemma's ratio is
    positive exactly when its count is). None for both when no weight is positive (that implementation
    returns -1 there)."""
    if facts.gap_denominator == 0.0:
        return None, None
    positives, ratios = facts.positives, facts.ratios
    numerator = numerator_rat = accumulated = accumulated_rat = 0.0
    for i, lemma in enumerate(ranked, 1):
        weight = positives.get(lemma)
        if weight:  # absent or zero adds nothing to either sum
            accumulated += weight
            accumulated_rat += ratios[lemma]
            numerator += accumulated / i
            numerator_rat += accumulated_rat / i
    return numerator / facts.gap_denominator, numerator_rat / facts.gap_rat_denominator


@dataclass(frozen=True)
class _Facts:
    """What scoring derives from a reference alone, computed once per reference."""

    acceptable: frozenset[str]
    conceivable: frozenset[str]
    positives: dict[str, int]
    ratios: dict[str, float]
    gap_denominator: float
    gap_rat_denominator: float
    semeval: SemevalGold | None
    lexsubgen_gold: frozenset[str]


def _facts(reference: Reference) -> _Facts:
    facts = reference.cache.get("facts")
    if facts is None:
        lemmas, counts = reference.lemmas, reference.positives
        scores = [p / t for p, t in zip(counts, reference.totals, strict=True)]
        facts = reference.cache["facts"] = _Facts(
            acceptable=frozenset([lemma for lemma, s in zip(lemmas, scores, strict=True) if s > ACCEPTABLE]),
            conceivable=frozenset([lemma for lemma, s in zip(lemmas, scores, strict=True) if s >= CONCEIVABLE]),
            positives=dict(zip(lemmas, counts, strict=True)),
            ratios=dict(zip(lemmas, scores, strict=True)),
            gap_denominator=_gap_denominator(counts),
            gap_rat_denominator=_gap_denominator(scores),
            semeval=semeval_gold(reference),
            lexsubgen_gold=frozenset([lemma for lemma, n in zip(lemmas, counts, strict=True) if n > 0]),
        )
    return facts


def _pr_columns(k: int) -> list[tuple[str, str, str, int]]:
    """(column prefix, setting, threshold, k) of every P/R/F family."""
    families = [(f"{s}_{t}", s, t, k) for s in ("lenient", "strict") for t in ("a", "c")]
    families.append(("strict_c@1", "strict", "c", 1))
    return families


def _ratio(numerator, denominator):
    """100 * n / d, and 0 where d is 0 (scalars or arrays)."""
    numerator, denominator = np.asarray(numerator, dtype=float), np.asarray(denominator, dtype=float)
    out = np.divide(
        100.0 * numerator, denominator, out=np.zeros(np.broadcast(numerator, denominator).shape), where=denominator != 0
    )
    return float(out) if out.ndim == 0 else out


def _harmonic(p, r):
    p, r = np.asarray(p, dtype=float), np.asarray(r, dtype=float)
    out = np.divide(2 * p * r, p + r, out=np.zeros(np.broadcast(p, r).shape), where=(p + r) != 0)
    return float(out) if out.ndim == 0 else out


def metrics_from_totals(total: dict, k: int) -> dict:
    """Every metric, in percent, from column sums (floats, or arrays of resampled sums)."""
    metrics = {}
    for prefix, _, _, k_ in _pr_columns(k):
        name = prefix.split("@")[0]
        hits = total[f"{prefix}:hits"]
        p = _ratio(hits, total[f"{prefix}:n_pred"])
        if prefix == "strict_c@1":
            metrics["strict_c_p@1"] = p
            continue
        r = _ratio(hits, total[f"{prefix}:n_ref_k"])
        rs = _ratio(hits, total[f"{prefix}:n_ref"])
        metrics.update(
            {
                f"{name}_p@{k_}": p,
                f"{name}_r@{k_}": r,
                f"{name}_f@{k_}": _harmonic(p, r),
                f"{name}_rs@{k_}": rs,
                f"{name}_fs@{k_}": _harmonic(p, rs),
            }
        )
    metrics["gap"] = _ratio(total["gap"], total["gap_defined"])
    metrics["gap_rat"] = _ratio(total["gap_rat"], total["gap_defined"])
    for task in ("best", "oot"):
        metrics[f"{task}_p"] = _ratio(total[f"{task}:credit"], total[f"{task}:attempted"])
        metrics[f"{task}_r"] = _ratio(total[f"{task}:credit"], total["semeval:items"])
        metrics[f"{task}_mode_p"] = _ratio(total[f"{task}:mode_hit"], total[f"{task}:mode_attempted"])
        metrics[f"{task}_mode_r"] = _ratio(total[f"{task}:mode_hit"], total["semeval:modes"])
    for kind, ks in LEXSUBGEN_KS.items():
        for k_ in ks:
            metrics[f"lexsubgen_{kind}@{k_}"] = _ratio(total[f"lexsubgen_{kind}@{k_}"], total["lexsubgen:targets"])
    metrics["targets_without_predictions"] = total["no_prediction"]
    return metrics


class TargetScores:
    """Per-target numerators and denominators (one row per scored target) for every metric."""

    def __init__(self, k: int, ids: list[str], pos: list[str], columns: dict[str, np.ndarray]):
        self.k, self.ids, self.pos, self.columns = k, ids, np.asarray(pos), columns

    def __len__(self) -> int:
        return len(self.ids)

    def totals(self, rows: np.ndarray | None = None) -> dict[str, float]:
        """Column sums over the given target rows (all by default; repeats allowed)."""
        if rows is None:
            return {name: float(values.sum()) for name, values in self.columns.items()}
        return {name: float(values[rows].sum()) for name, values in self.columns.items()}

    def resampled_totals(self, counts: np.ndarray) -> dict[str, np.ndarray]:
        """Column sums for many resamples at once: counts[b, t] is how often target t is drawn in resample b."""
        return {name: counts @ values for name, values in self.columns.items()}

    def aggregate(self, rows: np.ndarray | None = None) -> dict[str, float]:
        """Metrics in percent over the given target rows (all by default; repeats allowed)."""
        metrics = metrics_from_totals(self.totals(rows), self.k)
        metrics["targets_scored"] = float(len(self.ids) if rows is None else len(rows))
        return metrics

    def by_pos(self) -> dict[str, dict[str, float]]:
        return {pos: self.aggregate(np.flatnonzero(self.pos == pos)) for pos in sorted(set(self.pos.tolist()))}


def score_targets(
    references: Sequence[Reference | None],
    predictions: Sequence[list[tuple[str, float]] | None],
    k: int = 10,
) -> TargetScores:
    """Score prepared predictions against prepared references (same order); targets whose reference is
    None (no substitutes) are skipped, a missing prediction (None) counts as an empty list."""
    if len(references) != len(predictions):
        raise MetricInputError(f"{len(predictions)} predictions for {len(references)} references")
    families = _pr_columns(k)
    names = [f"{prefix}:{part}" for prefix, *_ in families for part in ("hits", "n_pred", "n_ref_k", "n_ref")]
    names += ["gap", "gap_rat", "gap_defined", "semeval:items", "semeval:modes", "no_prediction", "lexsubgen:targets"]
    names += [
        f"{task}:{part}" for task in ("best", "oot") for part in ("credit", "attempted", "mode_attempted", "mode_hit")
    ]
    names += [f"lexsubgen_{kind}@{k_}" for kind, ks in LEXSUBGEN_KS.items() for k_ in ks]
    # Column names per family, formatted once rather than per target.
    keyed = [(f"{prefix}:hits", f"{prefix}:n_pred", f"{prefix}:n_ref_k", f"{prefix}:n_ref", setting == "lenient",
              threshold == "a", k_) for prefix, setting, threshold, k_ in families]
    rows: list[list[float]] = []
    ids, poses = [], []
    for reference, prediction in zip(references, predictions, strict=True):
        if reference is None or not reference.lemmas:
            continue
        ranked = [lemma for lemma, _ in (prediction or [])]
        facts = _facts(reference)
        values: dict[str, float] = {"no_prediction": float(not prediction)}
        index = reference.index
        lenient = [lemma for lemma in ranked if lemma in index]
        for hits_key, n_pred_key, n_ref_k_key, n_ref_key, is_lenient, is_acceptable, k_ in keyed:
            top = (lenient if is_lenient else ranked)[:k_]
            gold = facts.acceptable if is_acceptable else facts.conceivable
            values[hits_key] = len([lemma for lemma in top if lemma in gold])
            values[n_pred_key] = len(top)
            values[n_ref_k_key] = min(k_, len(gold))
            values[n_ref_key] = len(gold)
        gap, gap_rat = _gap_pair(facts, ranked)
        values["gap_defined"] = float(gap is not None)
        values["gap"], values["gap_rat"] = gap or 0.0, gap_rat or 0.0
        _semeval_target(facts.semeval, ranked, values)
        _lexsubgen_target(facts.lexsubgen_gold, ranked, values)
        rows.append([float(values.get(name, 0.0)) for name in names])
        ids.append(reference.id)
        poses.append(reference.pos)
    matrix = np.asarray(rows, dtype=np.float64).reshape(len(rows), len(names))
    return TargetScores(k, ids, poses, {name: matrix[:, j] for j, name in enumerate(names)})


def _semeval_target(gold: SemevalGold | None, ranked: list[str], values: dict[str, float]) -> None:
    if gold is None:
        return
    values["semeval:items"] = 1.0
    values["semeval:modes"] = float(gold.mode is not None)
    if not gold.norms:  # counted by the scorer, but every answer failed its pattern: never attempted
        return
    answers = semeval_answers(ranked)
    if not answers:
        return
    norms = gold.norms
    for task, guesses in (("best", answers), ("oot", answers[:10])):
        values[f"{task}:attempted"] = 1.0
        credit = 0.0
        for answer in guesses:  # summed in order, as the scorer does (float sums depend on it)
            credit += norms.get(answer, 0.0)
        values[f"{task}:credit"] = credit / len(answers) if task == "best" else credit
        if gold.mode is not None:
            values[f"{task}:mode_attempted"] = 1.0
            hit = answers[0] == gold.mode if task == "best" else gold.mode in guesses
            values[f"{task}:mode_hit"] = float(hit)


_LEXSUBGEN_COLUMNS = [(f"lexsubgen_{kind}@{k}", kind, k) for kind, ks in LEXSUBGEN_KS.items() for k in ks]


def _lexsubgen_target(gold: set[str], ranked: list[str], values: dict[str, float]) -> None:
    """LexSubGen's precision/recall at k: per target |top-k ∩ gold| / |top-k| and / |gold|, macro-averaged."""
    if not gold:
        return
    values["lexsubgen:targets"] = 1.0
    for key, kind, k in _LEXSUBGEN_COLUMNS:
        top = ranked[:k]
        hits = len([lemma for lemma in top if lemma in gold])
        denominator = len(top) if kind == "p" else len(gold)
        values[key] = hits / denominator if denominator else 0.0
