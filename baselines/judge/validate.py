"""`swords judge validate`: how far an LLM judge agrees with SWORDS's annotators, and how far two pools of them agree.

The judge sees N candidates SWORDS already judged (a seeded sample of the split's substitutes), in tasks of the same
form and with the same controls as a run's (swords_metric's tasks_for). Its accept rate per candidate (accepts /
judgements, abstain counting as reject, as SWORDS counts it) is compared with SWORDS's score: accuracy and Cohen's
kappa at acceptable (both > 50%) and at conceivable (both > 0%), Spearman's rho between rate and score. The human
ceiling is the same three figures for SWORDS's second, independent annotator pool (config `swords_reannotated`)
against the main annotation of the same 89 test targets (`swords_test_subset`), on the substitutes both hold
(the SWORDS paper, section 4.4). Failed items (no label) are counted and left out of the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import swords_dataset
from swords_baselines.judge.outputs import VALIDATE_WRITER, refuse_foreign, validation_entries
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_write, check_output_file
from swords_lexsub.terminal import shown
from swords_metric import MetricInputError, Scorer, accuracy, cohen_kappa, spearman, tasks_for

MAIN_POOL, SECOND_POOL = "swords_test_subset", "swords_reannotated"  # both: test, the same 89 targets


def _finite(value: float) -> float | None:
    value = float(value)
    return round(value, 4) if math.isfinite(value) else None


def agreement_figures(rates: list[float], scores: list[float]) -> dict:
    """A judge's accept rates against the human scores of the same candidates: accuracy and kappa at acceptable
    (> 0.5) and conceivable (> 0), and Spearman's rho (None where a figure is undefined, e.g. one class only)."""
    figures: dict = {"candidates": len(rates)}
    for name, above in (("acceptable", 0.5), ("conceivable", 0.0)):
        judged, human = [rate > above for rate in rates], [score > above for score in scores]
        figures[name] = {"accuracy": _finite(accuracy(judged, human)), "kappa": _finite(cohen_kappa(judged, human))}
    figures["spearman"] = _finite(spearman(rates, scores))
    return figures


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
    """N of the split's (target, substitute) pairs, drawn uniformly (seeded), grouped by target id."""
    pool = [(row["id"], s["substitute"]) for row in rows for s in row["substitutes"]]
    if n > len(pool):
        raise SwordsError(f"--sample {n}: the split has {len(pool):,} judged candidates")
    chosen: dict[str, list[str]] = {}
    for target_id, substitute in random.Random(seed).sample(pool, n):
        chosen.setdefault(target_id, []).append(substitute)
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
        check_output_file(output, f"--output {output}", create_folder=True, kind="figures")
        found = validation_entries(output) if output.exists() else {}
        refuse_foreign(output, found is not None, args.force, "swords judge validate")
        entries = found or {}
    started = time.monotonic()
    rows = swords_dataset.rows("swords", args.split)
    scores = {(row["id"], s["substitute"]): s["score"] for row in rows for s in row["substitutes"]}
    try:
        scorer = Scorer.from_dataset("swords", args.split)
        tasks = tasks_for(scorer, sample_candidates(rows, args.sample, args.seed), seed=args.seed)
    except MetricInputError as error:
        raise SwordsError(str(error)) from None
    items = [(task, candidate) for task in tasks for candidate in task.candidates]
    rates, human, failed, controls = [], [], 0, [0, 0]
    with judge:
        for verdict in judge.verdicts(items):
            if verdict.label is None:
                failed += 1
                continue
            accepted = verdict.label == "accept"
            kind = verdict.candidate.control
            if kind is not None:
                controls[0] += accepted == (kind == "target")
                controls[1] += 1
                continue
            rates.append(1.0 if accepted else 0.0)
            human.append(scores[(verdict.task.id, verdict.candidate.substitute)])
    entry = {
        "written_by": VALIDATE_WRITER,
        "dataset": "swords",
        "split": args.split,
        "sample": args.sample,
        "seed": args.seed,
        "server": judge.server,
        "failed": failed,
        "controls": {"right": controls[0], "judged": controls[1]},
        **agreement_figures(rates, human),
        "seconds": round(time.monotonic() - started, 1),
        "requests": judge.requests,
        "human_ceiling": human_ceiling(),
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    print(table(judge.judge, entry))
    if output is not None:
        atomic_write(output, json.dumps({**entries, judge.judge: entry}, indent=2).encode("utf-8"))
        print(shown(f"wrote {output}"), file=sys.stderr)
    return 0


def _cell(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def table(judge: str, entry: dict) -> str:
    ceiling = entry["human_ceiling"]
    lines = [
        f"{judge} on swords {entry['split']}: {entry['candidates']} of {entry['sample']} candidates judged "
        f"({entry['failed']} failed items; controls {entry['controls']['right']}/{entry['controls']['judged']} "
        f"right; {entry['seconds']:.0f} s)",
        f"{'':24}{'acc. >50%':>10}{'kappa >50%':>11}{'acc. >0%':>10}{'kappa >0%':>10}{'Spearman':>10}",
    ]
    for name, figures in (("LLM judge", entry), (f"humans ({ceiling['candidates']:,})", ceiling)):
        cells = [figures["acceptable"]["accuracy"], figures["acceptable"]["kappa"]]
        cells += [figures["conceivable"]["accuracy"], figures["conceivable"]["kappa"], figures["spearman"]]
        widths = (10, 11, 10, 10, 10)
        lines.append(f"{name:24}" + "".join(f"{_cell(v):>{w}}" for v, w in zip(cells, widths, strict=True)))
    lines.append(f"humans: {ceiling['pools']}, the same figures (the ceiling)")
    return "\n".join(shown(line) for line in lines)
