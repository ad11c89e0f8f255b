"""`swords judge validate`: how far an LLM judge agrees with SWORDS's annotators, beside one annotator and beside two
pools of them, and when that is a measurement at all.

The judge sees N candidates SWORDS already judged (10 substitutes of each of N/10 seeded random targets), in tasks
of a run's form with its controls (swords_metric's tasks_for). Its accept rate per candidate (abstain counting as
reject, as SWORDS counts it) is compared with SWORDS's score: accuracy and Cohen's kappa at acceptable (both > 50%)
and conceivable (both > 0%), Spearman's rho, and, where the server gave log-probabilities, Spearman's rho of its
probability of accept. Kappa is undefined (None) when chance agreement is 1 (both sides one constant verdict),
Spearman when a side is constant: a figure is never 1.0 by default. Beside it: one annotator (a label held out of
each candidate's, drawn with the seed, against the rest's score: the alternative annotator test's idea, Calderon et
al., ACL 2025) and the human ceiling (the second annotator pool, `swords_reannotated`, against the main annotation
of the same 89 test targets, `swords_test_subset`: the SWORDS paper, section 4.4). Failed items are counted and left
out. A validation below MIN_CANDIDATES is shown but not recorded: `--agreement` can only sign a measurement.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import swords_dataset
from swords_baselines.judge.outputs import VALIDATE_WRITER, refuse_foreign, validation_entries
from swords_baselines.judge.waits import announce, retry_status, say_slots
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_write, check_output_file
from swords_lexsub.terminal import say, shown
from swords_metric import (
    MAX_CANDIDATES,
    MIN_AGREEMENT_CANDIDATES,
    MetricInputError,
    Scorer,
    accuracy,
    cohen_kappa,
    judge_id,
    spearman,
    tasks_for,
)

MAIN_POOL, SECOND_POOL = "swords_test_subset", "swords_reannotated"  # both: test, the same 89 targets
LEVELS = (("acceptable", 0.5), ("conceivable", 0.0))
# Below this many labelled candidates, or with no acceptable or no unacceptable one among them, a validation is
# not a measurement: kappa at acceptable has nothing to tell apart, and 1 in 50 moves an accuracy by 0.02.
MIN_CANDIDATES = MIN_AGREEMENT_CANDIDATES  # the metric refuses a claimed agreement on fewer


def _finite(value: float | None) -> float | None:
    return round(float(value), 4) if value is not None and math.isfinite(value) else None


def kappa(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Cohen's kappa, None where chance agreement is 1 (both sides one and the same constant)."""
    return None if not a or len(set(a) | set(b)) == 1 else _finite(cohen_kappa(a, b))


def agreement_figures(judged: list[float], scores: list[float]) -> dict:
    """Judged values against the same candidates' human scores, keyed as `agreement` is; None where undefined."""
    figures: dict = {"candidates": len(judged)}
    for name, above in LEVELS:
        a, b = [value > above for value in judged], [score > above for score in scores]
        figures[f"accuracy_{name}"] = _finite(accuracy(a, b)) if judged else None
        figures[f"kappa_{name}"] = kappa(a, b)
    figures["spearman"] = _finite(spearman(judged, scores)) if judged else None
    return figures


def one_person(labels: dict[str, list[str]], seed: int) -> dict:
    """One annotator against the rest: a held-out SWORDS label (TRUE is accept; UNSURE no, as SWORDS counts it)
    against the rest's share of TRUE; a candidate with one label is left out."""
    person, rest = [], []
    for key, candidate in labels.items():
        if len(candidate) < 2:
            continue
        held = random.Random(f"{seed} {key}").randrange(len(candidate))  # by the seed and key, not answer order
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


def human_ceiling() -> dict:
    """The second annotator pool's scores against the main annotation's, on the substitutes both hold."""
    main = {
        row["id"]: {s["substitute"]: s["score"] for s in row["substitutes"]}
        for row in swords_dataset.rows(MAIN_POOL, "test")
    }
    second_scores, main_scores = [], []
    for row in swords_dataset.rows(SECOND_POOL, "test"):
        for substitute in row["substitutes"]:
            if substitute["substitute"] in main.get(row["id"], {}):
                second_scores.append(substitute["score"])
                main_scores.append(main[row["id"]][substitute["substitute"]])
    return {"pools": f"{SECOND_POOL} against {MAIN_POOL} (test)", **agreement_figures(second_scores, main_scores)}


def sample_candidates(rows: list[dict], n: int, seed: int) -> dict[str, list[str]]:
    """N of the split's judged candidates: seeded random targets, MAX_CANDIDATES random substitutes of each."""
    total = sum(len(row["substitutes"]) for row in rows)
    if n > total:
        raise SwordsError(f"--sample {n}: the split has {total:,} judged candidates")
    rng, chosen = random.Random(seed), {}
    for row in rng.sample(rows, len(rows)):
        if n <= 0:
            break
        substitutes = [s["substitute"] for s in row["substitutes"]]
        drawn = rng.sample(substitutes, min(MAX_CANDIDATES, n, len(substitutes)))
        if drawn:
            chosen[row["id"]] = drawn
            n -= len(drawn)
    return chosen


def run_validation(args: argparse.Namespace, judge) -> int:
    if args.dataset != "swords":
        raise SwordsError(
            f"--dataset {args.dataset}: validation compares with SWORDS's human scores: use --dataset swords"
        )
    swords_dataset.check_config("swords", args.split)
    output = Path(args.output) if args.output else None
    entries: dict = {}
    if output is not None:
        if args.sample < MIN_CANDIDATES:  # said before the judge's minutes, not after
            raise SwordsError(
                f"--sample {args.sample}: fewer than {MIN_CANDIDATES} candidates is not a measurement, and --output "
                f"records only measurements; sample {MIN_CANDIDATES} or more, or leave out --output to try the judge"
            )
        check_output_file(output, f"--output {output}", create_folder=True, kind="figures")
        found = validation_entries(output) if output.exists() else {}
        refuse_foreign(output, found is not None, args.force, "swords judge validate")
        entries = found or {}
    started = time.monotonic()
    rows = swords_dataset.rows("swords", args.split)
    judged = {(row["id"], s["substitute"]): s for row in rows for s in row["substitutes"]}
    try:
        scorer = Scorer.from_dataset("swords", args.split)
        tasks = tasks_for(scorer, sample_candidates(rows, args.sample, args.seed), seed=args.seed)
    except MetricInputError as error:
        raise SwordsError(str(error)) from None
    items = [(task, candidate) for task in tasks for candidate in task.candidates]
    rates, human, probabilities, failed, controls = [], [], [], 0, [0, 0]
    labels: dict[str, list[str]] = {}  # each candidate's, for one person's figures
    from swords_lexsub.progress import Progress

    announce(judge, "judge validate")
    with judge, Progress(total=len(items), unit="candidate", desc="validate", file=sys.stderr, disable=None) as bar:
        say_slots(judge, "judge validate")
        judge.client.on_retry = retry_status("judge validate")  # retries said in lines, not in the bar
        for verdict in judge.verdicts(items):
            bar.update(1)
            if verdict.label is None:
                failed += 1
                continue
            accepted = verdict.label == "accept"
            kind = verdict.candidate.control
            if kind is not None:
                controls[0] += accepted == (kind == "target")
                controls[1] += 1
                continue
            substitute = judged[(verdict.task.id, verdict.candidate.substitute)]
            rates.append(1.0 if accepted else 0.0)
            human.append(substitute["score"])
            labels[f"{verdict.task.id} {verdict.candidate.substitute}"] = list(substitute["labels"])
            if verdict.p_accept is not None:
                probabilities.append((verdict.p_accept, substitute["score"]))
    seconds = time.monotonic() - started
    rho = spearman(*zip(*probabilities, strict=True)) if len(probabilities) > 1 else None
    entry = {
        "written_by": VALIDATE_WRITER,
        "dataset": "swords",
        "split": args.split,
        "sample": args.sample,
        "seed": args.seed,
        "server": judge.server,
        "constraint": judge.constraint,
        "tasks": len(tasks),
        "items": len(items),
        "failed": failed,
        "controls": {"right": controls[0], "judged": controls[1]},
        **agreement_figures(rates, human),
        "p_accept": {"candidates": len(probabilities), "spearman": None if rho is None else round(rho, 4)},
        "seconds": round(seconds, 1),
        "requests": judge.requests,
        "seconds_per_request": round(seconds / judge.requests, 2) if judge.requests else None,
        "one_person": one_person(labels, args.seed),
        "human_ceiling": human_ceiling(),
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    print(table(judge.judge, entry))
    reason = not_a_measurement(human)
    if reason is not None:
        say(f"judge validate: not a measurement: {reason}")
        if output is not None:
            say(f"judge validate: nothing recorded in {output}")
            return 1
    elif output is not None:
        others = {key: value for key, value in entries.items() if judge_id(key) != judge.judge}  # LLM: is llm:
        atomic_write(output, json.dumps({**others, judge.judge: entry}, indent=2, allow_nan=False).encode("utf-8"))
        say(f"wrote {output}")
    return 0


def _cell(value: float | None) -> str:
    return "undefined" if value is None else f"{value:z.3f}"  # z: a kappa of -0.0004 is 0.000, not -0.000


def table(judge: str, entry: dict) -> str:
    """The judge's figures beside one annotator's and the second pool's; "undefined" where a figure has no value."""
    ceiling, person = entry["human_ceiling"], entry["one_person"]
    lines = [
        f"{judge} on swords {entry['split']}: {entry['candidates']} of {entry['sample']} candidates labelled "
        f"({entry['failed']} failed items; controls {entry['controls']['right']}/{entry['controls']['judged']} "
        f"right; answers constrained: {entry['constraint']}; {entry['seconds']:.0f} s)",
        f"{'':28}{'acc. >50%':>10}{'kappa >50%':>11}{'acc. >0%':>10}{'kappa >0%':>10}{'Spearman':>10}",
    ]
    rows = (
        ("LLM judge", entry),
        (f"one person ({person['candidates']:,})", person),
        (f"humans: two pools ({ceiling['candidates']:,})", ceiling),
    )
    keys = [f"{measure}_{level}" for level in ("acceptable", "conceivable") for measure in ("accuracy", "kappa")]
    widths = (10, 11, 10, 10, 10)
    for name, figures in rows:
        cells = [figures[key] for key in (*keys, "spearman")]
        lines.append(f"{name:28}" + "".join(f"{_cell(v):>{w}}" for v, w in zip(cells, widths, strict=True)))
    probability = entry["p_accept"]
    if probability["candidates"]:
        lines.append(
            f"LLM judge ranked by its probability of accept: Spearman {_cell(probability['spearman'])} "
            f"({probability['candidates']} candidates)"
        )
    lines.append("one person: a held-out label of each candidate against the rest of its labels, same candidates")
    lines.append(f"humans: {ceiling['pools']}, the same figures (the ceiling)")
    return "\n".join(shown(line) for line in lines)
