"""Interrupted runs against the run journal: SIGKILL at random moments (mid-request, mid-line, mid-output),
Ctrl-C and SIGTERM mid-run, a run stopped between moving its outputs and recording them, a journal edited by hand
after a kill. Each test makes the fault happen (an LLM server on 127.0.0.1, the signal sent to the real `swords`
process; every wait bounded) and checks what the user gets: one clear line, nothing lost, the user's own files
kept, a rerun that resumes to exactly an uninterrupted run's predictions."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import time

import pytest

from swords_baselines.run.files import output_paths
from swords_metric import read_predictions

from ..conftest import REPO_ROOT
from ..llm_server import LLMServer
from .run_helpers import SWORDS, llm_args, one_line, start_and_wait, swords


@pytest.mark.slow  # a run killed at random points and resumed, again and again: 30 s
def test_kill_9_at_random_points_then_resume(tmp_path, key):
    """Killed with SIGKILL at random moments, again and again (mid-request, mid-line, mid-output): each
    rerun continues, and the final predictions are exactly an uninterrupted run's."""
    with LLMServer(latency=0.1, varied=True) as server:
        reference = tmp_path / "reference.jsonl"
        assert swords(*llm_args(server.base_url, reference, "--concurrency", "16", limit=200), env=key).returncode == 0
        output = tmp_path / "killed.jsonl"
        command = [*SWORDS, *llm_args(server.base_url, output, "--concurrency", "4", limit=200)]
        rng = random.Random(7)
        kills = 0
        for _ in range(8):
            process = subprocess.Popen(
                command,
                cwd=REPO_ROOT,
                env={**os.environ, **key},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            time.sleep(rng.uniform(1.2, 3.5))  # the interpreter starts in ~1.5 s, then answers stream in
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                kills += 1
            _, stderr = process.communicate(timeout=60)
            assert "corrupted" not in stderr and "Traceback" not in stderr, stderr
            journal = output_paths(output)["journal"]
            if journal.exists() and rng.random() < 0.5:  # and sometimes the last line is torn as well
                data = journal.read_bytes()
                last = data[data.rfind(b"\n", 0, len(data) - 1) + 1 :]
                # An answer's line, as a kill mid-write leaves it. (The outputs' record is flushed to disk before
                # any output moves, so it is never torn once they have moved.)
                if data.count(b"\n") > 2 and not last.startswith(b'{"outputs": '):
                    journal.write_bytes(data[: data.rfind(b"\n", 0, len(data) - 1) + 10])
        final = swords(*llm_args(server.base_url, output, "--concurrency", "4", limit=200), env=key)
    assert final.returncode == 0, final.stderr
    assert kills >= 3
    assert read_predictions(output)[0] == read_predictions(reference)[0]
    assert not output_paths(output)["journal"].exists()
    assert not [path.name for path in tmp_path.iterdir() if ".swords-" in path.name]  # no temporary file left


@pytest.mark.slow  # 6 s on two cores
def test_a_kill_while_the_outputs_are_written_leaves_nothing_the_next_run_does_not_clear(tmp_path):
    """kill -9 the moment the staging folder appears (the outputs of 5,450 CoInCo targets are being written
    there): the next start completes the run from its journal and removes the folder the kill left."""
    output = tmp_path / "wordnet.jsonl"
    command = [
        *SWORDS,
        "run",
        "--system",
        "wordnet",
        "--dataset",
        "coinco",
        "--split",
        "test",
        "--output",
        str(output),
        "--bootstrap",
        "0",
        "--no-progress",
    ]
    process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline, staging = time.monotonic() + 300, []
    while time.monotonic() < deadline and process.poll() is None and not staging:
        staging = [path for path in tmp_path.iterdir() if ".swords-staging-" in path.name]
    process.kill()
    process.communicate(timeout=60)
    assert staging and staging[0].is_dir(), "the kill came too late: the run had finished"
    assert output_paths(output)["journal"].exists() and not output_paths(output)["metrics"].exists()
    done = swords(*command[3:])
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["wordnet.json", "wordnet.jsonl", "wordnet.metrics.json"]
    assert len(read_predictions(output)[0]) == 5450


@pytest.mark.slow  # interrupted runs, twice: 20 s each
@pytest.mark.parametrize("stop, status", [(signal.SIGKILL, -signal.SIGKILL), (signal.SIGINT, 130)])
def test_the_users_files_written_after_an_interrupted_run_are_never_replaced(tmp_path, key, stop, status):
    """The issue: start an llm run with --output v.jsonl, kill -9 it mid-run (or Ctrl-C), write your own
    v.jsonl and v.json, rerun the same command: exit 0, both replaced, as the journal vouched for whatever
    was beside it. A file is a run's only if its sha256 is recorded."""
    with LLMServer(latency=0.05) as server:
        output = tmp_path / "v.jsonl"
        paths = output_paths(output)
        command = llm_args(server.base_url, output, "--concurrency", "1", limit=200)
        process = start_and_wait(command, key, paths["journal"], 6)
        process.send_signal(stop)
        _, stderr = process.communicate(timeout=60)
        assert process.returncode == status, stderr[-3000:]
        journal = paths["journal"].read_bytes()
        mine = {"jsonl": '{"id": "my own", "substitutes": ["mine"]}\n', "upstream": '{"substitutes": {}}'}
        for role, text in mine.items():
            paths[role].write_text(text)
        sent = len(server.requests)
        line = one_line(swords(*command, env=key))
        assert line == (
            f"swords: error: {paths['jsonl']} (and {paths['upstream']}) exists and was not written by "
            "`swords run` (or was changed since); choose another --output, or pass --force to replace it"
        )
        assert all(paths[role].read_text() == text for role, text in mine.items())
        assert paths["journal"].read_bytes() == journal and len(server.requests) == sent
        for role in mine:  # the user moves them away: the same command resumes
            paths[role].rename(tmp_path / f"mine-{role}")
        done = swords(*command, env=key)
        assert done.returncode == 0, done.stderr
        assert len(server.requests) == sent + 200 - (journal.count(b"\n") - 1)
    assert len(read_predictions(output)[0]) == 200


@pytest.mark.slow  # 9 s on two cores
def test_a_run_stopped_between_moving_its_outputs_and_recording_them_completes_at_the_next_start(tmp_path, key):
    """A folder made at the metrics file's name mid-run (after the start's checks) stops the run after its
    outputs are in place and before the metrics file records them: one line, and the next start completes the
    run from its journal, which recorded the outputs' sha256 before they moved."""
    with LLMServer(latency=0.05) as server:
        output = tmp_path / "run.jsonl"
        paths = output_paths(output)
        command = llm_args(server.base_url, output, "--concurrency", "1", limit=20)
        process = start_and_wait(command, key, paths["journal"], 1)
        paths["metrics"].mkdir()
        _, stderr = process.communicate(timeout=120)
        assert process.returncode == 2 and len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr
        assert "cannot put the run's outputs in place" in stderr and f"Is a directory: {paths['metrics']}" in stderr
        assert "keeps every answer: rerun the same command" in stderr
        assert paths["jsonl"].exists() and paths["upstream"].exists()  # moved into place, not yet recorded
        paths["metrics"].rmdir()
        sent = len(server.requests)
        done = swords(*command, env=key)
        assert done.returncode == 0, done.stderr
        assert len(server.requests) == sent  # every answer from the journal
    assert not paths["journal"].exists() and len(read_predictions(output)[0]) == 20
    recorded = json.loads(paths["metrics"].read_text())["run"]["files"]
    assert recorded == {role: hashlib.sha256(paths[role].read_bytes()).hexdigest() for role in ("jsonl", "upstream")}


@pytest.mark.slow  # 18 s on two cores
def test_sigterm_mid_run_keeps_the_journal_says_one_line_and_leaves_no_temporary_file(tmp_path, key):
    with LLMServer(latency=0.05, varied=True) as server:
        reference = tmp_path / "reference.jsonl"
        assert swords(*llm_args(server.base_url, reference, limit=60), env=key).returncode == 0
        folder = tmp_path / "run"
        output = folder / "out.jsonl"
        command = llm_args(server.base_url, output, "--concurrency", "4", limit=60)
        process = start_and_wait(command, key, output_paths(output)["journal"], 10)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
        assert process.returncode == 143, stderr
        assert stderr.strip().splitlines() == [
            "swords: terminated (SIGTERM); finished work is kept; run the same command again to resume"
        ], stderr
        kept = output_paths(output)["journal"].read_text().count("\n") - 1
        assert 9 <= kept < 60
        assert [path.name for path in folder.iterdir()] == ["out.jsonl.partial"]  # no lock, no temporary file
        sent = len(server.requests)
        final = swords(*command, env=key)
        assert final.returncode == 0, final.stderr
        assert len(server.requests) - sent <= 60 - kept + 4  # the rest (and those in flight at the signal)
    assert read_predictions(output)[0] == read_predictions(reference)[0]


@pytest.mark.parametrize("item", ['["a", NaN]', '["a", Infinity]', "[1, 0.0]"])
@pytest.mark.slow  # 23 s on two cores
def test_a_hand_edited_journal_is_one_line_naming_its_line(tmp_path, key, item):
    """NaN, Infinity or a substitute that is not a string, in a journal's third line: refused, not read."""
    with LLMServer(latency=0.05) as server:
        output = tmp_path / "out.jsonl"
        journal = output_paths(output)["journal"]
        command = llm_args(server.base_url, output, "--concurrency", "1", limit=200)
        process = start_and_wait(command, key, journal, 5)
        process.kill()
        process.communicate(timeout=60)
        lines = journal.read_text().splitlines(keepends=True)
        first = json.dumps(json.loads(lines[2])["substitutes"][0], ensure_ascii=False)
        assert first in lines[2]
        lines[2] = lines[2].replace(first, item, 1)
        journal.write_text("".join(lines))
        edited, sent = journal.read_bytes(), len(server.requests)
        line = one_line(swords(*command, env=key))
    assert line.startswith(f"swords: error: {journal}:3: corrupted journal line (not as a run writes it"), line
    assert journal.read_bytes() == edited and len(server.requests) == sent
