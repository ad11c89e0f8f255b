"""The records an earlier run of `swords judge llm` left (its journal, its finished output), checked against this
run before any of them is kept: a record goes into the output only if it is this judge's label, in the contract's
form, for a candidate this tasks file offers, with the control flag its task says. Anything else (a hand-edited
`"label": "maybe"`, another judge's record, `"control": NaN`, a candidate no task offers) is dropped with one line
naming the file and line, and its candidate is asked again. A kept record is made anew from the task (only its
label, time, constraint and probability of accept come from the file, each checked), so no field the toolkit did
not write reaches the output.
"""

from __future__ import annotations

import math
import sys
from datetime import datetime
from pathlib import Path

from swords_baselines.judge.constraint import KINDS, NONE, kept_fields
from swords_lexsub.terminal import shown
from swords_metric import LABELS, Candidate, Task, TaskSet, judge_id, judgment_record

MAX_NOTES = 5  # dropped records named one a line; past this, a count
VERDICT_FIELDS = ("constraint", "p_accept")  # what a record holds of its verdict besides the label (llm.py)


def offered(taskset: TaskSet) -> dict[tuple[str, str], tuple[Task, Candidate]]:
    """Every candidate of the tasks file by (task id, substitute)."""
    return {
        (task.task, candidate.substitute): (task, candidate) for task in taskset.tasks for candidate in task.candidates
    }


def _shown_value(value: object) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # NaN, inf: as the file wrote them
    return repr(value) if isinstance(value, str) else shown(str(value))


def same_judge(name: object, judge: str) -> bool:
    """Whether a record's `judge` names this judge as the metric compares names (`LLM:` in any case, NFC, trimmed)."""
    return isinstance(name, str) and judge_id(name) == judge


def problem(record: dict, header: dict, candidates: dict) -> str | None:
    """Why `record` cannot be kept as a judgment of this run (`header`: its judge and tasks_sha256), or None."""
    if not same_judge(record.get("judge"), header["judge"]):
        return f"another judge's record ({_shown_value(record.get('judge'))})"
    if record.get("tasks_sha256") != header["tasks_sha256"]:
        return "a record of another tasks file"
    if record.get("label") not in LABELS:
        return f"'label' is {_shown_value(record.get('label'))}, not {', '.join(LABELS)}"
    found = candidates.get((record.get("task"), record.get("substitute")))
    if found is None:
        return "a candidate the tasks file does not offer"
    task, candidate = found
    if record.get("id") != task.id:
        return f"'id' is {_shown_value(record.get('id'))}, its task's is {task.id!r}"
    control = record.get("control")
    if not isinstance(control, bool) or control != (candidate.control is not None):
        return f"'control' is {_shown_value(control)}, its task says {str(candidate.control is not None).lower()}"
    if record.get("control_kind") != candidate.control:
        return f"'control_kind' is {_shown_value(record.get('control_kind'))}, its task says {candidate.control!r}"
    try:
        datetime.fromisoformat(record.get("time"))
    except (TypeError, ValueError):
        return f"'time' is {_shown_value(record.get('time'))}, not an ISO 8601 time"
    if record.get("constraint", NONE) not in KINDS:
        return f"'constraint' is {_shown_value(record.get('constraint'))}, not one of {', '.join(KINDS)}"
    p_accept = record.get("p_accept")
    if p_accept is not None and (
        isinstance(p_accept, bool) or not isinstance(p_accept, int | float) or not 0 <= p_accept <= 1
    ):
        return f"'p_accept' is {_shown_value(p_accept)}, not a probability"
    return None


def checked(numbered: list[tuple[int, dict]], path: Path, header: dict, candidates: dict) -> list[dict]:
    """The records of `path` (with their line numbers) that this run keeps, each made anew from its task; one line
    on stderr for each dropped (at most MAX_NOTES, then their count)."""
    kept, dropped = [], 0
    for number, record in numbered:
        reason = problem(record, header, candidates)
        if reason is not None:
            dropped += 1
            if dropped <= MAX_NOTES:
                note = f"judge llm: {path}:{number}: {reason}; dropped, its candidate is asked again"
                print(shown(note), file=sys.stderr)
            continue
        task, candidate = candidates[(record["task"], record["substitute"])]
        verdict = {key: record[key] for key in VERDICT_FIELDS if record.get(key) is not None}
        fresh = judgment_record(task, candidate, header["judge"], record["label"], **verdict)
        fresh["time"] = record["time"]
        fresh.update(kept_fields(record))  # how the label was constrained, its probability: checked values only
        kept.append(fresh)
    if dropped > MAX_NOTES:
        print(shown(f"judge llm: {path}: {dropped - MAX_NOTES} more records dropped"), file=sys.stderr)
    return kept
