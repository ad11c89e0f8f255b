"""`swords judge llm`'s run: every candidate of a tasks file judged once, resumable after any interruption.

As `swords run` does (baselines/run/): a journal (`OUTPUT.partial`) holds a header line (what identifies the run:
the judge, the server, the tasks file's sha256, the agreement copied in) and one judgment record a line, each
flushed as it arrives; a line cut short by a kill is cut off before anything is appended; the output is written
atomically at the end and the journal goes. A lock keeps a second run off the same output. The requests go through
the response cache, so a rerun asks the server only for what no run received: a candidate answered just before a
kill -9 (cached, not yet in the journal) comes from the cache. An existing output of the same run counts as done.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from swords_baselines.judge.llm import LLMJudge, Verdict
from swords_baselines.judge.outputs import (
    JOURNAL_FORMAT,
    LLM_WRITER,
    journal_header,
    llm_judgments,
    lock_is_ours,
    refuse_foreign,
)
from swords_baselines.judge.records import checked, offered, same_judge
from swords_baselines.judge.waits import announce, retry_status
from swords_baselines.run.files import JOURNAL_SUFFIX, RunLock, open_in_place, whole_lines
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_write, check_output_file, no_space
from swords_metric import TaskSet, judgment_record

COMMAND = "swords judge llm"


@dataclass
class Outcome:
    judgments: int = 0  # records in the output
    asked: int = 0  # candidates judged by this run (the rest were in the journal or the output)
    failed: list[Verdict] = field(default_factory=list)


def paths_of(output: Path) -> dict[str, Path]:
    return {
        "jsonl": output,
        "journal": output.with_name(output.name + JOURNAL_SUFFIX),
        "lock": output.with_name(f".{output.name}.lock"),
    }


def _key(record: dict) -> tuple[str, str]:
    return record.get("task"), record.get("substitute")


def _journal_records(path: Path, header: dict, force: bool, candidates: dict) -> list[dict]:
    """The records a killed run with the same header left (a cut last line cut off the file first), each checked
    against this run (records.py)."""
    if not path.exists():
        return []
    found = journal_header(path)
    refuse_foreign(path, found is not None, force, COMMAND)
    if force or found is None:
        path.unlink()
        return []
    if found != header:
        raise SwordsError(
            f"{path} is the journal of another judge run ({_difference(found, header)}); rerun that command to "
            "finish it, or pass --force to discard it"
        )
    complete = whole_lines(path)
    records = []
    for number, line in enumerate(complete.splitlines()[1:], 2):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            record = None
        if not isinstance(record, dict) or record.get("written_by") != LLM_WRITER:
            raise SwordsError(f"{path}:{number}: not a line a judge run writes; pass --force to start afresh")
        records.append((number, record))
    return checked(records, path, header, candidates)


def _difference(found: dict, wanted: dict) -> str:
    keys = [key for key in wanted if found.get(key) != wanted.get(key)]
    return ", ".join(f"{key}: {found.get(key)!r} then, {wanted.get(key)!r} now" for key in keys[:2]) or "another form"


def _output_records(output: Path, header: dict, force: bool, candidates: dict) -> list[dict]:
    """The records of an existing output of this same run (they count as done, each checked as a journal's are);
    any other file is refused."""
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


def check_outputs(output: Path) -> dict[str, Path]:
    """Before any work: the output, its journal and its lock can be ordinary files written by this command."""
    paths = paths_of(output)
    for path in paths.values():
        if path.is_symlink():
            raise SwordsError(f"--output {output}: {path} is a symbolic link; a judge run never writes through one")
        check_output_file(path, f"--output {output}", create_folder=True, kind="judgments")
    if not lock_is_ours(paths["lock"]):
        raise SwordsError(f"{paths['lock']} exists and is not a judge run's lock; remove it or choose another --output")
    return paths


def _kept(done: dict) -> str:
    return f"{len(done):,} judgment{'s' * (len(done) != 1)}"


def _where_kept(done: dict, places: str) -> str:
    return f"the {_kept(done)} made so far are kept in {places}" if done else "nothing was written"


def _ask(judge: LLMJudge, items: list, outcome: Outcome, journal, done: dict, header: dict, extra: dict, at: str):
    """Ask for every item, each label journalled (flushed) as it arrives; what it waits for said first, and every
    retry (waits.py)."""
    from tqdm import tqdm

    announce(judge, "judge llm", len(items))
    bar = tqdm(total=len(items), unit="candidate", desc="judge", file=sys.stderr, disable=None)

    with judge, bar:
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


def _drop_empty(journal: Path, done: dict) -> None:
    """A failed run's journal that holds no judgment goes: it would resume nothing."""
    if not done:
        journal.unlink(missing_ok=True)


def _no_label(outcome: Outcome) -> str:
    no_answer = sum(v.answer is None for v in outcome.failed)
    last = next((v for v in reversed(outcome.failed) if v.answer is not None), outcome.failed[-1])
    return (
        f"judge llm: no candidate got a label ({len(outcome.failed):,} asked: {len(outcome.failed) - no_answer:,} "
        f"answers named none, {no_answer:,} got no answer; last: {last.failure}); nothing was written: a judge "
        "whose answers name none of accept, reject or abstain cannot judge (try a model that follows instructions)"
    )


def judge_tasks(
    taskset: TaskSet, judge: LLMJudge, output: Path, header: dict, force: bool = False, tasks: str = "the tasks file"
) -> Outcome:
    """Judge every candidate not yet judged, journalled; write the output atomically. `header` identifies the
    run (its "judge" and "tasks_sha256" are stamped on every record, with `header["agreement"]` if any). A run
    that would write no judgment is one SwordsError, nothing written: a tasks file without a task (before any
    request), a run in which no candidate asked got an answer (a server that only answers 429), or one in which no
    answer named a label (a server that answers "I think it fits.")."""
    if not taskset.tasks:  # `tasks`: the file's name in the line
        raise SwordsError(
            f"judge llm: {tasks} holds no task: nothing to judge, nothing written (`swords judge tasks` makes "
            "none when the benchmark judged every substitute the run gave)"
        )
    header = {"format": JOURNAL_FORMAT, **header}
    paths = check_outputs(output)
    with RunLock(paths, command=COMMAND):
        candidates = offered(taskset)
        journalled = _journal_records(paths["journal"], header, force, candidates)
        earlier = _output_records(output, header, force, candidates)
        done = {_key(r): r for r in [*earlier, *journalled]}
        places = f"{output} and {paths['journal']}" if earlier else str(paths["journal"])
        items = [(t, c) for t in taskset.tasks for c in t.candidates if (t.task, c.substitute) not in done]
        outcome = Outcome(asked=len(items))
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
            _drop_empty(paths["journal"], done)
            raise SwordsError(
                f"judge llm: no candidate asked got an answer ({len(items):,} asked; last: {last}); "
                f"{_where_kept(done, places)}: rerun the same command once the server answers"
            )
        if not done:  # every answer named no label: an output without a judgment is no output
            _drop_empty(paths["journal"], done)
            raise SwordsError(_no_label(outcome))
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
    outcome.judgments = len(ordered)
    return outcome
