"""The figures `swords judge validate` measures, and when they are a measurement at all.

Each comparison is a list of judged values against a list of human scores of the same candidates: accuracy and
Cohen's kappa at acceptable (> 0.5) and conceivable (> 0), and Spearman's rho. Kappa is undefined (None) when
chance agreement is 1: both sides gave every candidate one and the same verdict, so no disagreement was possible
(an always-`reject` judge on a sample holding no acceptable substitute); Spearman is undefined when a side is
constant. A figure is never 1.0 by default.

Beside the judge and the human ceiling (two pools of annotators), `one_person`: a single human label held out of
each candidate's labels (drawn with the seed) against the score of the rest, on the candidates the judge labelled,
so the judge is read beside one annotator (the idea of the alternative annotator test, Calderon et al., ACL 2025).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from swords_metric import MIN_AGREEMENT_CANDIDATES, accuracy, cohen_kappa, spearman

LEVELS = (("acceptable", 0.5), ("conceivable", 0.0))
# Below this many labelled candidates, or with no acceptable or no unacceptable one among them, a validation is
# not a measurement: kappa at acceptable has nothing to tell apart, and 1 in 50 moves an accuracy by 0.02.
MIN_CANDIDATES = MIN_AGREEMENT_CANDIDATES  # the metric refuses a claimed agreement on fewer


def _finite(value: float | None) -> float | None:
    return round(float(value), 4) if value is not None and math.isfinite(value) else None


def kappa(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Cohen's kappa, None where chance agreement is 1 (both sides one and the same constant)."""
    if not a or len(set(a) | set(b)) == 1:
        return None
    return _finite(cohen_kappa(a, b))


def agreement_figures(judged: list[float], scores: list[float]) -> dict:
    """Judged values (accept rates, a held-out label) against the human scores of the same candidates. Flat keys, as
    a judgments record's `agreement` carries them (swords_metric's signature reads them); None where undefined."""
    figures: dict = {"candidates": len(judged)}
    for name, above in LEVELS:
        a, b = [value > above for value in judged], [score > above for score in scores]
        figures[f"accuracy_{name}"] = _finite(accuracy(a, b)) if judged else None
        figures[f"kappa_{name}"] = kappa(a, b)
    figures["spearman"] = _finite(spearman(judged, scores)) if judged else None
    return figures


def held_out(key: str, count: int, seed: int) -> int:
    """Which of a candidate's `count` labels is the one person's: drawn with the seed and the candidate's key
    (`<target id> <substitute>`), so it does not depend on the order the judge answered in."""
    return random.Random(f"{seed} {key}").randrange(count)


def one_person(labels: dict[str, list[str]], seed: int) -> dict:
    """One annotator against the rest: of each candidate's SWORDS labels (TRUE, FALSE, UNSURE; keyed as held_out
    keys them), one held out is that person's verdict (TRUE is accept; UNSURE counts as no, as SWORDS's score counts
    it), and the rest's share of TRUE is the score it is compared with. A candidate with one label is left out."""
    person, rest = [], []
    for key, candidate in labels.items():
        if len(candidate) < 2:
            continue
        held = held_out(key, len(candidate), seed)
        others = candidate[:held] + candidate[held + 1 :]
        person.append(1.0 if candidate[held] == "TRUE" else 0.0)
        rest.append(others.count("TRUE") / len(others))
    return agreement_figures(person, rest)


def not_a_measurement(scores: list[float]) -> str | None:
    """Why the labelled candidates with these human scores are too few to measure a judge, or None."""
    if len(scores) < MIN_CANDIDATES:
        return f"{len(scores)} labelled candidates (a measurement needs {MIN_CANDIDATES})"
    acceptable = sum(score > 0.5 for score in scores)
    if acceptable in (0, len(scores)):
        kind = "no acceptable" if not acceptable else "only acceptable"
        return f"{kind} substitutes among the {len(scores)} labelled candidates (kappa has nothing to tell apart)"
    return None
