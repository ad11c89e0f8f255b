"""`swords judge tasks` on a run made by hand for three SWORDS test targets: the counts it prints worked out here
(a target whose substitutes are all gold gets no task; new words in tasks of at most 10), the file it writes, and the
user's file it will not replace."""

from __future__ import annotations

import json

import pytest

import swords_dataset
from swords_lexsub.cli import main as swords_main

NEW = ["blorptastic", "zzyzxq", "quorble", "snerfish", "plimbly", "wuggish", "frondle", "glarpy", "mimsical"]
NEW += ["brillig", "slithy", "vorpal"]  # 12 words no benchmark holds


@pytest.fixture(scope="module")
def run_file(tmp_path_factory):
    """A: three gold substitutes (nothing new); B: two new words after a gold one and the target word itself (which
    the metric removes); C: twelve new words."""
    a, b, c = swords_dataset.rows("swords", "test")[:3]
    gold = lambda row, n: [s["substitute"] for s in row["substitutes"][:n]]  # noqa: E731
    answers = {a["id"]: gold(a, 3), b["id"]: [*gold(b, 1), b["target"], *NEW[:2]], c["id"]: NEW}
    path = tmp_path_factory.mktemp("run") / "hand.jsonl"
    lines = [{"id": tid, "substitutes": [[w, 20 - n] for n, w in enumerate(words)]} for tid, words in answers.items()]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path, (a, b, c)


def tasks_args(run, output, *extra):
    return [
        "judge",
        "tasks",
        "--dataset",
        "swords",
        "--split",
        "test",
        "--predictions",
        str(run),
        "--output",
        str(output),
        *extra,
    ]


def test_tasks_counts_and_file(run_file, tmp_path, capsys):
    run, (a, b, c) = run_file
    assert swords_main(tasks_args(run, tmp_path / "tasks.jsonl", "--k", "15")) == 0
    out = capsys.readouterr().out
    # B: 2 new words in one task; C: 12 in two tasks of 6 (at most 10 a task, sizes differing by at most one)
    assert "targets with tasks: 2\n" in out and "targets with nothing new: 1\n" in out
    assert "candidates: 14\n" in out and "tasks: 3\n" in out
    lines = [json.loads(line) for line in (tmp_path / "tasks.jsonl").read_text().splitlines()]
    tasks = lines[1:]
    assert [task["id"] for task in tasks] == [b["id"], c["id"], c["id"]]
    for task in tasks:
        controls = [cand for cand in task["candidates"] if cand["control"]]
        assert sorted(cand["control"] for cand in controls) == ["random", "target"]
    shown = {cand["substitute"] for task in tasks for cand in task["candidates"] if not cand["control"]}
    assert shown == set(NEW)
    assert sorted(len(task["candidates"]) - 2 for task in tasks) == [2, 6, 6]


def test_tasks_never_replaces_a_user_s_file(run_file, tmp_path, capsys):
    run, _ = run_file
    mine = tmp_path / "tasks.jsonl"
    mine.write_text("my notes\n")
    assert swords_main(tasks_args(run, mine)) == 2
    err = capsys.readouterr().err
    assert str(mine) in err and "--force" in err and len(err.strip().splitlines()) == 1
    assert mine.read_text() == "my notes\n"
    assert swords_main(tasks_args(run, mine, "--force")) == 0
    assert json.loads(mine.read_text().splitlines()[0])["format"] == "swords-judge-tasks"
    assert swords_main(tasks_args(run, mine, "--seed", "3")) == 0  # its own file: replaced without --force
