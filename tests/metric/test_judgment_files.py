"""The tasks and judgments files: round trips, a malformed judgments file (one line naming file:line), a cut last
line (a writer killed mid-line, for real), an oversized file refused before it is read, a FIFO, a user's file never
overwritten, and a full disk."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from swords_metric import (
    MAX_JUDGMENTS_BYTES,
    JudgmentsWriter,
    MetricInputError,
    Scorer,
    judgment_record,
    make_tasks,
    read_judgments,
    read_tasks,
    write_tasks,
)

PRESS = "t:288b94f02f153614ee0dc6474368f2e15ddff00c"
GOOD = {
    "task": f"{PRESS}#1",
    "id": PRESS,
    "substitute": "newsman",
    "judge": "ann",
    "label": "accept",
    "control": False,
    "time": "2026-11-26T12:00:00+00:00",
}


@pytest.fixture(scope="module")
def taskset():
    return make_tasks(Scorer.from_dataset("swords", "test"), {PRESS: ["newsman", "gazette", "tabloid"]})


def _lines(*records) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def test_tasks_round_trip(taskset, tmp_path):
    path = tmp_path / "tasks.jsonl"
    write_tasks(path, taskset)
    again = read_tasks(path)
    header, body = path.read_bytes().split(b"\n", 1)  # stamped: the sha256 of the header without it, then the tasks
    digest = hashlib.sha256((json.dumps(taskset.header, ensure_ascii=False) + "\n").encode("utf-8") + body)
    assert again.header == {**taskset.header, "content_sha256": digest.hexdigest()} and again.tasks == taskset.tasks
    assert json.loads(path.read_text().splitlines()[0])["format"] == "swords-judge-tasks"
    write_tasks(path, taskset)  # a tasks file is replaced


def test_a_users_file_is_never_overwritten_by_tasks(taskset, tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text('{"my": "notes"}\n')
    with pytest.raises(MetricInputError, match="exists and is not a tasks file"):
        write_tasks(path, taskset)
    assert path.read_text() == '{"my": "notes"}\n'


def test_judgments_round_trip_and_extra_fields_kept(taskset, tmp_path):
    path = tmp_path / "j.jsonl"
    task = taskset.tasks[0]
    with JudgmentsWriter(path) as out:
        for candidate in task.candidates:
            out.write(judgment_record(task, candidate, "ann", "accept", dataset="swords", note="kept"))
    records = read_judgments(path)
    assert len(records) == len(task.candidates) and not records.notes
    assert records[0]["note"] == "kept" and records[0]["_where"] == f"{path}:1"
    assert sum(r["control"] for r in records) == 2
    assert {r["control_kind"] for r in records if r["control"]} == {"target", "random"}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not JSON"),
        ('["a list"]', "a judgment must be a JSON object"),
        (json.dumps({k: v for k, v in GOOD.items() if k != "judge"}), "not a judgment record (no 'judge')"),
        (json.dumps({**GOOD, "label": "yes"}), "'label' must be one of accept, reject, abstain"),
        (json.dumps({**GOOD, "control": "no"}), "'control' must be true or false"),
        (json.dumps({**GOOD, "time": "yesterday"}), "'time' must be an ISO 8601 time"),
        (json.dumps({**GOOD, "substitute": " "}), "'substitute' must be a non-empty string"),
        (json.dumps({**GOOD, "control_kind": "other"}), "'control_kind' must be 'target' or 'random'"),
        (json.dumps({**GOOD, "substitute": "a\ud800b"}), "'substitute' holds a lone surrogate (\\u escape), not text"),
        (json.dumps({**GOOD, "judge": "\udfff"}), "'judge' holds a lone surrogate"),
        (json.dumps({**GOOD, "split": 3}), "'split' must be a non-empty string"),
    ],
)
def test_a_malformed_judgments_file_is_one_line_naming_the_line(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(_lines(GOOD, line, GOOD))
    with pytest.raises(MetricInputError) as error:
        read_judgments(path)
    assert str(error.value).startswith(f"{path}:2: ") and message in str(error.value)
    assert "\n" not in str(error.value)


def test_the_cli_names_the_line_of_a_malformed_file(taskset, tmp_path):
    from ..conftest import run_swords

    tasks = tmp_path / "tasks.jsonl"
    write_tasks(tasks, taskset)
    good = {**GOOD, "task": taskset.tasks[0].task}
    bad = tmp_path / "bad.jsonl"
    bad.write_text(_lines(good, {**good, "label": "maybe"}))
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps({"id": PRESS, "substitutes": ["newsman"]}) + "\n")
    done = run_swords("evaluate", "--predictions", str(run), "--judgments", str(tasks), str(bad), "--bootstrap", "0")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"swords: error: {bad}:2: 'label' must be one of") and done.stderr.count("\n") == 1


WRITER = """
import json, os, sys, time
from swords_metric import JudgmentsWriter
record = json.loads(sys.argv[2])
with JudgmentsWriter(sys.argv[1]) as out:
    for _ in range(3):
        out.write(record)
    line = json.dumps(record).encode()
    os.write(out._file.fileno(), line[: len(line) // 2])  # half a record reaches the file: then the kill
    print("cut", flush=True)
    time.sleep(60)
"""


def test_a_writer_killed_mid_line_leaves_a_cut_last_line_that_is_dropped_and_cut_off(tmp_path):
    """A real writer process, killed with SIGKILL after half a record reached the file: reading drops that line
    with a note naming it; a new writer cuts it off and appends; the file then reads whole."""
    path = tmp_path / "j.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(WRITER), str(path), json.dumps(GOOD)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout.readline() == "cut\n"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    assert not path.read_bytes().endswith(b"\n")
    records = read_judgments(path)
    assert len(records) == 3 and records.notes == [
        f"{path}:4: the last line is cut short (a writer stopped mid-line); left out"
    ]
    with JudgmentsWriter(path) as out:
        out.write({**GOOD, "judge": "bob"})
    records = read_judgments(path)
    assert [r["judge"] for r in records] == ["ann", "ann", "ann", "bob"] and not records.notes


def test_a_cut_line_that_is_not_the_last_is_an_error(tmp_path):
    path = tmp_path / "j.jsonl"
    path.write_text(_lines(GOOD, json.dumps(GOOD)[:40], GOOD))
    with pytest.raises(MetricInputError, match=rf"^{path}:2: not JSON"):
        read_judgments(path)


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path):
    """A sparse file of 32 MB and one byte (zeros: were it read, it would fail as not JSON, not by its size)."""
    path = tmp_path / "huge.jsonl"
    with open(path, "wb") as f:
        f.truncate(MAX_JUDGMENTS_BYTES + 1)
    started = time.perf_counter()
    with pytest.raises(MetricInputError) as error:
        read_judgments(path)
    assert time.perf_counter() - started < 1.0
    assert str(error.value) == f"{path}: 32 MB, larger than the largest judgments file accepted (32 MB)"


def test_a_fifo_is_named_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(MetricInputError, match="is a pipe, socket or device, not a judgments file"):
        read_judgments(fifo)
    with pytest.raises(MetricInputError, match="not a regular file"):
        JudgmentsWriter(fifo).__enter__()


def test_a_symbolic_link_in_the_way_is_refused_and_its_target_untouched(tmp_path):
    target = tmp_path / "elsewhere.jsonl"
    target.write_text(_lines(GOOD))
    link = tmp_path / "j.jsonl"
    link.symlink_to(target)
    with pytest.raises(MetricInputError, match=r"j\.jsonl: is a symbolic link; name the judgments file itself$"):
        JudgmentsWriter(link).__enter__()
    assert target.read_text() == _lines(GOOD)


def test_the_writer_appends_and_refuses_a_file_that_is_not_judgments(tmp_path):
    path = tmp_path / "j.jsonl"
    path.write_text(_lines(GOOD))
    with JudgmentsWriter(path) as out:
        out.write({**GOOD, "judge": "bob"})
    assert [r["judge"] for r in read_judgments(path)] == ["ann", "bob"]
    mine = tmp_path / "predictions.jsonl"
    mine.write_text('{"id": "t:1", "substitutes": ["a"]}\n')
    with pytest.raises(MetricInputError, match="exists and is not a judgments file"):
        JudgmentsWriter(mine).__enter__()
    assert mine.read_text() == '{"id": "t:1", "substitutes": ["a"]}\n'


def test_a_full_disk_is_one_line(small_disk):
    path = small_disk / "j.jsonl"
    record = {**GOOD, "padding": "x" * 2000}
    with pytest.raises(MetricInputError, match=rf"^{path}: no space left on the device"):
        with JudgmentsWriter(path) as out:
            for _ in range(100):
                out.write(record)
    records = read_judgments(path)  # whole lines, and at most one cut one, dropped
    assert records and all(r["padding"] == record["padding"] for r in records)


def test_a_users_last_line_without_a_line_end_is_never_cut_off(tmp_path):
    """Only a record this toolkit began writing (a killed writer's) is cut off; a user's own last line that has no
    line end (a note, a record of another tool) is refused in one line and the file is left byte for byte."""
    path = tmp_path / "j.jsonl"
    text = _lines(GOOD) + "checked by hand, 3 more to do"
    path.write_text(text)
    with pytest.raises(MetricInputError) as error:
        JudgmentsWriter(path).__enter__()
    assert str(error.value) == (
        f"{path}: its last line has no line end and is not a judgment record; end it, or name another output"
    )
    assert path.read_text() == text


@pytest.mark.parametrize(
    ("extra", "what"),
    [({"confidence": float("nan")}, "NaN or infinity"), ({"note": "x\ud800"}, "a lone surrogate (not text)")],
)
def test_nan_or_a_lone_surrogate_never_reaches_a_judgments_file(taskset, tmp_path, extra, what):
    path = tmp_path / "j.jsonl"
    task = taskset.tasks[0]
    with JudgmentsWriter(path) as out:
        out.write(judgment_record(task, task.candidates[0], "ann", "accept"))
        with pytest.raises(MetricInputError) as error:
            out.write(judgment_record(task, task.candidates[1], "ann", "accept", **extra))
    shown = repr(task.candidates[1].substitute)
    assert str(error.value) == f"{path}: the record of {shown} holds {what}"
    assert len(read_judgments(path)) == 1  # the file holds only whole, readable records
    with JudgmentsWriter(path) as out, pytest.raises(MetricInputError, match="lone surrogate"):
        out.write(judgment_record(task, task.candidates[1], "a\udc80", "accept"))
    assert len(read_judgments(path)) == 1


def test_a_lone_surrogate_in_a_tasks_file_is_one_line(taskset, tmp_path):
    path = tmp_path / "tasks.jsonl"
    write_tasks(path, taskset)
    header, task = path.read_text().splitlines()[:2]
    path.write_text(header + "\n" + task.replace('"context": "', '"context": "\\ud800', 1) + "\n")
    with pytest.raises(MetricInputError) as error:
        read_tasks(path)
    assert str(error.value) == f"{path}:2: 'context' holds a lone surrogate (\\u escape), not text"
