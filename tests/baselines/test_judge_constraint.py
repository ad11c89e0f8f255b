"""How `swords judge llm` and `validate` hold the answer to a label, against a real server on 127.0.0.1 that does not
behave as its GET /models says (tests/llm_server.py): one that says it is llama.cpp, vLLM or OpenAI's API and answers
HTTP 400 to the grammar, the guided choice or the JSON schema (an older llama.cpp, a gateway such as LiteLLM), one
that names another owner, one whose GET /models never answers while Ctrl-C or SIGTERM comes; and `--constraint none`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from swords_lexsub.cli import main as swords_main

from ..llm_server import LLMServer
from .judge_helpers import dev_tasks_file, records
from .run_helpers import SWORDS

CONSTRAINT_FIELDS = {"grammar", "guided_choice", "structured_outputs", "response_format", "logprobs"}


@pytest.fixture
def tasks(tmp_path, dev) -> Path:
    return dev_tasks_file(tmp_path / "tasks.jsonl", dev)  # 2 targets, 3 candidates and 2 controls each


def judge_args(server: LLMServer, tasks: Path, output: Path, *extra: str) -> list[str]:
    return [
        "judge", "llm", "--tasks", str(tasks), "--output", str(output), "--base-url", server.base_url,
        "--model", "judge-model", "--cache-dir", "off", "--backoff", "0.01", "--timeout", "5", *extra,
    ]  # fmt: skip


def notes(err: str) -> list[str]:
    """The command's lines on stderr besides what it waits for and what it wrote."""
    return [line for line in err.splitlines() if not line.startswith(("judge llm: asking", "wrote "))]


@pytest.mark.parametrize(
    ("owner", "field", "said"),
    [
        ("llamacpp", "grammar", "(llama.cpp by its GET /models) refused a GBNF grammar"),
        ("vllm", "guided_choice", "(vLLM by its GET /models) refused a guided choice"),
        ("openai", "response_format", "(OpenAI's API by its GET /models) refused a JSON schema"),
    ],
)
def test_a_server_that_refuses_the_constraint_is_said_once_and_answers_free_text(
    tasks, tmp_path, capsys, owner, field, said
):
    """Issue 47: every item failed ("no answer: HTTP 400"), and no option turned the constraint off."""
    output = tmp_path / "j.jsonl"
    with LLMServer(generic="accept", models_owned_by=owner, refused_fields=(field,)) as server:
        capsys.readouterr()
        assert swords_main(judge_args(server, tasks, output)) == 0
        bodies = [r["body"] for r in server.requests]
    out, err = capsys.readouterr()
    # One request sent the constraint, and was refused; the same request again without it, then the nine others.
    assert [field in body for body in bodies] == [True] + [False] * 10
    assert all(not CONSTRAINT_FIELDS & set(body) for body in bodies[1:])
    lines = notes(err)
    assert len(lines) == 1 and f"judge: the server at {server.base_url} {said}" in lines[0], err
    assert "HTTP 400" in lines[0] and f"supplied: {field}" in lines[0]
    assert 'recorded as "constraint": "none"' in lines[0] and "--constraint none" in lines[0]
    assert "judgments: 10" in out and "failed items: 0" in out
    written = records(output)
    assert len(written) == 10 and all(r["label"] == "accept" and r["constraint"] == "none" for r in written)
    assert all("p_accept" not in r for r in written)


def test_a_request_refused_with_or_without_the_constraint_is_a_failed_item_not_a_refused_constraint(
    tasks, tmp_path, capsys
):
    """A 400 the unconstrained request gets too (here: the model field) is the request's, not the constraint's."""
    with LLMServer(generic="accept", models_owned_by="llamacpp", refused_fields=("grammar", "model")) as server:
        capsys.readouterr()
        swords_main(judge_args(server, tasks, tmp_path / "j.jsonl", "--concurrency", "1"))
        constrained = sum("grammar" in r["body"] for r in server.requests)
    err = capsys.readouterr().err
    assert "refused a GBNF grammar" not in err and "no answer: HTTP 400" in err
    assert constrained == 10  # each item asked under the grammar, then without it, and refused both ways


def test_constraint_none_asks_nothing_of_the_server_and_sends_free_text(tasks, tmp_path, capsys):
    output = tmp_path / "j.jsonl"
    with LLMServer(generic="reject", models_owned_by="llamacpp") as server:
        capsys.readouterr()
        assert swords_main(judge_args(server, tasks, output, "--constraint", "none")) == 0
        assert server.gets == []  # not asked what it is
        assert all(not CONSTRAINT_FIELDS & set(r["body"]) for r in server.requests) and len(server.requests) == 10
    assert notes(capsys.readouterr().err) == []
    assert {r["constraint"] for r in records(output)} == {"none"}


def test_a_server_naming_another_owner_is_said_as_judge_md_says(tasks, tmp_path, capsys):
    """Issue 47: `/models` naming another owner gave free text with no line on stderr."""
    with LLMServer(generic="accept", models_owned_by="ollama\x1b[31m") as server:
        capsys.readouterr()
        assert swords_main(judge_args(server, tasks, tmp_path / "j.jsonl")) == 0
    lines = notes(capsys.readouterr().err)
    assert lines == [
        "judge: the server's GET /models names models owned by 'ollama\\x1b[31m', not llama.cpp, vLLM or OpenAI; "
        "its answers are free text"
    ], lines


@pytest.mark.slow  # 11 s on two cores: the human ceiling is read before the server is asked
def test_validate_takes_constraint_none_and_records_the_constraint_used(tmp_path, capsys):
    """The validation measures the judge as `judge llm` runs it: the same option, and the entry says what was used."""
    output = tmp_path / "v.json"
    with LLMServer(generic="accept", models_owned_by="vllm", refused_fields=("guided_choice",)) as server:
        args = ["judge", "validate", "--base-url", server.base_url, "--model", "m", "--cache-dir", "off"]
        capsys.readouterr()
        assert swords_main([*args, "--sample", "10", "--constraint", "none"]) == 0
        assert server.gets == [] and all(not CONSTRAINT_FIELDS & set(r["body"]) for r in server.requests)
        assert swords_main([*args, "--sample", "50", "--output", str(output)]) == 0  # refused, then free text
        assert len(server.gets) == 1
    assert "refused a guided choice" in capsys.readouterr().err
    (entry,) = json.loads(output.read_text()).values()
    assert entry["constraint"] == "none"


@pytest.mark.slow  # 2 to 3 s each on two cores
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
@pytest.mark.parametrize("after", [0.3, None], ids=["while the client is imported", "while GET /models waits"])
def test_a_signal_during_the_constraint_probe_is_one_line(tasks, tmp_path, stop, after):
    """Issue 47: "Task exception was never retrieved" and a 40-line traceback after the one line. The signal comes
    while the probe waits on a server whose GET /models never answers: `after` seconds after the command's first line,
    as the client is imported (the interrupt lands inside the probe's own step: seen 0.05 to 0.5 s after it), or once
    the server has the request."""
    output = tmp_path / "j.jsonl"
    with LLMServer(generic="accept", models_owned_by="stall") as server:
        args = ["judge", "llm", "--tasks", str(tasks), "--output", str(output), "--base-url", server.base_url]
        process = subprocess.Popen([*SWORDS, *args, "--model", "m", "--cache-dir", "off"], stderr=subprocess.PIPE)
        try:
            first = process.stderr.readline().decode()
            if after is None:
                deadline = time.monotonic() + 30
                while not server.gets and time.monotonic() < deadline:
                    time.sleep(0.05)
                assert server.gets
            else:
                time.sleep(after)
            os.kill(process.pid, stop)
            _, rest = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(10)
        assert not server.requests  # no label was asked: the probe had not returned
    rest = rest.decode()
    assert first.startswith("judge llm: asking"), first
    assert "Traceback" not in rest and "never retrieved" not in rest and "destroyed" not in rest, rest
    lines = rest.strip().splitlines()
    expected = "swords: interrupted" if stop == signal.SIGINT else "swords: terminated (SIGTERM)"
    assert len(lines) == 1 and lines[0].startswith(expected) and "run the same command again to resume" in lines[0]
    # 130 (or the signal's own status: CPython exits by the signal when a KeyboardInterrupt passed through code it
    # ran with PyRun_String, even once caught); 143 for SIGTERM
    assert process.returncode in ((130, -signal.SIGINT) if stop == signal.SIGINT else (143,)), process.returncode
    assert not output.exists()
