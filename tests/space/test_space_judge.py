"""The Judge tab's handlers on real data: a recorded run (the CoInCo oracle on SWORDS test) made into tasks, tasks
judged and appended to the judgments file as the contract has it, a partial file continued (a task cut short judged
again, another judge's records kept, the upload untouched), and every bad file or input one message naming the file
and line."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
from datetime import datetime

import pytest

from swords_metric import read_judgments, read_tasks

from .helpers import COINCO_ORACLE, import_space

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
import_space()
from swords_space.errors import SpaceError  # noqa: E402  (after the import fallback)
from swords_space.tabs import judge  # noqa: E402
from swords_space.tabs.judge_session import discard, save, start  # noqa: E402

CONTRACT = {"task", "id", "substitute", "judge", "label", "control", "time"}


def right_labels(task) -> list[str]:
    """A careful judge's answers: the target control accepted, the random one rejected, the candidates alternately
    accepted and rejected."""
    labels = []
    for n, candidate in enumerate(task.candidates):
        if candidate.control:
            labels.append("accept" if candidate.control == "target" else "reject")
        else:
            labels.append("accept" if n % 2 == 0 else "reject")
    return labels


def records_of(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def from_run(tmp_path_factory):
    """A session started from the recorded run on SWORDS test, and the tasks file it offers for download."""
    session = start(None, str(COINCO_ORACLE), "swords test", "Ann", folder=tmp_path_factory.mktemp("judge"))
    return session, read_tasks(session.tasks_file)


@pytest.fixture
def tasks_file(from_run, tmp_path):
    path = tmp_path / "tasks.jsonl"
    shutil.copy(from_run[0].tasks_file, path)
    return path


def test_a_run_becomes_tasks_with_the_two_controls_and_its_fingerprint(from_run):
    session, taskset = from_run
    assert taskset.header["dataset"] == "swords" and taskset.header["split"] == "test"
    assert taskset.header["predictions_sha256"] == hashlib.sha256(COINCO_ORACLE.read_bytes()).hexdigest()
    assert [t.task for t in taskset.tasks] == [t.task for t in session.tasks] and len(taskset.tasks) > 3
    for task in taskset.tasks:
        kinds = [c.control for c in task.candidates]
        assert kinds.count("target") == 1 and kinds.count("random") == 1 and 3 <= len(kinds) <= 12
        assert task.context[task.offset : task.offset + len(task.target)] == task.target
        target_control = next(c for c in task.candidates if c.control == "target")
        assert target_control.substitute == task.target


def test_judged_tasks_are_appended_to_the_judgments_file_as_the_contract_has_it(tasks_file, tmp_path):
    session = start(str(tasks_file), None, None, "  Ann  ", folder=tmp_path)
    total = sum(len(t.candidates) for t in session.tasks)
    assert judge.progress_text(session).startswith(f"Task **1 of {len(session.tasks)}**")
    assert session.judgments.read_bytes() == b""  # made at start: always a file to download
    first, second = session.tasks[:2]
    save(session, right_labels(first) + [None] * 3)  # the hidden radios' values come too
    save(session, right_labels(second))
    records = records_of(session.judgments)
    assert len(records) == len(first.candidates) + len(second.candidates)
    assert all(CONTRACT <= set(r) and r["judge"] == "Ann" for r in records)
    assert all(r["dataset"] == "swords" and r["split"] == "test" for r in records)
    assert all(datetime.fromisoformat(r["time"]).tzinfo is not None for r in records)
    expected = [
        (task.task, task.id, c.substitute, label, c.control is not None)
        for task in (first, second)
        for c, label in zip(task.candidates, right_labels(task), strict=True)
    ]
    assert [(r["task"], r["id"], r["substitute"], r["label"], r["control"]) for r in records] == expected
    assert len(read_judgments(session.judgments)) == len(records)  # the metric reads what the tab wrote
    judged = len(first.candidates) + len(second.candidates)
    # Issue 50: the words judged are the candidates and two controls a task, each counted as `swords judge tasks`
    # counts them (it said 12 candidates where the tab said 16).
    controls = 2 * len(session.tasks)
    assert (
        f"Task **3 of {len(session.tasks)}** · {judged} of {total} words judged ({total - controls} candidates and "
        f"{controls} controls)" in judge.progress_text(session)
    )


def test_a_partial_file_continues_where_it_stopped_and_stays_as_it_was(tasks_file, tmp_path):
    session = start(str(tasks_file), None, None, "Ann", folder=tmp_path)
    for task in session.tasks[:2]:
        save(session, right_labels(task))
    partial = tmp_path / "mine.jsonl"
    shutil.copy(session.judgments, partial)
    third = session.tasks[2]
    bob = [
        {"task": third.task, "id": third.id, "substitute": c.substitute, "judge": "Bob", "label": "accept",
         "control": c.control is not None, "time": "2026-11-26T10:00:00+00:00"}
        for c in third.candidates
    ]  # fmt: skip
    with open(partial, "a", encoding="utf-8") as file:
        file.writelines(json.dumps(r) + "\n" for r in bob)
    before = partial.read_bytes()

    again = start(str(tasks_file), None, None, "Ann", partial=str(partial), folder=tmp_path)
    assert again.resumed == 2 and again.current.task == third.task
    assert "2 tasks were already judged" in judge.progress_text(again)
    save(again, right_labels(third))
    records = records_of(again.judgments)
    assert len(records) == len(before.splitlines()) + len(third.candidates)  # the upload's records, then the new
    assert [r for r in records if r["judge"] == "Bob"] == bob
    assert partial.read_bytes() == before  # the user's file: read, never written
    # Bob finished only the third task: he starts at the first.
    assert start(str(tasks_file), None, None, "Bob", partial=str(partial), folder=tmp_path).current.task == (
        session.tasks[0].task
    )


def test_a_task_cut_short_by_a_killed_writer_is_judged_again(tasks_file, tmp_path):
    session = start(str(tasks_file), None, None, "Ann", folder=tmp_path)
    first, second = session.tasks[:2]
    save(session, right_labels(first))
    save(session, right_labels(second))
    lines = session.judgments.read_bytes().splitlines(keepends=True)
    kept = len(first.candidates) + 1  # the first task whole, one record of the second
    partial = tmp_path / "killed.jsonl"
    partial.write_bytes(b"".join(lines[:kept]) + lines[kept][:25])  # and a line cut mid-record
    again = start(str(tasks_file), None, None, "Ann", partial=str(partial), folder=tmp_path)
    assert again.resumed == 1 and again.current.task == second.task
    # Every whole record kept, the cut task's one too; judged again, its new records come later.
    assert [r["task"] for r in records_of(again.judgments)] == [first.task] * len(first.candidates) + [second.task]
    save(again, right_labels(second))
    records = records_of(again.judgments)
    assert len(records) == kept + len(second.candidates) and records[kept - 1]["time"] <= records[-1]["time"]


def test_every_candidate_is_judged_before_a_task_is_saved(tasks_file, tmp_path):
    session = start(str(tasks_file), None, None, "Ann", folder=tmp_path)
    labels = right_labels(session.current)
    missing = session.current.candidates[1].substitute
    labels[1] = None
    with pytest.raises(SpaceError, match=f"not yet: {missing}"):
        save(session, labels)
    assert session.done == 0 and session.judgments.read_bytes() == b""
    with pytest.raises(SpaceError, match="Start first"):
        save(None, labels)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Enter your name"),
        ("llm:gpt", "LLM judge"),
        ("LLM:gpt", "LLM judge"),
        ("a\x1bb", "control characters"),
        ("x" * 81, "at most 80"),
        ("\u0430lice", r"name '\\u0430lice' mixes Cyrillic and Latin letters"),
    ],
)
def test_a_judge_needs_a_plain_name(tasks_file, tmp_path, name, message):
    with pytest.raises(SpaceError, match=message):
        start(str(tasks_file), None, None, name, folder=tmp_path)


def test_bad_tasks_files_are_one_message_naming_the_file_and_line(tasks_file, tmp_path):
    lines = tasks_file.read_text(encoding="utf-8").splitlines(keepends=True)
    broken = tmp_path / "broken-tasks.jsonl"
    broken.write_text("".join(lines[:2]) + '{"task": "x", "id"\n' + "".join(lines[3:]), encoding="utf-8")
    with pytest.raises(SpaceError) as found:
        start(str(broken), None, None, "Ann", folder=tmp_path)
    assert str(found.value).startswith("broken-tasks.jsonl:3: ") and str(tmp_path) not in str(found.value)
    judgments = tmp_path / "judgments.jsonl"
    judgments.write_text(json.dumps({"task": "x"}) + "\n")
    with pytest.raises(SpaceError, match=r"^judgments.jsonl:1: not a tasks file"):
        start(str(judgments), None, None, "Ann", folder=tmp_path)
    empty = tmp_path / "empty.jsonl"
    empty.touch()
    with pytest.raises(SpaceError, match="empty.jsonl is empty"):
        start(str(empty), None, None, "Ann", folder=tmp_path)
    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)  # opened for reading, it would wait for a writer forever
    with pytest.raises(SpaceError, match="pipe.jsonl is not a regular file"):
        start(str(pipe), None, None, "Ann", folder=tmp_path)
    huge = tmp_path / "huge.jsonl"
    with open(huge, "wb") as file:  # sparse: 21 MB on paper, nothing on disk
        file.write(lines[0].encode())
        file.truncate(21 * 2**20)
    with pytest.raises(SpaceError, match=r"huge.jsonl is 21.0 MB; a tasks file may have at most 20 MB"):
        start(str(huge), None, None, "Ann", folder=tmp_path)
    with pytest.raises(SpaceError, match="Upload a tasks file, or a run"):
        start(None, None, "swords test", "Ann", folder=tmp_path)
    assert not list(tmp_path.glob("swords-judge-*"))  # a start that failed leaves no folder behind


def test_bad_judgments_files_are_one_message_naming_the_file_and_line(tasks_file, tmp_path):
    session = start(str(tasks_file), None, None, "Ann", folder=tmp_path)
    save(session, right_labels(session.current))
    records = records_of(session.judgments)

    def refused(name: str, lines: list[dict | str]) -> str:
        path = tmp_path / name
        path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in lines))
        with pytest.raises(SpaceError) as found:
            start(str(tasks_file), None, None, "Ann", partial=str(path), folder=tmp_path)
        assert str(tmp_path) not in str(found.value)
        return str(found.value)

    assert refused("label.jsonl", [records[0], {**records[1], "label": "maybe"}]).startswith("label.jsonl:2: 'label'")
    assert refused("dev.jsonl", [{**records[0], "split": "dev"}]).startswith("dev.jsonl:1: a judgment for split dev,")
    moved = refused("moved.jsonl", [records[0], {**records[1], "id": "t:0"}])
    assert moved.startswith("moved.jsonl:2: task") and "upload the judgments made with these tasks" in moved
    assert refused("text.jsonl", ["not json at all"]).startswith("text.jsonl:1:")


def test_a_run_that_expands_past_the_limit_is_refused(tmp_path):
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as file:  # 40 MB of blank lines in about 40 kB
        for _ in range(40):
            file.write(b"\n" * 2**20)
    assert bomb.stat().st_size < 100_000
    with pytest.raises(SpaceError, match=r"^bomb.jsonl.gz.*32") as found:
        start(None, str(bomb), "swords test", "Ann", folder=tmp_path)
    assert str(tmp_path) not in str(found.value)


def test_only_swords_splits_are_judged(tmp_path):
    with pytest.raises(SpaceError, match="Only SWORDS's splits can be judged"):
        start(None, str(COINCO_ORACLE), "coinco test", "Ann", folder=tmp_path)
    assert judge.judgeable_splits()[:2] == ["swords dev", "swords test"]


def test_a_full_disk_keeps_whole_tasks_in_the_judgments_file(tasks_file, small_disk):
    session = start(str(tasks_file), None, None, "Ann", folder=small_disk)
    saved, shown = [], session.judgments
    with pytest.raises(SpaceError, match="could not be written .*this task is not saved") as found:
        for task in session.tasks:
            save(session, right_labels(task))
            saved.append(task)
            shown = session.judgments  # the address the page links to after this save
    assert str(small_disk) not in str(found.value)  # the server's paths are not the user's business
    assert saved and session.done == len(saved)  # the failed task is still the current one
    assert session.judgments == shown and shown.is_file()  # the page's link still answers, with every saved task
    records = records_of(session.judgments)  # every line whole
    assert len(records) == sum(len(task.candidates) for task in saved)
    # Continuing there from a file larger than the disk's room: refused, and the new session leaves nothing behind.
    partial = tasks_file.parent / "all.jsonl"
    with open(partial, "w", encoding="utf-8") as file:
        for task in session.tasks:
            file.writelines(
                json.dumps({"task": task.task, "id": task.id, "substitute": c.substitute, "judge": "Bob",
                            "label": "reject", "control": c.control is not None, "time": "2026-11-26T10:00:00+00:00"})
                + "\n"
                for c in task.candidates
            )  # fmt: skip
    assert partial.stat().st_size > 16 * 1024
    with pytest.raises(SpaceError, match="could not be written"):
        start(str(tasks_file), None, None, "Ann", partial=str(partial), folder=small_disk)
    assert [p.name for p in small_disk.glob("swords-judge-*")] == [session.folder.name]


def test_the_view_shows_the_task_its_candidates_and_the_marked_target(tasks_file, tmp_path):
    session = start(str(tasks_file), None, None, "Ann", folder=tmp_path)
    task = session.current
    updates = judge.view(session)
    html, radios = updates[2], updates[3 : 3 + judge.SLOTS]
    assert f">{task.target}</mark>" in html and task.id in html
    shown = [r for r in radios if r.visible]
    assert [r.label for r in shown] == [f"{n}. {c.substitute}" for n, c in enumerate(task.candidates, 1)]
    assert all(r.value is None for r in radios)  # a new task starts unjudged


def test_the_file_moves_to_a_new_address_with_every_task_and_goes_with_the_session(tasks_file, tmp_path):
    session = start(str(tasks_file), None, None, "Ann", folder=tmp_path)
    addresses = [session.judgments]
    for task in session.tasks[:2]:
        save(session, right_labels(task))
        addresses.append(session.judgments)
    assert len(set(addresses)) == 3 and not addresses[0].exists() and not addresses[1].exists()
    files = [p for p in session.folder.rglob("*") if p.is_file()]
    assert files == [session.judgments]  # one file, never copied
    discard(session)
    assert not session.folder.exists() and tasks_file.exists()  # the user's upload stays
