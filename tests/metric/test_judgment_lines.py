"""What a merge says of odd times and odd files (issue 47): a time valid as written but outside the calendar in UTC
is one line naming its file and line (it was an OverflowError traceback); a record timed after the merge's clock is
noted; a file of tasks then judgments is named as such; the readers speak of judgment records and tasks, never of
predictions or a target's answers. On the hand-made case of judgment_cases.py."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from swords_metric import MetricInputError, Scorer, extended_scores, merge_judgments, read_tasks
from swords_metric.judgments.extended import format_extended

from ..conftest import run_swords
from .judgment_cases import Case, make_case

RUN = "space/results/coinco-oracle.swords.test.jsonl"


@pytest.fixture(scope="module")
def scorer() -> Scorer:
    return Scorer.from_dataset("swords", "test")


@pytest.fixture(scope="module")
def case(tmp_path_factory) -> Case:
    return make_case(tmp_path_factory.mktemp("judgments"))


def _records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


@pytest.mark.parametrize("time", ["9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+01:00"])
def test_a_time_at_the_calendars_ends_is_one_line_naming_its_line(scorer, case, tmp_path, time):
    records = _records(case.files[1])
    records[2]["time"] = time
    path = tmp_path / "ends.jsonl"
    _write(path, records)
    message = f"{path}:3: 'time' {time!r} is past the years 1 to 9999 in UTC, where times are compared"
    with pytest.raises(MetricInputError) as error:
        merge_judgments(scorer, [case.tasks, case.files[0], path])
    assert str(error.value) == message
    done = run_swords("evaluate", "--predictions", RUN, "--judgments", str(case.tasks), str(path))
    assert done.returncode == 2 and done.stderr == f"swords: error: {message}\n" and done.stdout == ""


def test_a_record_timed_after_the_merges_clock_is_noted(scorer, case, tmp_path):
    """A record dated years ahead still wins (the time decides), and the report says so in a note naming it."""
    records = _records(case.files[1])
    bob = next(i for i, r in enumerate(records) if r["judge"] == "bob" and not r["control"])
    records.append({**records[bob], "label": "accept" if records[bob]["label"] != "accept" else "reject",
                    "time": "2099-01-01T00:00:00Z"})  # fmt: skip
    records.append({**records[bob], "time": "2098-01-01T00:00:00Z"})
    path = tmp_path / "ahead.jsonl"
    _write(path, records)
    merged = merge_judgments(scorer, [case.tasks, case.files[0], path])
    assert merged.replaced == 2
    (note,) = merged.notes
    now = datetime.now(UTC).isoformat(timespec="seconds")[:10]
    assert note.startswith(f"2 records are timed after this merge's clock ({now}")
    assert note.endswith(
        f"the latest at {path}:{len(records) - 1} (2099-01-01T00:00:00+00:00): a later time wins the merge rule, so "
        "check the clock of what wrote them"
    )
    result = extended_scores(scorer, case.run, [case.tasks, case.files[0], path])
    assert f"note: {note}" in format_extended(result).splitlines()
    assert not merge_judgments(scorer, case.inputs).notes  # the case's own time is in the past


def test_a_file_of_tasks_then_judgments_is_named_for_what_it_is(scorer, case, tmp_path):
    """The tasks file with the judgments appended to it: alone, it was "only tasks files given"; with another
    judgments file, an 'offset' message. Now one line naming the first judgment record in it."""
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(case.tasks.read_text() + case.files[0].read_text())
    line = len(case.tasks.read_text().splitlines()) + 1
    message = (
        f"{mixed}:{line}: a judgment record in a tasks file (its first line is a tasks header); keep the tasks and "
        "the judgments in files of their own"
    )
    for paths in ([mixed], [mixed, case.files[1]]):
        with pytest.raises(MetricInputError) as error:
            merge_judgments(scorer, paths)
        assert str(error.value) == message
    with pytest.raises(MetricInputError) as error:
        merge_judgments(scorer, [case.tasks])
    assert str(error.value) == (
        f"judgments: only tasks files given ({case.tasks}: each holds a tasks header and tasks); give the judgments "
        "files that answer them too"
    )


def test_the_readers_speak_of_judgment_records_and_tasks(scorer, case, tmp_path):
    """A line too long, or nested too deep, in either file: the message says what the line should hold."""
    long_record = tmp_path / "long.jsonl"
    long_record.write_text(json.dumps({**_records(case.files[0])[0], "note": "x" * (1 << 20)}) + "\n")
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"task": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    header, *tasks = case.tasks.read_text().splitlines()
    long_task = tmp_path / "long-tasks.jsonl"
    long_task.write_text(header + "\n" + tasks[0][:-1] + ', "note": "' + "x" * (1 << 20) + '"}\n')
    expected = [
        (
            [case.tasks, long_record],
            f"{long_record}:1: the line holds more than 1,048,576 characters, the most one line (one judgment "
            "record) may take",
        ),
        ([case.tasks, deep], f"{deep}:1: JSON nested too deeply to be one judgment record"),
        (
            [long_task, case.files[0]],
            f"{long_task}:2: the line holds more than 1,048,576 characters, the most one line (one task) may take",
        ),
    ]
    for paths, message in expected:
        with pytest.raises(MetricInputError) as error:
            merge_judgments(scorer, paths)
        assert str(error.value) == message
    with pytest.raises(MetricInputError, match="one task"):
        read_tasks(long_task)
