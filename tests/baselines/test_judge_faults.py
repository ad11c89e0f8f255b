"""`swords judge llm` and `validate` against faults, each made to happen: a journal edited by hand after a kill -9, a
server that echoes the key and the URL's query secret (whole, cut short, upper-cased), one that only answers 429, one
that never answers, a full disk (a real 16 kB filesystem), a cache folder that is a file or read-only, an
`--agreement` that is not there. What the user gets: one line naming the item, no secret anywhere, nothing lost."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest

from swords_lexsub.cli import main as swords_main

from ..conftest import run_swords_unprivileged
from ..llm_server import Canned, LLMServer
from .judge_helpers import dev_tasks_file, items, records, user_message
from .run_helpers import SWORDS, swords


@pytest.fixture
def tasks(tmp_path, dev) -> Path:
    return dev_tasks_file(tmp_path / "tasks.jsonl", dev)  # 2 targets, 3 candidates and 2 controls each


def judge_args(base_url: str, tasks: Path, output: Path, *extra: str, cache: str = "off") -> list[str]:
    return [
        "judge", "llm", "--tasks", str(tasks), "--output", str(output), "--base-url", base_url,
        "--model", "judge-model", "--cache-dir", cache, "--backoff", "0.01", "--timeout", "5", *extra,
    ]  # fmt: skip


def refusal(capsys, args: list[str]) -> str:
    """The one error line of a refused command (in this process: exit status 2, no traceback). Lines before it are the
    command's own notes (NOTES: what it waits for, the constraint)."""
    capsys.readouterr()
    assert swords_main(args) == 2
    return error_line(capsys.readouterr().err)


NOTES = ("judge llm: ", "judge validate: ", "judge: ")  # what a judge command says before its error, if anything


def error_line(err: str) -> str:
    lines = err.strip().splitlines()
    notes = lines[:-1]
    assert "Traceback" not in err and lines and all(line.startswith(NOTES) for line in notes), err
    assert lines[-1].startswith("swords: error: "), err
    return lines[-1]


# --- records an earlier run left --------------------------------------------------------------------------------


def killed_run(server: LLMServer, tasks: Path, output: Path, journalled: int) -> list[str]:
    """`judge llm` killed with SIGKILL once its journal holds `journalled` records; the journal's lines."""
    journal = Path(f"{output}.partial")
    process = subprocess.Popen([*SWORDS, *judge_args(server.base_url, tasks, output, "--concurrency", "1")])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if journal.exists() and len(journal.read_text().splitlines()) > journalled:
                break
            time.sleep(0.02)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    return journal.read_text().splitlines()


@pytest.mark.slow  # 6 s on two cores
def test_a_journal_edited_by_hand_is_checked_record_by_record(tasks, tmp_path, capsys):
    """After a kill -9: a label no protocol has, another judge's record, `"control": NaN` and a candidate no task
    offered are each dropped in one line naming the journal's line, and their candidates asked again."""
    output = tmp_path / "j.jsonl"
    with LLMServer(generic="accept", latency=0.1) as server:
        lines = killed_run(server, tasks, output, journalled=4)
        edited = [json.loads(line) for line in lines[1:5]]
        edited[0]["label"] = "maybe"
        edited[1]["judge"] = "llm:another:00000000"
        made_up = {**edited[3], "substitute": "zzyzxq-made-up"}
        text = [json.dumps(record) for record in edited]
        text[2] = text[2].replace('"control": false', '"control": NaN').replace('"control": true', '"control": NaN')
        assert "NaN" in text[2]
        journal = Path(f"{output}.partial")
        journal.write_text("\n".join([lines[0], *text, json.dumps(made_up)]) + "\n")
        asked = len(server.requests)
        capsys.readouterr()
        assert swords_main(judge_args(server.base_url, tasks, output)) == 0
        err = capsys.readouterr().err
        again = [r["body"] for r in server.requests[asked:]]
    assert f"{journal}:2: 'label' is 'maybe'" in err
    assert f"{journal}:3: another judge's record" in err
    assert f"{journal}:4: 'control' is nan" in err
    assert f"{journal}:6: a candidate the tasks file does not offer" in err
    written = records(output)
    assert len(written) == 10 and all(r["label"] == "accept" for r in written)
    assert {r["judge"] for r in written} == {edited[3]["judge"]} and "zzyzxq-made-up" not in output.read_text()
    expected = {(t.task, c.substitute): c.control is not None for t, c in items(tasks)}
    assert {(r["task"], r["substitute"]): r["control"] for r in written} == expected
    # The three dropped candidates (and those the killed run had not journalled) were asked again; the kept one not.
    assert len(again) == 10 - 1


def test_an_output_edited_by_hand_is_checked_before_it_counts_as_done(tasks, tmp_path, capsys):
    output = tmp_path / "j.jsonl"
    with LLMServer(generic="reject") as server:
        assert swords_main(judge_args(server.base_url, tasks, output)) == 0
        lines = output.read_text().splitlines()
        lines[6] = lines[6].replace('"label": "reject"', '"label": "maybe"')
        edited = json.loads(lines[8])
        assert edited["constraint"] == "none"  # the server took no constraint: free text, recorded as such
        lines[8] = json.dumps({**edited, "constraint": "telepathy"})
        output.write_text("\n".join(lines) + "\n")
        capsys.readouterr()
        asked = len(server.requests)
        assert swords_main(judge_args(server.base_url, tasks, output)) == 0
        answers = [r for r in server.requests[asked:] if r["path"].endswith("/chat/completions")]
        assert len(answers) == 2  # only the edited records' candidates asked again
    err = capsys.readouterr().err
    assert f"{output}:7: 'label' is 'maybe'" in err and f"{output}:9: 'constraint' is 'telepathy'" in err
    written = records(output)
    assert [r["label"] for r in written] == ["reject"] * 10 and {r["constraint"] for r in written} == {"none"}


# --- secrets -----------------------------------------------------------------------------------------------------


@pytest.mark.slow  # 4 s on two cores
def test_no_piece_of_a_secret_the_server_echoes_is_shown_or_written(tasks, tmp_path, key, monkeypatch, capsys):
    """A server that echoes the Authorization header and the request line (the URL's query secret) into replies that
    are no label, and the key's first 13 characters, the key upper-cased and a piece of its middle: none of it in the
    failure lines, the cache, the journal or the output."""
    secret = key["SWORDS_FAULT_KEY"]
    query = "QUERYSECRET-7f3a9c1e"
    pieces = {"whole": secret, "first 13": secret[:13], "upper": secret.upper(), "middle": secret[9:21], "query": query}
    output, cache = tmp_path / "out" / "j.jsonl", tmp_path / "cache"
    with LLMServer(mode="echo", generic="no idea") as server:
        echoed = [secret[:13], secret.upper(), f"x {secret[9:21]} y", "accept"]  # one label: an output is written
        for (task, candidate), text in zip(items(tasks)[:4], echoed, strict=True):
            server.canned[user_message(task, candidate.substitute)] = Canned(text)
        url = f"{server.base_url}?api-key={query}"
        args = judge_args(url, tasks, output, "--api-key-env", "SWORDS_FAULT_KEY", cache=str(cache))
        monkeypatch.setenv("SWORDS_FAULT_KEY", secret)
        capsys.readouterr()
        assert swords_main(args) == 0
        assert server.authorization == {f"Bearer {secret}"}  # the secrets were sent, and echoed
    out, err = capsys.readouterr()
    assert "not a label" in err and "***" in err, err
    shown = (out + err).lower()
    files = [path for path in tmp_path.rglob("*") if path.is_file() and path != tasks]
    assert len(list(cache.rglob("*.json"))) == 10  # every reply cached, each one redacted
    for name, piece in pieces.items():
        assert piece.lower() not in shown, name
        for path in files:
            assert piece.lower() not in path.read_text(errors="replace").lower(), (name, path)


# --- a server that does not answer -------------------------------------------------------------------------------


def test_a_server_that_only_answers_429_fails_in_one_line(tasks, tmp_path, capsys):
    output = tmp_path / "j.jsonl"
    with LLMServer(mode="429", retry_after="0") as server:
        line = refusal(capsys, judge_args(server.base_url, tasks, output, "--max-retries", "1"))
        assert len(server.requests) == 20  # each candidate asked, and retried once
    assert "no candidate asked got an answer (10 asked" in line and "HTTP 429" in line and "nothing was written" in line
    assert not output.exists()
    finished = tmp_path / "finished.jsonl"
    with LLMServer(generic="accept") as server:  # a finished output, one record of it then edited: asked again
        assert swords_main(judge_args(server.base_url, tasks, finished)) == 0
    finished.write_text(finished.read_text().replace('"label": "accept"', '"label": "maybe"', 1))
    with LLMServer(mode="429", retry_after="0") as server:
        line = refusal(capsys, judge_args(server.base_url, tasks, finished, "--max-retries", "1"))
    assert "(1 asked;" in line and f"the 9 judgments made so far are kept in {finished} and" in line
    assert len(records(finished)) == 10  # the output as it was: nothing replaced


@pytest.mark.slow  # 4 s on two cores
def test_a_stalled_server_is_a_said_wait_and_a_signal_keeps_the_journal(tasks, tmp_path):
    """Every option at its default (a 60 s timeout): the command says at once what it waits for and how long a request
    may wait, never a silent minute; SIGTERM then stops it in one line, the journal kept."""
    output = tmp_path / "j.jsonl"
    with LLMServer(mode="stall") as server:
        args = ["judge", "llm", "--tasks", str(tasks), "--output", str(output), "--base-url", server.base_url]
        process = subprocess.Popen([*SWORDS, *args, "--model", "m", "--cache-dir", "off"], stderr=subprocess.PIPE)
        try:
            ready, _, _ = select.select([process.stderr], [], [], 30)
            first = process.stderr.readline().decode() if ready else ""
            deadline = time.monotonic() + 30
            while not server.requests and time.monotonic() < deadline:
                time.sleep(0.05)
            os.kill(process.pid, signal.SIGTERM)
            process.wait(30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(10)
        rest = process.stderr.read().decode()
    assert f"127.0.0.1:{server.port}" in first and "10 labels" in first and "up to 60 s" in first, first
    lines = [line for line in rest.strip().splitlines() if not line.startswith("judge: ")]  # the constraint's note
    assert process.returncode != 0 and "Traceback" not in rest and len(lines) == 1, rest
    assert lines[0].startswith("swords: terminated (SIGTERM)") and "kept" in lines[0], lines
    assert Path(f"{output}.partial").exists() and not output.exists()


# --- a full disk ------------------------------------------------------------------------------------------------


@pytest.mark.slow  # 5 to 9 s on two cores
@pytest.mark.parametrize(
    ("targets", "per_target", "where"),
    [(10, 10, "journal"), (2, 8, "output")],
    ids=["the journal fills the disk", "the output does not fit beside the journal"],
)
def test_a_full_disk_says_the_journal_holds_the_judgments(small_disk, tmp_path, dev, targets, per_target, where):
    tasks = dev_tasks_file(tmp_path / "tasks.jsonl", dev, targets=targets, per_target=per_target)
    candidates = len(items(tasks))
    output = small_disk / "j.jsonl"
    journal = Path(f"{output}.partial")
    with LLMServer(generic="abstain") as server:
        done = swords(*judge_args(server.base_url, tasks, output), timeout=120)
        line = error_line(done.stderr)
        assert done.returncode == 2
        kept = journal.read_text().count("\n") - 1  # whole lines after the header (the disk may cut the last)
        assert 0 < kept and (kept < candidates if where == "journal" else kept == candidates)
        assert str(journal) in line and f"{kept:,} judgments made so far" in line, line
        assert "free some space" in line and not output.exists()
        subprocess.run(["mount", "-o", "remount,size=8m", str(small_disk)], check=True)
        asked = len(server.requests)
        again = swords(*judge_args(server.base_url, tasks, output), timeout=120)
        assert again.returncode == 0, again.stderr
        assert len(server.requests) - asked == candidates - kept  # the journal's judgments were not asked again
    assert len(records(output)) == candidates and not journal.exists()


# --- options checked before any request ----------------------------------------------------------------------------


def test_an_agreement_file_that_is_not_there_is_one_line(tasks, tmp_path, capsys):
    missing = tmp_path / "validation.json"
    with LLMServer(generic="accept") as server:
        line = refusal(capsys, judge_args(server.base_url, tasks, tmp_path / "j.jsonl", "--agreement", str(missing)))
        assert not server.requests
    assert f"--agreement {missing}: no such file" in line


def test_a_cache_dir_that_is_a_file_is_refused_before_any_request(tasks, tmp_path, capsys):
    cache = tmp_path / "cache"
    cache.write_text("my file\n")
    with LLMServer(generic="accept") as server:
        line = refusal(capsys, judge_args(server.base_url, tasks, tmp_path / "j.jsonl", cache=str(cache)))
        assert not server.requests
    assert f"--cache-dir {cache} is a file" in line and cache.read_text() == "my file\n"


def test_a_read_only_cache_dir_is_refused_before_any_request(tasks, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o555)
    try:
        with LLMServer(generic="accept") as server:
            done = run_swords_unprivileged(*judge_args(server.base_url, tasks, tmp_path / "j.jsonl", cache=str(cache)))
            assert not server.requests
    finally:
        cache.chmod(0o755)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and f"--cache-dir {cache}" in lines[0], done.stderr
    assert "cannot write" in lines[0] and not (tmp_path / "j.jsonl").exists()


# --- judge validate's own lines ------------------------------------------------------------------------------------


@pytest.mark.slow  # 5 s on two cores: the human ceiling is read before the server fails
def test_validate_speaks_as_itself(tmp_path, capsys):
    line = refusal(capsys, ["judge", "validate", "--base-url", "http://127.0.0.1:9/v1"])
    assert line.startswith("swords: error: judge validate: ") and "--model" in line
    with LLMServer(mode="500") as server:
        args = ["judge", "validate", "--base-url", server.base_url, "--model", "m", "--cache-dir", "off"]
        done = swords(*args, "--sample", "10", "--backoff", "0.01", "--max-retries", "1", timeout=120)
    line = error_line(done.stderr)
    assert done.returncode == 2 and "judge validate: " in line and "judge llm" not in line and "HTTP 500" in line
    notes = done.stderr.splitlines()[:-1]  # what it waits for, said first, and its retries
    assert notes[0].startswith(f"judge validate: asking http://127.0.0.1:{server.port}/v1 for labels"), notes
    assert any(n.startswith("judge validate: 1 retry (last: HTTP 500") for n in notes), notes


def test_validate_help_shows_percent_signs_and_every_default(capsys):
    with pytest.raises(SystemExit):
        swords_main(["judge", "validate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "%%" not in text and "(score > 50%)" in text
    for option, default in (("--sample SAMPLE", 200), ("--max-retries MAX_RETRIES", 6), ("--concurrency", 4)):
        after = text.rsplit(option, 1)[1][:80]  # the option's help, not the usage line
        assert f"(default: {default})" in after, (option, after)


def test_validate_refuses_a_symbolic_link_at_its_output_even_with_force(tmp_path, capsys):
    mine = tmp_path / "mine.json"
    mine.write_text("{}\n")
    link = tmp_path / "validation.json"
    link.symlink_to(mine)
    with LLMServer(generic="accept") as server:
        args = ["judge", "validate", "--base-url", server.base_url, "--model", "m", "--output", str(link)]
        line = refusal(capsys, [*args, "--force", "--sample", "10", "--cache-dir", "off"])
        assert not server.requests
    assert str(link) in line and "symbolic link" in line and link.is_symlink() and mine.read_text() == "{}\n"
