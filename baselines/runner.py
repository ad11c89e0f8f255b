"""Run a system over a benchmark split: resumable, checkpointed per target, outputs written atomically.

The journal (`OUTPUT.jsonl.partial`) is a header line (what identifies the run: system, the options that
decide the answers, dataset, split) and one line per finished target, each flushed as it arrives. A run
stopped at any point (Ctrl-C, kill -9, a full disk, a crash) resumes where it stopped: a line cut short is
dropped before anything is appended, so any number of interruptions leave a readable journal. Which files a
run may replace, and the lock that keeps a second run off the same output, are in run_files.py.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from swords_dataset.errors import SwordsError
from swords_dataset.files import no_space
from swords_metric import write_predictions

from .run_files import output_paths, record_outputs
from .system import Prediction, System


def settings_difference(recorded: dict, wanted: dict) -> str:
    """What differs between two run headers, as 'option: recorded → wanted' pairs."""
    parts = []
    flat = {**{k: v for k, v in recorded.items() if k != "options"}, **recorded.get("options", {})}
    new = {**{k: v for k, v in wanted.items() if k != "options"}, **wanted.get("options", {})}
    for key in sorted(set(flat) | set(new)):
        if flat.get(key) != new.get(key):
            parts.append(f"{key}: {flat.get(key)!r} then, {new.get(key)!r} now")
    return "; ".join(parts) or "the same options in another form"


def same_settings(a: dict, b: dict) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _read_journal(path: Path, header: dict, known_ids: set[str], force: bool) -> dict[str, Prediction]:
    """Answers already recorded by an interrupted run with the same configuration. A last line cut short
    is cut off the file; a journal without answers (a start that failed) is simply started again."""
    if not path.exists():
        return {}
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]  # everything up to the last newline: whole lines only
    if len(complete) != len(data):
        with open(path, "r+b") as f:
            f.truncate(len(complete))
    lines = complete.decode("utf-8", errors="replace").split("\n")[:-1]
    if force or len(lines) <= 1:  # nothing recorded worth keeping (or --force): start afresh
        path.unlink()
        return {}
    try:
        recorded = json.loads(lines[0])
    except json.JSONDecodeError:
        recorded = None
    if not isinstance(recorded, dict):
        raise SwordsError(f"{path}:1: not a run journal's header; remove the file or pass --force to start afresh")
    if not same_settings(recorded, header):
        difference = settings_difference(recorded, header)
        raise SwordsError(
            f"{path} holds {len(lines) - 1} answers of a run with other settings ({difference}); "
            "rerun with those settings to resume it, or pass --force to discard it"
        )
    done: dict[str, Prediction] = {}
    for line_number, line in enumerate(lines[1:], 2):
        try:
            record = json.loads(line)
            target_id, substitutes = record["id"], record["substitutes"]
            prediction = [(str(s), float(score)) for s, score in substitutes]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            raise SwordsError(
                f"{path}:{line_number}: corrupted journal line (not written by an interrupted run); "
                "remove the line, or pass --force to start afresh"
            ) from None
        if target_id in known_ids:
            done[target_id] = prediction
    return done


def upstream_keyed(rows: Sequence[dict], predictions: dict[str, Prediction]) -> dict[str, Prediction]:
    """The predictions as the upstream SWORDS library reads them: keyed by its target ids, and only for the
    targets its datasets have (CoInCo's problematic ones are left out there; the JSONL keeps them)."""
    return {
        row.get("upstream_id") or row["id"]: predictions[row["id"]]
        for row in rows
        if row["id"] in predictions and not (row.get("provenance") or {}).get("coinco_problematic")
    }


def run(
    system: System, rows: Sequence[dict], output: Path, header: dict, progress: bool = True, force: bool = False
) -> dict:
    """Predict every row not yet answered, appending each answer to a journal as it arrives (flushed, so
    Ctrl-C or a crash loses no finished target); at the end write the outputs atomically and drop the
    journal. Returns the predictions by id, in row order. The caller has checked the output (run_files) and
    holds its RunLock."""
    from tqdm import tqdm

    paths = output_paths(Path(output))
    ids = [row["id"] for row in rows]
    done = _read_journal(paths["journal"], header, set(ids), force)
    todo = [row for row in rows if row["id"] not in done]
    fresh = not paths["journal"].exists()
    try:
        with open(paths["journal"], "a", encoding="utf-8") as journal:
            if fresh:
                journal.write(json.dumps(header) + "\n")
                journal.flush()
            bar = tqdm(
                total=len(rows),
                initial=len(done),
                unit="target",
                desc=system.name,
                disable=not progress,
                file=sys.stderr,
                dynamic_ncols=True,
            )
            system.show_status = lambda status: bar.set_postfix_str(status, refresh=True)
            try:
                for start in range(0, len(todo), system.batch_size):
                    for target_id, prediction in system.predict(todo[start : start + system.batch_size]):
                        line = json.dumps({"id": target_id, "substitutes": prediction}, ensure_ascii=False) + "\n"
                        journal.write(line)
                        journal.flush()
                        done[target_id] = prediction
                        bar.update(1)
                    os.fsync(journal.fileno())
            finally:
                bar.close()
    except OSError as error:
        if not no_space(error):
            raise
        raise SwordsError(
            f"no space left on the device writing {paths['journal']} ({error.strerror}); its {len(done)} finished "
            "targets are kept: free some space and rerun the same command to resume"
        ) from None
    missing = [tid for tid in ids if tid not in done]
    if missing:
        raise SwordsError(f"{system.name} gave no answer for {len(missing)} targets (first: {missing[0]})")
    predictions = {tid: done[tid] for tid in ids}
    try:
        write_predictions(paths["jsonl"], predictions)
        write_predictions(
            paths["upstream"], upstream_keyed(rows, predictions), substitutes_lemmatized=system.substitutes_lemmatized
        )
        record_outputs(paths, header)
    except SwordsError as error:  # no space: the journal still holds every answer
        raise SwordsError(f"{error}; the journal {paths['journal']} keeps every answer: free space and rerun") from None
    paths["journal"].unlink()  # the metrics file vouches for the outputs from here on
    return predictions
