"""SemEval-2007 Task 10's best and oot, exactly as McCarthy & Navigli's Perl scorer (semeval07_score.pl)
computes them, on the scorer's preprocessed references and predictions: its regular expressions, its
normalisation of answers, and its rules for which items count."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from swords_metric.references.reference import Reference

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


# A gold lemma the Perl scorer's patterns read whole, as written: two or more ASCII word characters, apostrophes,
# hyphens and spaces, starting with a word character (every gold lemma of the shipped benchmarks is one).
_PLAIN_LEMMA = r"\w[\w'\- ]+"
_PLAIN_LINES = re.compile(rf"{_PLAIN_LEMMA}(?:\n{_PLAIN_LEMMA})*", re.ASCII)
_count = itemgetter(1)


def semeval_gold(reference: Reference) -> SemevalGold | None:
    """readgoldfile() on the line `dummy.n ID :: sub n;sub n;…;` built from the reference: substitutes
    with at least one positive judgement, weighted by that count, most frequent first. None when the
    scorer would not count the item (fewer than two answers and no answer given twice)."""
    # Most frequent first, ties in the reference's order (a stable sort, reversed comparisons).
    entries = sorted(
        [(lemma, n) for lemma, n in zip(reference.lemmas, reference.positives, strict=True) if n > 0],
        key=_count,
        reverse=True,
    )
    # Every lemma plain, checked in one match of their lines (none holds a line break: one line an entry).
    lines = "\n".join([lemma for lemma, _ in entries])
    if not entries or ("pn" not in lines and lines.count("\n") == len(entries) - 1 and _PLAIN_LINES.fullmatch(lines)):
        # Each field is read back as it was written (the patterns match a plain lemma whole, and its count): the
        # line need not be written and parsed (about half the cost of reading a split's references).
        return _gold_from(entries) if len(entries) > 1 or (entries and entries[0][1] > 1) else None
    answers = _perl_line_rest(";".join(f"{lemma} {n}" for lemma, n in entries) + ";")
    fields = [f for f in _perl_split_semicolons(answers) if "pn" not in f]  # the scorer drops proper nouns so
    first = _GOLD_FIRST.search(fields[0]) if fields else None
    if not (len(fields) > 1 or (first is not None and int(first.group(1)) > 1)):
        return None
    read = (_GOLD_ENTRY.search(text) for text in fields)
    return _gold_from((match.group(1), int(match.group(2))) for match in read if match is not None)


def _gold_from(entries) -> SemevalGold:
    """The gold of (answer as the pattern reads it, its count) in the line's order: each answer's share (and its
    hyphen-less variant), and the mode: the first answer, unless another has its count."""
    counts: dict[str, int] = {}
    mode, mode_count, mode_cancelled = None, None, False
    for text, n in entries:
        answer = text.replace("'", "", 1)
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
    if answer.startswith("non") and (non := _NON_PREFIX.match(answer)):
        answer = "non" + non.group(2)
    if "-" in answer:
        answer = answer.replace("-", " ")
    if "'" in answer:
        answer = answer.replace("'", "", 1)
    return answer


def semeval_answers(lemmas: Sequence[str]) -> list[str]:
    """The system line `sub;sub;…;` as the scorer splits and normalises it (fixmisc): "non-x"/"non x" becomes "nonx",
    hyphens spaces, one apostrophe removed (its American/British table never applies in Perl, nor here)."""
    line = _perl_line_rest(";".join(lemmas) + ";")
    answers = _perl_split_semicolons(line)
    if "-" in line or "'" in line or "non" in line:  # else fixmisc leaves every answer as it is
        answers = [_fix_answer(answer) for answer in answers]
    return answers


def semeval_values(gold: SemevalGold | None, ranked: Sequence[str], values: dict[str, float]) -> None:
    """One target's best and oot sums (credit, attempted, mode attempted and hit; items and modes counted)
    into `values`, from its whole ranking of lemmas."""
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
        # Summed in order, as the scorer does (float sums depend on it); the answers it has no share for add 0.0.
        for share in [norms[answer] for answer in guesses if answer in norms]:
            credit += share
        values[f"{task}:credit"] = credit / len(answers) if task == "best" else credit
        if gold.mode is not None:
            values[f"{task}:mode_attempted"] = 1.0
            hit = answers[0] == gold.mode if task == "best" else gold.mode in guesses
            values[f"{task}:mode_hit"] = float(hit)
