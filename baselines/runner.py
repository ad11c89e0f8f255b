"""Run a system over a benchmark split: resumable, checkpointed per target, outputs written atomically."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from swords_dataset.errors import SwordsError
from swords_metric.predictions import write_predictions

from .system import Prediction, System

JOURNAL_SUFFIX = ".partial"


def output_paths(output: Path) -> dict[str, Path]:
    """The files of a run: predictions as JSONL and in the upstream format, the metrics, the journal."""
    name = output.name
    for suffix in (".jsonl", ".json"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    base = output.parent / name
    return {
        "jsonl": base.with_name(name + ".jsonl"),
        "upstream": base.with_name(name + ".json"),
        "metrics": base.with_name(name + ".metrics.json"),
        "journal": base.with_name(name + ".jsonl" + JOURNAL_SUFFIX),
    }


def _read_journal(path: Path, header: dict, known_ids: set[str]) -> dict[str, Prediction]:
    """Answers already recorded by an interrupted run with the same configuration."""
    if not path.exists():
        return {}
    done: dict[str, Prediction] = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        recorded = json.loads(lines[0])
    except json.JSONDecodeError:
        recorded = None
    if recorded != header:
        raise SwordsError(f"{path} holds a run with other settings ({recorded}); remove it or choose another --output")
    for line_number, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if line_number == len(lines) or not "".join(lines[line_number:]).strip():
                break  # the last line was being written when the run stopped: that target is redone
            raise SwordsError(f"{path}:{line_number}: corrupted journal line") from None
        if record["id"] in known_ids:
            done[record["id"]] = [(s, float(score)) for s, score in record["substitutes"]]
    return done


def upstream_keyed(rows: Sequence[dict], predictions: dict[str, Prediction]) -> dict[str, Prediction]:
    """The predictions as the upstream SWORDS library reads them: keyed by its target ids, and only for the
    targets its datasets have (CoInCo's problematic ones are left out there; the JSONL keeps them)."""
    return {
        row.get("upstream_id") or row["id"]: predictions[row["id"]]
        for row in rows
        if row["id"] in predictions and not (row.get("provenance") or {}).get("coinco_problematic")
    }


def run(system: System, rows: Sequence[dict], output: Path, header: dict, progress: bool = True) -> dict:
    """Predict every row not yet answered, appending each answer to a journal as it arrives (flushed, so
    Ctrl-C or a crash loses no finished target); at the end write the outputs atomically and drop the
    journal. Returns the predictions by id, in row order."""
    from tqdm import tqdm

    paths = output_paths(Path(output))
    paths["journal"].parent.mkdir(parents=True, exist_ok=True)
    ids = [row["id"] for row in rows]
    done = _read_journal(paths["journal"], header, set(ids))
    todo = [row for row in rows if row["id"] not in done]
    fresh = not paths["journal"].exists()
    with open(paths["journal"], "a", encoding="utf-8") as journal:
        if fresh:
            journal.write(json.dumps(header) + "\n")
        bar = tqdm(
            total=len(rows),
            initial=len(done),
            unit="target",
            desc=system.name,
            disable=not progress,
            file=sys.stderr,
            dynamic_ncols=True,
        )
        try:
            for start in range(0, len(todo), system.batch_size):
                for target_id, prediction in system.predict(todo[start : start + system.batch_size]):
                    journal.write(json.dumps({"id": target_id, "substitutes": prediction}, ensure_ascii=False) + "\n")
                    journal.flush()
                    done[target_id] = prediction
                    bar.update(1)
                os.fsync(journal.fileno())
        finally:
            bar.close()
    missing = [tid for tid in ids if tid not in done]
    if missing:
        raise SwordsError(f"{system.name} gave no answer for {len(missing)} targets (first: {missing[0]})")
    predictions = {tid: done[tid] for tid in ids}
    write_predictions(paths["jsonl"], predictions)
    write_predictions(paths["upstream"], upstream_keyed(rows, predictions),
                      substitutes_lemmatized=system.substitutes_lemmatized)
    paths["journal"].unlink()
    return predictions
