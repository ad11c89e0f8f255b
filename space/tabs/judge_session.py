"""The Judge tab's handlers and its judgments file: a session (plain data in the browser session's gr.State) starts
from a tasks file or a run, continues a partial judgments file, and appends each finished task, all or none, through
the metric's writer to the tab's own file (an upload is only read). Nothing saved or uploaded is dropped: a new Start
carries the earlier file over, and a task that cannot be saved leaves the file where the link points."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from swords_metric import (
    LABELS,
    LLM_PREFIX,
    JudgmentsWriter,
    MetricInputError,
    Task,
    TaskSet,
    carried_records,
    check_judge_name,
    judged_by,
    judgment_record,
    llm_judge,
    make_tasks,
    read_judgments,
    unfinished_tasks,
    write_tasks,
)
from swords_space import benchmarks, render, scoring
from swords_space.errors import SpaceError
from swords_space.tabs.judge_files import judgeable_splits, judgments_from, no_lone_surrogate_candidates, tasks_from
from swords_space.tabs.score_files import chosen_file, read_predictions

MAX_JUDGE_CHARS = 80
SESSION_PREFIX = "swords-judge-"
# Earlier sessions of one page whose folders (and download links) are kept: each one's records are in the next.
MAX_EARLIER = 8
# The earlier file a new Start carries over is the tab's own (an upload and the tasks saved since): read up to the
# metric's own bound, well above an upload's 20 MB.
CARRIED_BYTES = 32 * 1024 * 1024
NOT_SAVED = "this task is not saved. Download the file (every task saved before is in it) and continue later."


def carried(path: Path | None) -> list[dict]:
    """An earlier session's records (the tab's own file, written by the metric's writer); none without one."""
    if path is None or not path.is_file():
        return []
    try:
        return read_judgments(path, max_bytes=CARRIED_BYTES)
    except MetricInputError:  # too large to carry: the judge keeps it by downloading it
        raise SpaceError(
            "The judgments file of this page's earlier session is too large to carry over: download it, then upload "
            "it with the tasks to continue."
        ) from None


def append(path: Path, records: list[dict]) -> None:
    """Records appended to the session's judgments file, all or none: on a failure (a full disk) the file is cut
    back to what it held, so it never holds part of a task."""
    size = path.stat().st_size if path.exists() else 0
    try:
        with JudgmentsWriter(path) as writer:
            for record in records:
                writer.write(record)
    except (OSError, MetricInputError) as error:  # the writer names a full disk as bad output
        with contextlib.suppress(OSError), open(path, "r+b") as file:  # the tab's own file, never the user's
            file.truncate(size)
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        reason = reason.replace(f"{path}: ", "")
        raise SpaceError(f"The judgments file could not be written ({reason}): {NOT_SAVED}") from None


def save_and_move(folder: Path, version: int, name: str, records: list[dict]) -> int:
    """The records appended to `folder/version/name`, then the file moved to `folder/version+1/name` (never copied: the
    page's link changes with every task, so no cache hands out an older copy); the new version. A task that fails (a
    full disk) leaves the file whole where the page links, so "download the file" stays true."""
    old, new = folder / str(version) / name, folder / str(version + 1)
    try:
        new.mkdir()
    except OSError as error:
        raise SpaceError(f"The judgments file could not be written ({error.strerror or error}): {NOT_SAVED}") from None
    try:
        append(old, records)
    except SpaceError:
        with contextlib.suppress(OSError):
            new.rmdir()
        raise
    try:
        os.replace(old, new / name)
    except OSError:  # saved at the old address, which the page still links to: it stays there
        with contextlib.suppress(OSError):
            new.rmdir()
        return version
    with contextlib.suppress(OSError):
        old.parent.rmdir()
    return version + 1


@dataclass
class JudgeSession:
    header: dict  # the tasks file's header: dataset, split, instructions version, ...
    tasks: list[Task]
    judge: str
    folder: Path  # the session's own folder: its tasks file and, under a folder per version, its judgments file
    file_name: str  # the judgments file's name, as it downloads
    todo: list[int] = field(default_factory=list)  # the tasks not yet judged by this judge, in the file's order
    done: int = 0  # of todo
    resumed: int = 0  # tasks this judge had finished before this session (an upload, an earlier Start)
    tasks_file: Path | None = None  # the tasks the tab made from a run, for download
    version: int = 0  # tasks saved in this session: each has the judgments file at a new address (next_version)
    earlier: list[Path] = field(default_factory=list)  # earlier sessions' folders in this page: their links answer
    elsewhere: int = 0  # records kept of tasks this tasks file does not hold (another file's, or held otherwise)
    saved: str = ""  # what the last save did, for the page to acknowledge it

    @property
    def judgments(self) -> Path:
        """The session's judgments file: the uploaded partial file's records, then this session's."""
        return self.folder / str(self.version) / self.file_name

    @property
    def current(self) -> Task | None:
        return self.tasks[self.todo[self.done]] if self.done < len(self.todo) else None

    @property
    def finished(self) -> int:
        return self.resumed + self.done

    def candidates_judged(self) -> tuple[int, int]:
        """(candidates judged by this judge, candidates in all tasks), controls included."""
        left = sum(len(self.tasks[i].candidates) for i in self.todo[self.done :])
        total = sum(len(task.candidates) for task in self.tasks)
        return total - left, total


def _unseen(character: str) -> bool:
    """A character that shows as nothing or a plain space (U+200B, U+00A0, ...): it makes a word look like another."""
    category = unicodedata.category(character)
    return category in ("Cf", "Zl", "Zp") or (category == "Zs" and character != " ")


def seen(text: str) -> str:
    """Text from a file as the Judge tab shows it: render.visible's escapes, invisible characters escaped too
    (`\\u200b`), and in text not in NFC its combining marks ("e\\u0301"), so no look-alike shows as another."""
    text = render.visible(text)
    if text.isascii():
        return text
    marks = not unicodedata.is_normalized("NFC", text)
    return "".join(f"\\u{ord(c):04x}" if _unseen(c) or (marks and unicodedata.combining(c)) else c for c in text)


def judge_name(name: str | None) -> str:
    """The judge's name as the judgments file records it: trimmed, one line, at most MAX_JUDGE_CHARS, none invisible."""
    name = unicodedata.normalize("NFC", (name or "").strip())
    if not name:
        raise SpaceError("Enter your name (or a pseudonym) as the judge: each judgment records who made it.")
    if len(name) > MAX_JUDGE_CHARS:
        raise SpaceError(f"The judge's name has {len(name):,} characters; at most {MAX_JUDGE_CHARS}.")
    if render.visible(name) != name:
        raise SpaceError(f"The judge's name {render.visible(name)} holds control characters; type a plain name.")
    if seen(name) != name:
        raise SpaceError(
            f"The judge's name {seen(name)} holds an invisible character or a space other than a plain one, so it "
            "would look like another name; type a plain name."
        )
    if llm_judge(name):
        raise SpaceError(f'A name starting "{LLM_PREFIX}" is an LLM judge\'s (swords judge llm); choose another.')
    try:  # 'аlice' with a Cyrillic 'а': the metric refuses it in a judgments file, so the tab never writes one
        check_judge_name(name)
    except MetricInputError as error:
        raise SpaceError(f"{error}.") from None
    return name


def discard(session: JudgeSession | None) -> None:
    """A session's files and its page's earlier sessions' deleted (gr.State's delete_callback)."""
    if session is None:
        return
    for folder in (*session.earlier, session.folder):
        if folder.name.startswith(SESSION_PREFIX):
            shutil.rmtree(folder, ignore_errors=True)


def tasks_from_run(
    run: str | Path, split_label: str | None, targets: float | None, seed: float | None, folder: Path
) -> tuple[TaskSet, Path]:
    """A run's unjudged substitutes on a SWORDS split as tasks (the metric's make_tasks), written for download."""
    label = split_label or "swords test"
    if label not in judgeable_splits():
        raise SpaceError(f"Only SWORDS's splits can be judged ({', '.join(judgeable_splits())}), not {label}.")
    config, split = benchmarks.choose_split(label)
    scorer = scoring.scorer_for(config, split)
    path = chosen_file(run, None, None)  # checked before reading: it arrived, not empty, at most 20 MB
    shown = render.visible(path.name)
    read_predictions(scorer, path, shown)  # read once within the tab's limits (a .gz expands to 32 MB at most)
    try:
        taskset = make_tasks(scorer, path, k=10, targets=int(targets) if targets else None, seed=int(seed or 0))
    except MetricInputError as error:
        raise SpaceError(str(error).replace(str(path), shown)) from None
    if not taskset.tasks:
        raise SpaceError(f"Every top-10 substitute of {shown} is judged in {label} already: nothing to judge.")
    no_lone_surrogate_candidates(taskset, shown)
    tasks_file = folder / f"tasks-{config}-{split}.jsonl"
    try:
        write_tasks(tasks_file, taskset)
    except (OSError, MetricInputError):  # a full disk, as the metric's writer names it
        raise SpaceError("The tasks file could not be written (the server's disk is full?); try again later.") from None
    return taskset, tasks_file


def start(
    tasks_upload: str | Path | None,
    run_upload: str | Path | None,
    split_label: str | None,
    judge: str | None,
    partial: str | Path | None = None,
    targets: float | None = None,
    seed: float | None = 0,
    folder: str | Path | None = None,
    previous: JudgeSession | None = None,
) -> JudgeSession:
    """A session from a tasks file (or a run and a SWORDS split) for this judge; a partial judgments file's or an
    earlier session's (`previous`) records are kept, the tasks this judge finished skipped. Its files go to a new
    folder in `folder` (default: the system's temporary folder)."""
    name = judge_name(judge)
    if not tasks_upload and not run_upload:
        raise SpaceError("Upload a tasks file, or a run (predictions file) to make tasks from.")
    try:
        folder = Path(tempfile.mkdtemp(prefix=SESSION_PREFIX, dir=folder))
    except OSError as error:
        raise SpaceError(f"No room for a judging session ({error.strerror or error}); try again later.") from None
    try:
        session = _begin(name, folder, tasks_upload, run_upload, split_label, partial, targets, seed, previous)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)  # a start that failed leaves nothing behind
        raise
    if previous is not None:  # its records are all in the new file: past MAX_EARLIER, the oldest folders go
        earlier = [*previous.earlier, previous.folder]
        for gone in earlier[:-MAX_EARLIER]:
            shutil.rmtree(gone, ignore_errors=True)
        session.earlier = earlier[-MAX_EARLIER:]
    return session


def _benchmark(header: dict) -> str:
    return f"{render.visible(str(header.get('dataset')))} {render.visible(str(header.get('split')))}"


def _begin(name, folder, tasks_upload, run_upload, split_label, partial, targets, seed, previous) -> JudgeSession:
    tasks_file = None
    if tasks_upload:
        taskset = tasks_from(tasks_upload)
    else:
        taskset, tasks_file = tasks_from_run(run_upload, split_label, targets, seed, folder)
    records = carried(previous.judgments if previous else None)
    if records and _benchmark(previous.header) != _benchmark(taskset.header):  # one file holds one split's records
        raise SpaceError(
            f"This page's judgments file holds judgments for {_benchmark(previous.header)}, and these tasks are for "
            f"{_benchmark(taskset.header)}: download that file, then reload the page to judge these tasks."
        )
    if partial:  # the upload's records, but for those the earlier session holds already (it was its download)
        records = carried_records(records, judgments_from(partial, taskset))
    finished = judged_by(records, taskset, name)  # the metric's resume rule: every candidate labelled
    tasks = {task.task for task in taskset.tasks}
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "judge"
    session = JudgeSession(
        header=taskset.header,
        tasks=taskset.tasks,
        judge=name,
        folder=folder,
        file_name=f"judgments-{slug[:40]}.jsonl",
        todo=unfinished_tasks(taskset, finished),
        resumed=len(finished),
        tasks_file=tasks_file,
        elsewhere=sum(record["task"] not in tasks for record in records),
    )
    try:
        session.judgments.parent.mkdir()
    except OSError as error:
        raise SpaceError(f"No room for a judging session ({error.strerror or error}); try again later.") from None
    # Every record kept, of any task, any judge: a task cut short is judged again, and its new records are later.
    append(session.judgments, records)  # the file made even when empty: there is always a file to download
    return session


def save(session: JudgeSession | None, labels: list[str | None]) -> JudgeSession:
    """The current task's labels (one per candidate, in order) appended, and the session moved to the next task."""
    if session is None:
        raise SpaceError("Start first: upload a tasks file (or a run), enter your name, press Start.")
    task = session.current
    if task is None:
        raise SpaceError("Every task is judged: download the judgments file.")
    given = list(labels)[: len(task.candidates)]
    missing = [seen(c.substitute) for c, label in zip(task.candidates, given, strict=False) if not label]
    missing += [seen(c.substitute) for c in task.candidates[len(given) :]]
    if missing:
        raise SpaceError(f"Judge every substitute before saving; not yet: {', '.join(missing)}.")
    if wrong := [label for label in given if label not in LABELS]:
        raise SpaceError(f"A judgment is one of {', '.join(LABELS)}, not {render.visible(str(wrong[0]))}.")
    extra = {key: session.header[key] for key in ("dataset", "split") if session.header.get(key)}
    records = [
        judgment_record(task, c, session.judge, label, **extra) for c, label in zip(task.candidates, given, strict=True)
    ]
    session.version = save_and_move(session.folder, session.version, session.file_name, records)
    session.done += 1
    counts = ", ".join(f"{given.count(label)} {label}" for label in LABELS if label in given)
    session.saved = f"Saved task {session.finished:,} ({seen(task.target)}): {counts}. It is in the judgments file."
    return session
