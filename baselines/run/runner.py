"""Run a system over a benchmark split: resumable, checkpointed per target, outputs written atomically.

The journal (`OUTPUT.jsonl.partial`) is a header line (the run's identity: system, deciding options, dataset,
split), one flushed line per finished target, and at the end the outputs' sha256 (ownership.write_outputs). A run
stopped at any point (Ctrl-C, kill -9, a full disk) resumes where it stopped: a line cut short is dropped first.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from swords_baselines.run.extent import check_not_narrowed, identity, restate_header
from swords_baselines.run.files import open_in_place, output_paths, whole_lines
from swords_baselines.run.journal import journal_answer, journal_line, report_record, same_settings, settings_difference
from swords_baselines.run.ownership import outputs_record, write_outputs
from swords_baselines.system import Prediction, System
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import no_space
from swords_metric import write_predictions


def read_journal(path: Path, header: dict, known_ids: set[str], force: bool) -> dict[str, Prediction]:
    """Answers an interrupted run of the same identity recorded (a last line cut short is cut off the file)."""
    if not path.exists():
        return {}
    complete = whole_lines(path)
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
    if not same_settings(identity(recorded), identity(header)):
        difference = settings_difference(identity(recorded), identity(header))
        raise SwordsError(
            f"{path} holds {len(lines) - 1} answers of a run with other settings ({difference}); "
            "rerun with those settings to resume it, or pass --force to discard it"
        )
    check_not_narrowed(path, recorded, header.get("limit") or 0, f"{len(lines) - 1} answers of a run")
    if not same_settings(recorded, header):  # another extent: the answers kept under this run's header
        restate_header(path, header)
    done: dict[str, Prediction] = {}
    for line_number, line in enumerate(lines[1:], 2):
        if outputs_record(line) is not None or report_record(line) is not None:  # outputs moved, a shard's use
            continue
        try:
            target_id, prediction = journal_answer(line)
        except (ValueError, RecursionError):
            raise SwordsError(
                f"{path}:{line_number}: corrupted journal line (not as a run writes it: strict JSON, an id and "
                "[substitute, finite score] pairs); remove the line, or pass --force to start afresh"
            ) from None
        if target_id in known_ids:
            done[target_id] = prediction
    return done


def upstream_keyed(rows: Sequence[dict], predictions: dict[str, Prediction]) -> dict[str, Prediction]:
    """The predictions by the upstream library's ids, for its targets (not CoInCo's problematic ones)."""
    return {
        row.get("upstream_id") or row["id"]: predictions[row["id"]]
        for row in rows
        if row["id"] in predictions and not (row.get("provenance") or {}).get("coinco_problematic")
    }


def run(
    system: System,
    rows: Sequence[dict],
    output: Path,
    header: dict,
    progress: bool = True,
    force: bool = False,
    shard: Path | None = None,
) -> dict:
    """Predict every row not yet answered, journalling each answer; write the outputs, drop the journal, and return
    the predictions by id in row order. The caller holds the RunLock; `shard`: the journal, kept (no outputs)."""
    from swords_lexsub.progress import Progress

    paths = {**output_paths(Path(output)), **({"journal": shard} if shard else {})}
    ids = [row["id"] for row in rows]
    done = read_journal(paths["journal"], header, set(ids), force)
    todo = [row for row in rows if row["id"] not in done]
    if todo:  # a join whose shards answered every target loads no model and starts no engine
        system.start()
    fresh = not paths["journal"].exists()
    descriptor = open_in_place(paths["journal"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        with open(descriptor, "a", encoding="utf-8") as journal:
            if fresh:
                journal.write(json.dumps(header, allow_nan=False) + "\n")
                journal.flush()
            bar = Progress(  # its estimate of the time left only once it means something
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
                        line = journal_line(system.name, target_id, prediction)
                        journal.write(line)
                        journal.flush()
                        done[target_id] = journal_answer(line)[1]  # as the journal holds it
                        bar.update(1)
                    os.fsync(journal.fileno())
            finally:
                bar.close()
            missing = [tid for tid in ids if tid not in done]
            if missing:
                raise SwordsError(system.no_answer(missing, len(ids)))
            predictions = {tid: done[tid] for tid in ids}
            if shard:
                return predictions

            def write(staged: dict[str, Path]) -> None:
                write_predictions(staged["jsonl"], predictions)
                write_predictions(
                    staged["upstream"],
                    upstream_keyed(rows, predictions),
                    substitutes_lemmatized=system.substitutes_lemmatized,
                )

            try:
                write_outputs(paths, header, journal, write)
            except SwordsError as error:  # no space: the journal still holds every answer
                raise SwordsError(
                    f"{error}; the journal {paths['journal']} keeps every answer: free space and rerun"
                ) from None
            except OSError as error:  # e.g. a folder made at an output's name since the start
                if no_space(error):
                    raise
                where = error.filename2 or error.filename  # a rename's target, else the file
                raise SwordsError(
                    f"cannot put the run's outputs in place beside {paths['jsonl']} "
                    f"({error.strerror or error}: {where}); the journal {paths['journal']} "
                    "keeps every answer: rerun the same command"
                ) from None
    except OSError as error:
        if not no_space(error):
            raise
        raise SwordsError(
            f"no space left on the device writing {paths['journal']} ({error.strerror}); its {len(done)} finished "
            "targets are kept: free some space and rerun the same command to resume"
        ) from None
    paths["journal"].unlink()  # the metrics file vouches for the outputs from here on
    return predictions
