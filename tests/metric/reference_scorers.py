"""The official scorers, run on our inputs: the machinery of the test_metric_parity_* files (their fixtures, `perl`
and `gap_calc`, are in conftest.py; the checks that the scorers' numbers are ours are in scorer_parity.py).

* best / oot (precision, recall, mode precision, mode recall): the SemEval-2007 scorer ``semeval07_score.pl``, run
  with ``perl`` on gold and system files written the way the upstream SWORDS scorer wrote them; its printed
  (rounded) numbers and its per-item ``-v`` output, read back.
* gap / gap_rat: Melamud's ``GeneralizedAveragePrecision.calc`` (conftest.py's `gap_calc`).

Which of two colliding gold answers the Perl scorer counts depends on Perl's hash order, i.e. on the random hash
seed of the process: runs pin PERL_HASH_SEED, and take another seed when asked (scorer_parity.py says when).

The reference scorers are never copied into the repository: they are run from the shared data folder.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from swords_dataset.builder.sources import default_sources_dir
from swords_metric.references.reference import Reference

SHARED = default_sources_dir()
SCORERS = SHARED / "reference-scorers"
PERL_SCORER = SCORERS / "semeval07_score.pl"
GAP_SCORER = SCORERS / "generalized_average_precision.py"


def perl_hash_seed(i: int) -> str:
    """PERL_HASH_SEED is read as hex bytes; small numbers barely change Perl's hash order, so spread them."""
    return hashlib.sha256(str(i).encode()).hexdigest()[:32]


PINNED_SEED = perl_hash_seed(0)

Prepared = list[tuple[str, float]]


# --- The reference scorers ---------------------------------------------------------------------------


class PerlDied(RuntimeError):
    pass


@dataclass
class PerlRun:
    """What semeval07_score.pl -v printed: its totals, its rounded scores, and its per-item lines."""

    output: str
    items: int  # items the scorer counts (recall denominator)
    attempted: int
    modes: int
    mode_attempted: int
    printed: dict[str, str]  # p, r, mode_p, mode_r, as printed (rounded percentages)
    credit: dict[str, float] = field(default_factory=dict)  # id -> the item's score (best: credit / guesses)
    guesses: dict[str, int] = field(default_factory=dict)  # best only
    mode_hit: dict[str, bool] = field(default_factory=dict)  # id -> mode matched, for items with a mode
    errors: list[str] = field(default_factory=list)  # system lines it could not read


_BEST_ITEM = re.compile(r"^\S+ Item (\S+) credit (\S*) guesses (\d+) human responses \S+: score is \S*$")
_OOT_ITEM = re.compile(r"^\S+ Item (\S+) credit (\S*) human responses \S+: score is \S*$")
_BEST_MODE = re.compile(r"^\S+ Item (\S+) mode '.*' : system '.*' +(correct|wrong)$")
_OOT_MODE = re.compile(r"^\S+ Item (\S+) mode '.*'  (found in guesses|not found)$")
_TOTALS = re.compile(r"^Total = (\d+), attempted = (\d*)$")
_MODE_TOTALS = re.compile(r"^Total with mode (\d+) attempted (\d*)$")
_SCORES = re.compile(r"^(?:Mode )?precision = (\S+), (?:Mode )?recall = (\S+)$")
_ERROR = re.compile(r"^Error in \S+ on line \d+$")
_OTHER = re.compile(r"^(?:\S+ Item \S+ exceeded 10 guesses|WARNING .*)$")


def gold_line(reference: Reference) -> str:
    """The upstream wrapper's gold line: substitutes with a positive judgement, most votes first."""
    entries = sorted(
        ((lemma, n) for lemma, n in zip(reference.lemmas, reference.positives, strict=True) if n > 0),
        key=lambda entry: -entry[1],
    )
    return f"dummylemma.n {reference.id} :: " + ";".join(f"{lemma} {n}" for lemma, n in entries) + ";"


def system_line(reference: Reference, prepared: Prepared | None, task: str) -> str:
    separator = "::" if task == "best" else ":::"
    return f"dummylemma.n {reference.id} {separator} " + ";".join(lemma for lemma, _ in prepared or []) + ";"


def run_perl(
    perl: str,
    references: Sequence[Reference | None],
    predictions: Sequence[Prepared | None],
    task: str,
    seed: str = PINNED_SEED,
) -> PerlRun:
    pairs = [(ref, pred) for ref, pred in zip(references, predictions, strict=True) if ref is not None]
    with tempfile.TemporaryDirectory() as tmp:
        gold, system = Path(tmp) / "gold.txt", Path(tmp) / "system.txt"
        gold.write_bytes("".join(gold_line(ref) + "\n" for ref, _ in pairs).encode())
        system.write_bytes("".join(system_line(ref, pred, task) + "\n" for ref, pred in pairs).encode())
        env = {**os.environ, "PERL_HASH_SEED": seed, "PERL_PERTURB_KEYS": "0"}
        proc = subprocess.run(
            [perl, str(PERL_SCORER), str(system), str(gold), "-t", task, "-v"],
            capture_output=True,
            env=env,
            timeout=120,
            check=False,
        )
    output = proc.stdout.decode("utf-8", errors="replace")
    if proc.returncode != 0:
        raise PerlDied(proc.stderr.decode("utf-8", errors="replace"))
    return parse_perl_output(output, task)


def parse_perl_output(output: str, task: str) -> PerlRun:
    item_line, mode_line = (_BEST_ITEM, _BEST_MODE) if task == "best" else (_OOT_ITEM, _OOT_MODE)
    credit, guesses, mode_hit, scores, errors, totals, mode_totals = {}, {}, {}, [], [], None, None
    for line in output.splitlines():
        if m := item_line.match(line):
            assert m.group(1) not in credit, line
            idcorr = float(m.group(2)) if m.group(2) else 0.0  # Perl prints an undefined credit as ""
            if task == "best":
                guesses[m.group(1)] = int(m.group(3))
                credit[m.group(1)] = idcorr / int(m.group(3))
            else:
                credit[m.group(1)] = idcorr
        elif m := mode_line.match(line):
            mode_hit[m.group(1)] = m.group(2) in ("correct", "found in guesses")
        elif m := _TOTALS.match(line):
            totals = (int(m.group(1)), int(m.group(2) or 0))
        elif m := _MODE_TOTALS.match(line):
            mode_totals = (int(m.group(1)), int(m.group(2) or 0))
        elif m := _SCORES.match(line):
            scores.extend(m.groups())
        elif _ERROR.match(line):
            errors.append(line)
        else:
            assert _OTHER.match(line), f"unexpected scorer output: {line!r}"
    assert totals and mode_totals and len(scores) == 4, output
    printed = dict(zip(("p", "r", "mode_p", "mode_r"), scores, strict=True))
    return PerlRun(output, *totals, *mode_totals, printed, credit, guesses, mode_hit, errors)


def myround(percent: float) -> str:
    """The scorer's myround (int(x * 100 * 100 + .5) / 100 on the fraction x), printed with 2 decimals."""
    return f"{int(percent * 100 + 0.5) / 100:.2f}"


def make_row(tid: str, target: str, pos: str, substitutes: dict[str, tuple[int, int]], candidates=()) -> dict:
    """A dataset row with SWORDS-style labels: {substitute: (positive judgements, judgements)}."""
    subs = [
        {
            "substitute": text,
            "score": positive / total,
            "votes_positive": positive,
            "votes_total": total,
            "labels": ["TRUE"] * positive + ["FALSE"] * (total - positive),
            "sources": ["handmade"],
        }
        for text, (positive, total) in substitutes.items()
    ]
    return {"id": tid, "target": target, "pos": pos, "substitutes": subs, "candidates": list(candidates)}


# Every case is scored together with this target, which the system attempts with a unique mode, so that the
# Perl scorer has something to divide by (it dies on a zero denominator, see the test at the end).
ANCHOR = make_row("anchor", "bright", "ADJ", {"intelligent": (3, 10), "smart": (2, 10), "brilliant": (1, 10),
                                               "dark": (0, 10)})  # fmt: skip
ANCHOR_SYSTEM = ["intelligent", "shiny", "smart"]
