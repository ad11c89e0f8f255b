"""`swords judge validate`: how far an LLM judge agrees with SWORDS's annotators, beside one annotator and beside two
pools of them.

The judge sees N candidates SWORDS already judged (10 substitutes of each of N/10 seeded random targets, as a SWORDS
task holds them), in tasks of the same form and with the same controls as a run's (swords_metric's tasks_for). Its
accept rate per candidate (accepts / judgements, abstain counting as reject, as SWORDS counts it) is compared with
SWORDS's score: accuracy and Cohen's kappa at acceptable (both > 50%) and at conceivable (both > 0%), Spearman's rho
between rate and score, and, where the server gave log-probabilities, Spearman's rho between the judge's probability
of accept and the score. Beside it: one annotator (a held-out label against the rest, on the same candidates) and the
human ceiling, the same figures for SWORDS's second, independent annotator pool (config `swords_reannotated`)
against the main annotation of the same 89 test targets (`swords_test_subset`), on the substitutes both hold (the
SWORDS paper, section 4.4). Failed items (no label) are counted and left out. A validation below figures.py's floor
is shown but not recorded: `--agreement` can only sign a measurement.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import swords_dataset
from swords_baselines.judge.figures import MIN_CANDIDATES, agreement_figures, not_a_measurement, one_person
from swords_baselines.judge.outputs import VALIDATE_WRITER, refuse_foreign, validation_entries
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_write, check_output_file
from swords_lexsub.terminal import shown
from swords_metric import MAX_CANDIDATES, MetricInputError, Scorer, judge_id, spearman, tasks_for

MAIN_POOL, SECOND_POOL = "swords_test_subset", "swords_reannotated"  # both: test, the same 89 targets


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
    """N of the split's judged candidates, as SWORDS's own tasks hold them: targets drawn at random (seeded), from
    each MAX_CANDIDATES of its substitutes drawn at random (all if it has fewer), until N are drawn."""
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
    from tqdm import tqdm

    with judge, tqdm(total=len(items), unit="candidate", desc="validate", file=sys.stderr, disable=None) as bar:
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
        "p_accept": {
            "candidates": len(probabilities),
            "spearman": spearman(*zip(*probabilities, strict=True)) if len(probabilities) > 1 else None,
        },
        "seconds": round(seconds, 1),
        "requests": judge.requests,
        "seconds_per_request": round(seconds / judge.requests, 2) if judge.requests else None,
        "one_person": one_person(labels, args.seed),
        "human_ceiling": human_ceiling(),
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    if entry["p_accept"]["spearman"] is not None:
        entry["p_accept"]["spearman"] = round(entry["p_accept"]["spearman"], 4)
    print(table(judge.judge, entry))
    reason = not_a_measurement(human)
    if reason is not None:
        print(shown(f"judge validate: not a measurement: {reason}"), file=sys.stderr)
        if output is not None:
            print(shown(f"judge validate: nothing recorded in {output}"), file=sys.stderr)
            return 1
    elif output is not None:
        others = {key: value for key, value in entries.items() if judge_id(key) != judge.judge}  # LLM: is llm:
        atomic_write(output, json.dumps({**others, judge.judge: entry}, indent=2, allow_nan=False).encode("utf-8"))
        print(shown(f"wrote {output}"), file=sys.stderr)
    return 0


def _cell(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.3f}"


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
    for name, figures in rows:
        cells = [
            figures[f"{measure}_{level}"]
            for level in ("acceptable", "conceivable")
            for measure in ("accuracy", "kappa")
        ]
        cells.append(figures["spearman"])
        widths = (10, 11, 10, 10, 10)
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
