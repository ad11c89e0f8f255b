"""`swords judge validate`: how far an LLM judge agrees with SWORDS's annotators, and how far two pools of them agree.

The judge sees N candidates SWORDS already judged (10 substitutes of each of N/10 seeded random targets, as a SWORDS
task holds them), in tasks of the same form and with the same controls as a run's (swords_metric's tasks_for). Its
accept rate per candidate (accepts / judgements, abstain counting as reject, as SWORDS counts it) is compared with
SWORDS's score: accuracy and Cohen's kappa at acceptable (both > 50%) and at conceivable (both > 0%), Spearman's rho
between rate and score. The human ceiling is the same figures for SWORDS's second, independent annotator pool
(config `swords_reannotated`) against the main annotation of the same 89 test targets (`swords_test_subset`), on
the substitutes both hold (the SWORDS paper, section 4.4). Failed items (no label) are counted and left out.
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
from swords_metric import MAX_CANDIDATES, MetricInputError, Scorer, accuracy, cohen_kappa, spearman, tasks_for

MAIN_POOL, SECOND_POOL = "swords_test_subset", "swords_reannotated"  # both: test, the same 89 targets


def _finite(value: float | None) -> float | None:
    return round(float(value), 4) if value is not None and math.isfinite(value) else None


def agreement_figures(rates: list[float], scores: list[float]) -> dict:
    """A judge's accept rates against the human scores of the same candidates: accuracy and kappa at acceptable
    (> 0.5) and conceivable (> 0), and Spearman's rho (None where a figure is undefined: no items, one side
    constant). Flat keys, as a judgments record's `agreement` carries them (swords_metric's signature reads them)."""
    figures: dict = {"candidates": len(rates)}
    for name, above in (("acceptable", 0.5), ("conceivable", 0.0)):
        judged, human = [rate > above for rate in rates], [score > above for score in scores]
        figures[f"accuracy_{name}"] = _finite(accuracy(judged, human)) if rates else None
        figures[f"kappa_{name}"] = _finite(cohen_kappa(judged, human)) if rates else None
    figures["spearman"] = _finite(spearman(rates, scores)) if rates else None
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
            rates.append(1.0 if accepted else 0.0)
            human.append(scores[(verdict.task.id, verdict.candidate.substitute)])
    entry = {
        "written_by": VALIDATE_WRITER,
        "dataset": "swords",
        "split": args.split,
        "sample": args.sample,
        "seed": args.seed,
        "server": judge.server,
        "tasks": len(tasks),
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
        cells = [
            figures[f"{measure}_{level}"]
            for level in ("acceptable", "conceivable")
            for measure in ("accuracy", "kappa")
        ]
        cells.append(figures["spearman"])
        widths = (10, 11, 10, 10, 10)
        lines.append(f"{name:24}" + "".join(f"{_cell(v):>{w}}" for v, w in zip(cells, widths, strict=True)))
    lines.append(f"humans: {ceiling['pools']}, the same figures (the ceiling)")
    return "\n".join(shown(line) for line in lines)
