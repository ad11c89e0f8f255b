"""`swords judge llm`'s run: every candidate of a tasks file judged once, resumable after any interruption.

As `swords run` does (baselines/run/): a journal (`OUTPUT.partial`) holds a header line (the judge, the server, the
tasks file's sha256, the agreement copied in) and one flushed judgment record a line; a line cut short is cut off
first; the output is written atomically at the end and the journal goes; a lock keeps a second run off the output.
Requests go through the response cache, so a rerun asks only for what no run received. An existing output of the
same run counts as done.

An earlier run's record (journal or output) is kept only if it is this judge's label, in the contract's form, for a
candidate this tasks file offers, with its task's control flag; anything else (`"label": "maybe"`, `"control": NaN`,
another judge's) is dropped with one line naming the file and line, and its candidate asked again. A kept record is
made anew from the task (only its label, time, constraint and p_accept, each checked, come from the file).
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from swords_baselines.judge.constraint import KINDS, NONE, kept_fields
from swords_baselines.judge.llm import LLMJudge, Verdict
from swords_baselines.judge.outputs import (
    JOURNAL_FORMAT,
    LLM_WRITER,
    journal_header,
    llm_judgments,
    llm_record,
    lock_is_ours,
    refuse_foreign,
)
from swords_baselines.judge.shards import join_judge
from swords_baselines.judge.waits import announce, retry_status, say_slots
from swords_baselines.run.files import JOURNAL_SUFFIX, RunLock, open_in_place, whole_lines
from swords_baselines.run.shards import Joined, Shard, item_key, lock_paths, shard_path
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_write, check_output_file, no_space
from swords_lexsub.terminal import say, shown
from swords_metric import LABELS, Candidate, Task, TaskSet, judge_id, judgment_record

COMMAND = "swords judge llm"
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
    """The numbered records of `path` this run keeps, made anew; a line for each dropped (MAX_NOTES, then a count)."""
    kept, dropped = [], 0
    for number, record in numbered:
        reason = problem(record, header, candidates)
        if reason is not None:
            dropped += 1
            if dropped <= MAX_NOTES:
                say(f"judge llm: {path}:{number}: {reason}; dropped, its candidate is asked again")
            continue
        task, candidate = candidates[(record["task"], record["substitute"])]
        verdict = {key: record[key] for key in VERDICT_FIELDS if record.get(key) is not None}
        fresh = judgment_record(task, candidate, header["judge"], record["label"], **verdict)
        fresh["time"] = record["time"]
        fresh.update(kept_fields(record))  # how the label was constrained, its probability: checked values only
        kept.append(fresh)
    if dropped > MAX_NOTES:
        say(f"judge llm: {path}: {dropped - MAX_NOTES} more records dropped")
    return kept


@dataclass
class Outcome:
    judgments: int = 0  # records in the output
    asked: int = 0  # candidates judged by this run (the rest were in the journal or the output)
    failed: list[Verdict] = field(default_factory=list)


def paths_of(output: Path, shard: Shard | None = None) -> dict[str, Path]:
    journal = output.with_name(output.name + JOURNAL_SUFFIX) if shard is None else shard_path(output, shard)
    locked = output if shard is None else journal  # a shard's file is its journal, and has its own lock
    return {"jsonl": output, "journal": journal, "lock": lock_paths(locked)["lock"]}


def _key(record: dict) -> tuple[str, str]:
    return record.get("task"), record.get("substitute")


def _journal_records(path: Path, header: dict, force: bool, candidates: dict) -> list[dict]:
    """The records a killed run with the same header left, each checked."""
    if not path.exists():
        return []
    found = journal_header(path)
    refuse_foreign(path, found is not None, force, COMMAND)
    if force or found is None:
        path.unlink()
        return []
    if found != header:
        keys = [key for key in header if found.get(key) != header.get(key)]
        shown_keys = (f"{key}: {found.get(key)!r} then, {header.get(key)!r} now" for key in keys[:2])
        difference = ", ".join(shown_keys) or "another form"
        raise SwordsError(
            f"{path} is the journal of another judge run ({difference}); rerun that command to "
            "finish it, or pass --force to discard it"
        )
    complete = whole_lines(path)
    records = []
    for number, line in enumerate(complete.splitlines()[1:], 2):
        if not line.strip():
            continue
        record = llm_record(line)
        if record is None:
            raise SwordsError(f"{path}:{number}: not a line a judge run writes; pass --force to start afresh")
        records.append((number, record))
    return checked(records, path, header, candidates)


def _output_records(output: Path, header: dict, force: bool, candidates: dict) -> list[dict]:
    """The records of an existing output of this same run (done, each checked); any other file is refused."""
    if not output.exists():
        return []
    records = llm_judgments(output)
    refuse_foreign(output, records is not None, force, COMMAND)
    if force or records is None:
        return []
    same = all(
        same_judge(r.get("judge"), header["judge"]) and r.get("tasks_sha256") == header["tasks_sha256"] for r in records
    )
    if not same:
        raise SwordsError(
            f"{output} holds another judge's judgments or those of other tasks; choose another --output, or pass "
            "--force to replace it"
        )
    return checked(list(enumerate(records, 1)), output, header, candidates)


def check_outputs(output: Path, shard: Shard | None = None) -> dict[str, Path]:
    """Before any work: the output, its journal and lock (a shard's: its file, lock) can be this command's files."""
    paths = paths_of(output, shard)
    for path in paths.values():
        if path.is_symlink():
            raise SwordsError(f"--output {output}: {path} is a symbolic link; a judge run never writes through one")
        check_output_file(path, f"--output {output}", create_folder=True, kind="judgments")
    if not lock_is_ours(paths["lock"]):
        raise SwordsError(f"{paths['lock']} exists and is not a judge run's lock; remove it or choose another --output")
    return paths


def _where_kept(done: dict, places: str) -> str:
    kept = f"{len(done):,} judgment{'s' * (len(done) != 1)}"
    return f"the {kept} made so far are kept in {places}" if done else "nothing was written"


def _ask(judge: LLMJudge, items: list, outcome: Outcome, journal, done: dict, header: dict, extra: dict, at: str):
    """Ask for every item, each label journalled as it arrives, the waits said (waits.py)."""
    from swords_lexsub.progress import Progress

    announce(judge, "judge llm", len(items))
    bar = Progress(total=len(items), unit="candidate", desc="judge", file=sys.stderr, disable=None)

    with judge, bar:
        say_slots(judge, "judge llm")
        judge.client.on_retry = retry_status("judge llm", bar)
        try:
            for verdict in judge.verdicts(items):
                bar.update(1)
                if verdict.label is None:
                    outcome.failed.append(verdict)
                    continue
                record = judgment_record(
                    verdict.task, verdict.candidate, header["judge"], verdict.label, **verdict.fields()
                )
                record.update(extra)
                journal.write(_line(record))
                journal.flush()
                done[_key(record)] = record
        except SwordsError as error:  # the server is down, the key refused: what was judged stays
            raise SwordsError(f"{error}; {_where_kept(done, at)}: rerun the same command to resume") from None


def _line(record: dict) -> str:
    """A journal's or an output's line: strict JSON (NaN or Infinity, which no reader takes, is a ValueError)."""
    return json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n"


def _no_label(outcome: Outcome) -> str:
    no_answer = sum(v.answer is None for v in outcome.failed)
    last = next((v for v in reversed(outcome.failed) if v.answer is not None), outcome.failed[-1])
    return (
        f"judge llm: no candidate got a label ({len(outcome.failed):,} asked: {len(outcome.failed) - no_answer:,} "
        f"answers named none, {no_answer:,} got no answer; last: {last.failure}); nothing was written: a judge "
        "whose answers name none of accept, reject or abstain cannot judge (try a model that follows instructions)"
    )


def judge_tasks(
    taskset: TaskSet,
    judge: LLMJudge,
    output: Path,
    header: dict,
    force: bool = False,
    tasks: str = "the tasks file",
    shard: Shard | None = None,
    export: Callable[[list], None] | None = None,
) -> Outcome:
    """Judge every candidate not yet judged, journalled; write the output atomically. `header` identifies the run (its
    judge, tasks_sha256 and agreement stamped on every record). A run that would write no judgment is one SwordsError,
    nothing written. `shard`: only its part, into its shard file (no output), else the shard files beside the output
    are joined (judge/shards.py); `export` takes the items not yet judged (judge/batch.py), and nothing else is done."""
    if not taskset.tasks:  # `tasks`: the file's name in the line
        raise SwordsError(
            f"judge llm: {tasks} holds no task: nothing to judge, nothing written (`swords judge tasks` makes "
            "none when the benchmark judged every substitute the run gave)"
        )
    header = {"format": JOURNAL_FORMAT, **header, **({"shard": shard.record()} if shard else {})}
    paths = check_outputs(output, shard)
    with RunLock(paths, command=COMMAND), ExitStack() as shards:
        candidates = offered(taskset)
        joined = join_judge(paths, header, force, shards) if shard is None else Joined()
        journalled = _journal_records(paths["journal"], header, force and not joined.files, candidates)
        earlier = _output_records(output, header, force, candidates)
        done = {_key(r): r for r in [*earlier, *journalled]}
        places = f"{output} and {paths['journal']}" if earlier else str(paths["journal"])
        items = [
            (t, c)
            for t in taskset.tasks
            for c in t.candidates
            if (t.task, c.substitute) not in done and (shard is None or shard.holds(item_key(t.task, c.substitute)))
        ]
        outcome = Outcome(asked=len(items))
        if export is not None:
            export(items)
            return outcome
        extra = {
            "dataset": taskset.header.get("dataset"),
            "split": taskset.header.get("split"),
            "tasks_sha256": header["tasks_sha256"],
            "written_by": LLM_WRITER,
            **({"agreement": header["agreement"]} if header.get("agreement") is not None else {}),
        }
        fresh = not paths["journal"].exists()
        try:
            with open(
                open_in_place(paths["journal"], os.O_WRONLY | os.O_APPEND | os.O_CREAT), "a", encoding="utf-8"
            ) as journal:
                if fresh:
                    journal.write(_line(header))
                    journal.flush()
                if items:
                    _ask(judge, items, outcome, journal, done, header, extra, places)
                os.fsync(journal.fileno())
        except OSError as error:
            if not no_space(error):
                raise
            raise SwordsError(
                f"no space left on the device writing {paths['journal']}; {_where_kept(done, places)}: free some "
                "space and rerun the same command to resume"
            ) from None
        if items and len(outcome.failed) == len(items) and all(v.answer is None for v in outcome.failed):
            last = outcome.failed[-1].failure
            if not done:  # a journal without a judgment would resume nothing
                paths["journal"].unlink(missing_ok=True)
            raise SwordsError(
                f"judge llm: no candidate asked got an answer ({len(items):,} asked; last: {last}); "
                f"{_where_kept(done, places)}: rerun the same command once the server answers"
            )
        if not done:  # every answer named no label: an output without a judgment is no output
            paths["journal"].unlink(missing_ok=True)
            raise SwordsError(_no_label(outcome))
        if shard is not None:  # its file stays, for the join
            outcome.judgments = sum(shard.holds(item_key(*key)) for key in done)
            return outcome
        ordered = [done[key] for t in taskset.tasks for c in t.candidates if (key := (t.task, c.substitute)) in done]
        for record in ordered:  # the agreement of this run, also on the records an earlier run of it wrote
            record.pop("agreement", None)
            record.update(extra)
        text = "".join(_line(record) for record in ordered)
        try:
            atomic_write(output, text.encode("utf-8"))
        except SwordsError as error:  # no space: nothing replaced, the journal keeps every judgment
            raise SwordsError(
                f"{error}; {_where_kept(done, places)}: free some space and rerun the same command"
            ) from None
        paths["journal"].unlink()
        joined.remove()
    outcome.judgments = len(ordered)
    return outcome
