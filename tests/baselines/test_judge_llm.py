"""`swords judge llm` against a real OpenAI-compatible server on 127.0.0.1 (tests/llm_server.py, in a thread): one
request a candidate, constrained as the server can be, a reply read as a label only when it names one, the
probability of accept where log-probabilities come back, the judgments file in the contract's format, resuming
after kill -9 without asking twice, the files it will not replace, and a local model known by its content (the
embedded engine's runs are test_judge_engine.py's)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from swords_lexsub.cli import main as swords_main

from ..llm_server import Canned, LLMServer
from .judge_helpers import dev_tasks_file, items, records, user_message
from .run_helpers import SWORDS, swords

CONTRACT = {"task", "id", "substitute", "judge", "label", "control", "time"}


@pytest.fixture
def tasks(tmp_path, dev) -> Path:
    return dev_tasks_file(tmp_path / "tasks.jsonl", dev)  # 2 targets, 3 candidates and 2 controls each


def judge_args(server: LLMServer, tasks: Path, output: Path, *extra: str, cache: str = "off") -> list[str]:
    return [
        "judge", "llm", "--tasks", str(tasks), "--output", str(output), "--base-url", server.base_url,
        "--model", "judge-model", "--cache-dir", cache, "--backoff", "0.01", "--timeout", "5", *extra,
    ]  # fmt: skip


def test_one_record_per_candidate_with_the_server_s_labels(tasks, tmp_path, capsys):
    answers = ["accept", " Reject\n", "ABSTAIN"]  # trimmed and lower-cased: each is a label
    with LLMServer() as server:
        expected = {}
        for n, (task, candidate) in enumerate(items(tasks)):
            server.canned[user_message(task, candidate.substitute)] = Canned(answers[n % 3])
            expected[(task.task, candidate.substitute)] = answers[n % 3].strip().lower()
        assert swords_main(judge_args(server, tasks, tmp_path / "j.jsonl")) == 0
        assert len(server.requests) == len(expected) == 10  # one request a candidate, controls included
        assert all(r["path"].endswith("/chat/completions") for r in server.requests)
    written = records(tmp_path / "j.jsonl")
    assert {(r["task"], r["substitute"]): r["label"] for r in written} == expected
    for record in written:
        assert CONTRACT <= set(record) and re.fullmatch(r"llm:judge-model:[0-9a-f]{8}", record["judge"])
        assert record["control"] == (record.get("control_kind") in ("target", "random"))
        assert record["dataset"] == "swords" and record["split"] == "dev"
    assert sum(r["control"] for r in written) == 4  # two controls a task
    out = capsys.readouterr().out
    assert "judgments: 10" in out and "failed items: 0" in out


def test_a_reply_naming_one_label_is_that_label_one_naming_none_or_several_a_failed_item(tasks, tmp_path, capsys):
    # SmolLM2 and real chat models answer "Accept." or "**Reject**" as often as a bare label
    named = {"Accept.": "accept", "**Reject**": "reject", "Label: accept": "accept", "ＡＢＳＴＡＩＮ": "abstain"}
    unnamed = ["accepted", "accept or reject", "I would take it", ""]  # none, or several: never guessed
    with LLMServer(generic="reject") as server:
        chosen = items(tasks)[: len(named) + len(unnamed)]
        for (task, candidate), reply in zip(chosen, [*named, *unnamed], strict=True):
            server.canned[user_message(task, candidate.substitute)] = Canned(reply)
        assert swords_main(judge_args(server, tasks, tmp_path / "j.jsonl")) == 0
    labels = {(r["task"], r["substitute"]): r["label"] for r in records(tmp_path / "j.jsonl")}
    for (task, candidate), reply in zip(chosen, [*named, *unnamed], strict=True):
        assert labels.get((task.task, candidate.substitute)) == named.get(reply), reply
    assert len(labels) == 6
    out = capsys.readouterr().out
    assert "failed items: 4 (4 not a label, 0 no answer)" in out


def logprobs(first: dict[str, float]) -> dict:
    """A chat choice's log-probabilities whose first position offers these tokens (the first one chosen)."""
    top = [{"token": token, "logprob": logprob} for token, logprob in first.items()]
    return {"content": [{**top[0], "top_logprobs": top}, {"token": "", "logprob": 0.0, "top_logprobs": []}]}


def test_a_vllm_server_is_asked_for_a_guided_choice_and_its_probability_of_accept_kept(tasks, tmp_path):
    import math

    first = {"re": -0.3, " Accept": -1.5, "a": -2.0, "abs": -2.5, "Reject": -4.0}  # "a" begins two labels: left out
    with LLMServer(models_owned_by="vllm") as server:
        for task, candidate in items(tasks):
            server.canned[user_message(task, candidate.substitute)] = Canned("reject", logprobs=logprobs(first))
        assert swords_main(judge_args(server, tasks, tmp_path / "j.jsonl")) == 0
        assert len(server.gets) == 1  # asked once what it is
        bodies = [r["body"] for r in server.requests]
    assert len(bodies) == 10
    for body in bodies:
        assert body["guided_choice"] == ["accept", "reject", "abstain"]
        assert body["structured_outputs"] == {"choice": ["accept", "reject", "abstain"]}
        assert body["logprobs"] is True and body["top_logprobs"] == 20
    accept, reject, abstain = math.exp(-1.5), math.exp(-0.3) + math.exp(-4.0), math.exp(-2.5)
    for record in records(tmp_path / "j.jsonl"):
        assert record["label"] == "reject" and record["constraint"] == "guided_choice"
        assert record["p_accept"] == pytest.approx(accept / (accept + reject + abstain), abs=1e-6)


@pytest.mark.parametrize(
    ("owner", "kind", "field"),
    [("llamacpp", "grammar", "grammar"), ("openai", "json_schema", "response_format"), (None, "none", None)],
)
def test_each_server_is_constrained_as_it_can_be_and_the_records_say_how(tasks, tmp_path, owner, kind, field):
    reply = '{"label": "abstain"}' if kind == "json_schema" else "abstain"
    with LLMServer(generic=reply, models_owned_by=owner) as server:
        assert swords_main(judge_args(server, tasks, tmp_path / "j.jsonl")) == 0
        bodies = [r["body"] for r in server.requests]
    assert len(bodies) == 10
    if field is None:  # a server that does not say what it is: free text, no log-probabilities asked
        assert all(not {"grammar", "guided_choice", "response_format", "logprobs"} & set(b) for b in bodies)
    else:
        assert all(field in body and body["logprobs"] is True for body in bodies)
    if kind == "grammar":
        assert bodies[0]["grammar"] == 'root ::= "accept" | "reject" | "abstain"'
    if kind == "json_schema":
        schema = bodies[0]["response_format"]["json_schema"]["schema"]
        assert schema["properties"]["label"]["enum"] == ["accept", "reject", "abstain"]
    written = records(tmp_path / "j.jsonl")
    assert len(written) == 10 and all(r["label"] == "abstain" and r["constraint"] == kind for r in written)
    assert all("p_accept" not in r for r in written)  # no log-probabilities came back: none is made up


@pytest.mark.slow  # 8 s on two cores
def test_kill_9_mid_run_then_the_rerun_asks_only_for_what_no_run_received(tasks, tmp_path):
    output, cache = tmp_path / "j.jsonl", tmp_path / "cache"
    with LLMServer(generic="accept", latency=0.4) as server:
        args = [*SWORDS, *judge_args(server, tasks, output, "--concurrency", "1", cache=str(cache))]
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while len(server.requests) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        journal = Path(f"{output}.partial")
        assert journal.exists() and not output.exists()
        answered = {path: path.stat().st_ino for path in cache.rglob("*.json")}  # what the first run received
        assert 3 <= len(answered) < 10
        first = len(server.requests)
        done = swords(*judge_args(server, tasks, output, cache=str(cache)))
        assert done.returncode == 0, done.stderr
        assert len(server.requests) - first == 10 - len(answered)  # each candidate received once in all
    assert {path: path.stat().st_ino for path in answered} == answered  # no received answer asked (and cached) again
    assert len(records(output)) == 10 and not journal.exists()


def refusal(capsys, args: list[str]) -> str:
    """The one line a refused command prints (in this process: exit status 2, no traceback)."""
    capsys.readouterr()
    assert swords_main(args) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in lines[0], lines
    return lines[0]


def test_a_file_the_toolkit_did_not_write_is_never_replaced(tasks, tmp_path, capsys):
    output = tmp_path / "mine.jsonl"
    output.write_text('{"my": "own notes"}\n')
    with LLMServer(generic="accept") as server:
        line = refusal(capsys, judge_args(server, tasks, output))
        assert str(output) in line and "--force" in line and not server.requests
        assert output.read_text() == '{"my": "own notes"}\n'
        assert swords_main(judge_args(server, tasks, output, "--force")) == 0
    assert len(records(output)) == 10


def test_an_existing_output_of_the_same_run_is_not_asked_again(tasks, tmp_path):
    output = tmp_path / "j.jsonl"
    with LLMServer(generic="abstain") as server:
        assert swords_main(judge_args(server, tasks, output)) == 0
        assert swords_main(judge_args(server, tasks, output)) == 0
        assert len(server.requests) == 10
    assert len(records(output)) == 10


def test_agreement_is_copied_into_every_record(tasks, tmp_path, capsys):
    with LLMServer(generic="accept") as server:
        assert swords_main(judge_args(server, tasks, tmp_path / "first.jsonl")) == 0
        judge = records(tmp_path / "first.jsonl")[0]["judge"]
        validation = tmp_path / "validation.json"
        figures = {"candidates": 200, "kappa_acceptable": 0.25, "kappa_conceivable": 0.1, "spearman": 0.3}
        validation.write_text(json.dumps({judge: {"written_by": "swords judge validate", **figures}}))
        output = tmp_path / "with-agreement.jsonl"
        assert swords_main(judge_args(server, tasks, output, "--agreement", str(validation))) == 0
        assert all(r["agreement"] == figures for r in records(output))
        asked = len(server.requests)  # a finished output given its agreement afterwards: nothing asked again
        assert swords_main(judge_args(server, tasks, tmp_path / "first.jsonl", "--agreement", str(validation))) == 0
        assert len(server.requests) == asked and all(
            r["agreement"] == figures for r in records(tmp_path / "first.jsonl")
        )
        other = tmp_path / "other.json"
        other.write_text(json.dumps({"llm:another:00000000": {"written_by": "swords judge validate"}}))
        line = refusal(capsys, judge_args(server, tasks, tmp_path / "x.jsonl", "--agreement", str(other)))
        assert str(other) in line and judge in line


def test_a_server_that_is_not_there_is_one_line(tasks, tmp_path, capsys):
    from ..conftest import free_port

    base_url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens
    args = ["judge", "llm", "--tasks", str(tasks), "--output", str(tmp_path / "j.jsonl"), "--base-url", base_url]
    args += ["--model", "m", "--cache-dir", "off", "--max-retries", "0", "--timeout", "2"]
    capsys.readouterr()
    status = swords_main(args)
    out, err = capsys.readouterr()
    if status == 0:  # every candidate failed alone: each counted, none guessed
        assert "failed items: 10 (0 not a label, 10 no answer)" in out
    else:
        assert status == 2 and "127.0.0.1" in err and "Traceback" not in err


@pytest.mark.slow  # 4 s on two cores
def test_another_judge_s_output_and_a_busy_output_are_refused(tasks, tmp_path, capsys):
    output = tmp_path / "j.jsonl"
    with LLMServer(generic="reject") as server:
        assert swords_main(judge_args(server, tasks, output)) == 0
        args = judge_args(server, tasks, output)
        args[args.index("judge-model")] = "another-model"
        line = refusal(capsys, args)
        assert str(output) in line and "another judge" in line
    with LLMServer(mode="stall") as server:  # the first run waits for its answers, holding the output's lock
        busy = tmp_path / "busy.jsonl"
        first = subprocess.Popen([*SWORDS, *judge_args(server, tasks, busy)], stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while not server.requests and time.monotonic() < deadline:
                time.sleep(0.05)
            line = refusal(capsys, judge_args(server, tasks, busy))
            assert f"process {first.pid}" in line and "swords judge llm" in line
        finally:
            first.kill()
            first.wait(10)


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--local", "--base-url", "http://127.0.0.1:9/v1"], "--base-url"),
        (["--base-url", "http://127.0.0.1:9/v1"], "--model"),
    ],
)
def test_settings_that_cannot_work_are_one_line(tasks, tmp_path, capsys, extra, named):
    line = refusal(capsys, ["judge", "llm", "--tasks", str(tasks), "--output", str(tmp_path / "j.jsonl"), *extra])
    assert named in line and not (tmp_path / "j.jsonl").exists()


@pytest.fixture
def look_alike(tmp_path) -> tuple:
    """The shipped model's file, and another GGUF file of its name and size (one byte of its last tensor changed)."""
    from swords_baselines.llm.engine import model_path, unavailable_reason

    if unavailable_reason():
        pytest.skip(f"the local engine cannot run here: {unavailable_reason()}")
    shipped = model_path()
    other = tmp_path / "custom" / shipped.name.lower().replace("-instruct.q4_1", "")  # smollm2-135m.gguf
    other.parent.mkdir()
    data = bytearray(shipped.read_bytes())
    data[-1] ^= 0xFF
    other.write_bytes(data)
    return shipped, other


def test_a_look_alike_model_file_is_another_judge_with_another_cache(look_alike, tmp_path, monkeypatch):
    from swords_baselines.judge.llm import JudgeSettings, LLMJudge

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    shipped, other = look_alike
    assert other.name == "smollm2-135m.gguf" and other.stat().st_size == shipped.stat().st_size
    by_name = LLMJudge(JudgeSettings(local=True))
    copy = tmp_path / "copy.gguf"
    copy.write_bytes(shipped.read_bytes())
    same_bytes = LLMJudge(JudgeSettings(local=True, model=str(copy)))
    look = LLMJudge(JudgeSettings(local=True, model=str(other)))
    digest = hashlib.sha256(shipped.read_bytes()).hexdigest()
    assert by_name.judge == same_bytes.judge and by_name.judge.startswith(f"llm:smollm2-135m@{digest[:12]}:")
    assert look.judge != by_name.judge and hashlib.sha256(other.read_bytes()).hexdigest()[:12] in look.judge
    assert look.server != by_name.server  # the answers' cache is keyed by the content too


def test_a_look_alike_model_file_does_not_take_the_shipped_model_s_agreement(look_alike, tasks, tmp_path, capsys):
    from swords_baselines.judge.llm import JudgeSettings, LLMJudge

    shipped_judge = LLMJudge(JudgeSettings(local=True)).judge
    validation = tmp_path / "validation.json"
    figures = {"candidates": 200, "kappa_acceptable": 0.25, "spearman": 0.3}
    validation.write_text(json.dumps({shipped_judge: {"written_by": "swords judge validate", **figures}}))
    args = ["judge", "llm", "--tasks", str(tasks), "--output", str(tmp_path / "j.jsonl"), "--local"]
    line = refusal(capsys, [*args, "--model", str(look_alike[1]), "--agreement", str(validation)])
    assert "no figures for the judge llm:smollm2-135m@" in line and shipped_judge not in line.split("(it has")[0]
    assert not (tmp_path / "j.jsonl").exists()
