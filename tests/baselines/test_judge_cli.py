"""`swords judge tasks` on a run made by hand for three SWORDS test targets: the counts it prints worked out here
(a target whose substitutes are all gold gets no task; new words in tasks of at most 10), the file it writes, and the
user's file it will not replace."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from subprocess import PIPE

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
    # Issue 50: the controls counted apart, two a task, and the words to judge as the Judge tab counts them (20).
    assert "controls: 6 (the target word and a random word in each task; 20 words to judge)\n" in out
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


def test_a_tasks_file_changed_by_hand_is_the_user_s(run_file, tmp_path, capsys):
    """Only a file `judge tasks` wrote, unchanged, is replaced without --force: a tasks file the user extended by hand,
    or a notes file whose first line looks like a tasks header, is not."""
    run, _ = run_file
    output = tmp_path / "tasks.jsonl"
    assert swords_main(tasks_args(run, output)) == 0
    extended = output.read_text() + output.read_text().splitlines()[1] + "\n"  # a task the user copied in
    output.write_text(extended)
    notes = tmp_path / "notes.jsonl"
    notes.write_text('{"format": "swords-judge-tasks", "version": 1}\nmy notes on the tasks\n')
    for path, text in ((output, extended), (notes, notes.read_text())):
        capsys.readouterr()
        assert swords_main(tasks_args(run, path)) == 2
        err = capsys.readouterr().err
        assert str(path) in err and "--force" in err and len(err.strip().splitlines()) == 1
        assert path.read_text() == text
    assert swords_main(tasks_args(run, output, "--force")) == 0
    assert swords_main(tasks_args(run, output, "--seed", "5")) == 0  # written by it again: its own, replaced


def test_a_symbolic_link_at_the_output_is_refused_even_with_force(run_file, tmp_path, capsys):
    run, _ = run_file
    real = tmp_path / "real.jsonl"
    assert swords_main(tasks_args(run, real)) == 0
    written = real.read_bytes()
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    for extra in ((), ("--force",)):
        capsys.readouterr()
        assert swords_main(tasks_args(run, link, *extra)) == 2
        err = capsys.readouterr().err
        assert str(link) in err and "symbolic link" in err and len(err.strip().splitlines()) == 1
        assert link.is_symlink() and real.read_bytes() == written


# Run in a mount namespace of its own whose /dev is a tmpfs holding the three links, /dev/null and /dev/urandom: were
# the fault back, it would replace that /dev/stdout, never the machine's (which other processes write through).
OWN_DEV = """set -e
mount --make-rprivate /
mkdir -p "$DEV_BEFORE" && mount --bind /dev "$DEV_BEFORE"
mount -t tmpfs tmpfs /dev
ln -s /proc/self/fd/0 /dev/stdin && ln -s /proc/self/fd/1 /dev/stdout && ln -s /proc/self/fd/2 /dev/stderr
touch /dev/null /dev/urandom
mount --bind "$DEV_BEFORE/null" /dev/null && mount --bind "$DEV_BEFORE/urandom" /dev/urandom
set +e
"$@" > "$REDIRECTED"
status=$?
readlink /dev/stdout > "$LINK" || echo "not a link" > "$LINK"
exit $status
"""


def test_dev_stdout_redirected_to_a_file_is_never_replaced(run_file, tmp_path):
    """`--output /dev/stdout --force` with stdout redirected to a file: /dev/stdout stays a link, and nothing is
    written through it."""
    from .run_helpers import SWORDS

    run, _ = run_file
    if shutil.which("unshare") is None or subprocess.run(["unshare", "--mount", "true"]).returncode != 0:
        pytest.skip("no mount namespace here: /dev/stdout cannot be tried without risking the machine's")
    redirected, link = tmp_path / "out.txt", tmp_path / "link.txt"
    env = {**os.environ, "DEV_BEFORE": str(tmp_path / "dev"), "REDIRECTED": str(redirected), "LINK": str(link)}
    command = ["unshare", "--mount", "sh", "-c", OWN_DEV, "sh", *SWORDS, *tasks_args(run, "/dev/stdout", "--force")]
    done = subprocess.run(command, stderr=PIPE, env=env, timeout=120)
    assert link.read_text().strip() == "/proc/self/fd/1"  # still the link, not a regular file
    err = done.stderr.decode()
    assert done.returncode == 2 and "/dev/stdout" in err and len(err.strip().splitlines()) == 1, err
    assert redirected.read_bytes() == b""


def test_a_lone_surrogate_in_the_predictions_is_one_line(tmp_path, capsys):
    row = swords_dataset.rows("swords", "test")[0]
    run = tmp_path / "run.jsonl"
    line = json.dumps({"id": row["id"], "substitutes": [["zorb\ud800ish", 2], ["quorble", 1]]})  # as the escape
    assert "\\ud800" in line
    run.write_text(line + "\n")
    output = tmp_path / "tasks.jsonl"
    assert swords_main(tasks_args(run, output)) == 2
    err = capsys.readouterr().err
    assert row["id"] in err and "surrogate" in err and "U+D800" in err and len(err.strip().splitlines()) == 1, err
    assert not output.exists()


def test_a_task_line_the_readers_would_refuse_is_refused_before_writing(tmp_path, capsys):
    """Ten new words of 110,000 characters: one task line of 1.1 million characters, past what read_tasks takes."""
    row = swords_dataset.rows("swords", "test")[0]
    words = [f"w{n}" + "x" * 110_000 for n in range(10)]
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps({"id": row["id"], "substitutes": [[w, 10 - n] for n, w in enumerate(words)]}) + "\n")
    output = tmp_path / "tasks.jsonl"
    assert swords_main(tasks_args(run, output)) == 2
    err = capsys.readouterr().err
    assert row["id"] in err and "1,048,576" in err and len(err.strip().splitlines()) == 1, err
    assert not output.exists()
    # The bound is the reader's own: the same line written by hand is refused by read_tasks
    from swords_metric import MetricInputError, read_tasks

    task = {"task": "x#1", "id": row["id"], "context": row["context"], "target": row["target"]}
    task.update(offset=row["offset"], candidates=[{"substitute": w, "control": None} for w in words])
    output.write_text('{"format": "swords-judge-tasks", "version": 1}\n' + json.dumps(task) + "\n")
    with pytest.raises(MetricInputError):
        read_tasks(output)


@pytest.mark.slow  # 17 s on two cores: 320,040 candidates made into tasks
def test_a_tasks_file_past_the_readers_bound_is_refused_before_writing(tmp_path, capsys):
    """420 new words for each of SWORDS test's 762 targets, --k 420: about 36 MB of tasks, past the 32 MB a tasks
    file's readers take (`--k 2000` made 147 MB)."""
    from swords_metric import MAX_TASKS_BYTES

    run = tmp_path / "run.jsonl"
    with open(run, "w") as f:
        for row in swords_dataset.rows("swords", "test"):
            f.write(
                json.dumps({"id": row["id"], "substitutes": [[f"zq{n:04d}blorpsnorfle", 1000 - n] for n in range(420)]})
            )
            f.write("\n")
    output = tmp_path / "tasks.jsonl"
    assert swords_main(tasks_args(run, output, "--k", "420")) == 2
    err = capsys.readouterr().err
    assert f"{MAX_TASKS_BYTES >> 20} MB" in err and "--k" in err and len(err.strip().splitlines()) == 1, err
    assert not output.exists() and not list(tmp_path.glob(".tasks.jsonl*"))
