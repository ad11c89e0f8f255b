"""`swords judge llm --batch-export / --batch-import` (baselines/judge/batch.py): the export sends nothing and
writes the very requests the judge sends online (vLLM's guided choice, OpenAI's JSON schema); a stand-in for the
Batch API answers them by their content as the test server on 127.0.0.1 does online; the import gives the same
labels and probabilities of accept; a partial output leaves the rest to a second import; a kill -9 during an import
loses no label."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from swords_lexsub.cli import main as swords_main

from ..llm_server import Canned, LLMServer
from .judge_helpers import dev_tasks_file, items, records, user_message
from .run_helpers import killed_once_journalled
from .test_judge_llm import logprobs

LABELS = ("accept", "reject", "abstain")
FIRST = {"re": -0.3, " Accept": -1.5, "abs": -2.5}


@pytest.fixture
def tasks(tmp_path, dev) -> Path:
    return dev_tasks_file(tmp_path / "tasks.jsonl", dev)  # 2 targets, 3 candidates and 2 controls each


def answering(server: LLMServer, tasks: Path) -> LLMServer:
    """Each candidate answered by its own message: a label chosen by its place, log-probabilities with it."""
    for number, (task, candidate) in enumerate(items(tasks)):
        server.canned[user_message(task, candidate.substitute)] = Canned(LABELS[number % 3], logprobs=logprobs(FIRST))
    return server


def args(tasks: Path, output: Path, base_url: str | None, *extra: str) -> list[str]:
    url = ["--base-url", base_url] if base_url else []
    return [
        "judge", "llm", "--tasks", str(tasks), "--output", str(output), *url, "--model", "judge-model",
        "--cache-dir", "off", "--backoff", "0.01", "--timeout", "5", "--api-key-env", "SWORDS_NO_KEY", *extra,
    ]  # fmt: skip


def stand_in(server: LLMServer, requests: Path, answers: Path, drop: int = 0) -> None:
    """The Batch API played by the test server's rule, called in-process on each exported request; the first
    `drop` lines lost."""
    lines = []
    for line in requests.read_text(encoding="utf-8").splitlines():
        request = json.loads(line)
        code, _, payload = server.respond(request["url"], request["body"], "")
        response = {"status_code": code, "request_id": "r", "body": json.loads(payload)}
        lines.append(json.dumps({"id": "b", "custom_id": request["custom_id"], "response": response, "error": None}))
    answers.write_text("".join(line + "\n" for line in reversed(lines[drop:])), encoding="utf-8")


def user_message_of(request_line: str) -> str:
    """An exported request's last user message (what `answering` keys its answers by)."""
    return json.loads(request_line)["body"]["messages"][-1]["content"]


def without_time(path: Path) -> list[dict]:
    return [{k: v for k, v in record.items() if k != "time"} for record in records(path)]


@pytest.mark.slow  # 6 s on two cores (the online judging, an export, two imports)
def test_a_judging_through_a_batch_gives_the_online_labels_and_probabilities(tasks, tmp_path, monkeypatch):
    monkeypatch.setenv("SWORDS_NO_KEY", "sk-judge")
    requests, answers = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl"
    with answering(LLMServer(models_owned_by="vllm"), tasks) as server:
        assert swords_main(args(tasks, tmp_path / "online.jsonl", server.base_url)) == 0
        online = [r["body"] for r in server.requests]
        sent = len(server.requests)
        assert swords_main(args(tasks, tmp_path / "batch.jsonl", server.base_url, "--batch-export", str(requests))) == 0
        assert len(server.requests) == sent and len(server.gets) == 1  # the export asked nothing, not even /models
        exported = [json.loads(line) for line in requests.read_text().splitlines()]
        assert all(line["url"] == "/v1/chat/completions" and line["method"] == "POST" for line in exported)
        # vLLM's guided choice in the body itself: exactly the requests sent online
        key = lambda body: json.dumps(body, sort_keys=True)  # noqa: E731
        assert sorted(map(key, (line["body"] for line in exported))) == sorted(map(key, online))
        assert exported[0]["body"]["guided_choice"] == list(LABELS)

        stand_in(server, requests, answers, drop=3)
        assert swords_main(args(tasks, tmp_path / "batch.jsonl", server.base_url, "--batch-import", str(answers))) == 0
        assert len(records(tmp_path / "batch.jsonl")) == 7  # three not in the file: left to do
        stand_in(server, requests, answers)
        assert swords_main(args(tasks, tmp_path / "batch.jsonl", server.base_url, "--batch-import", str(answers))) == 0
        assert len(server.requests) == sent  # nothing sent by any of them
    assert without_time(tmp_path / "batch.jsonl") == without_time(tmp_path / "online.jsonl")
    assert all(0 < record["p_accept"] < 1 for record in records(tmp_path / "batch.jsonl"))


def test_openai_s_batch_gets_a_json_schema_and_no_key_is_needed(tasks, tmp_path, capsys):
    requests = tmp_path / "requests.jsonl"
    assert swords_main(args(tasks, tmp_path / "j.jsonl", None, "--batch-export", str(requests))) == 0
    body = json.loads(requests.read_text().splitlines()[0])["body"]
    assert body["response_format"]["json_schema"]["schema"]["properties"]["label"]["enum"] == list(LABELS)
    assert body["logprobs"] is True and "extra_body" not in body and body["model"] == "judge-model"
    assert "wrote" in capsys.readouterr().err and not (tmp_path / "j.jsonl").exists()


def test_a_partial_import_names_what_it_lacks(tasks, tmp_path, capsys):
    requests, answers = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl"
    with answering(LLMServer(), tasks) as server:
        assert swords_main(args(tasks, tmp_path / "j.jsonl", server.base_url, "--batch-export", str(requests))) == 0
        stand_in(server, requests, answers, drop=2)
        lines = answers.read_text().splitlines()
        failed = json.loads(lines[0])
        failed["response"] = {"status_code": 500, "body": {"error": {"message": "The server had an error"}}}
        answers.write_text("\n".join([json.dumps(failed), "{cut", *lines[1:]]) + "\n")
        capsys.readouterr()
        assert swords_main(args(tasks, tmp_path / "j.jsonl", server.base_url, "--batch-import", str(answers))) == 0
    err = capsys.readouterr().err
    assert f"{answers}: 7 of 10 candidates answered, 3 left unanswered (line 1 (" in err
    assert "HTTP 500: The server had an error" in err and "line 2: not JSON" in err and "2 not in the file" in err
    assert len(records(tmp_path / "j.jsonl")) == 7


def test_an_output_for_another_judge_is_refused_and_nothing_is_judged(tasks, tmp_path, capsys):
    requests, answers = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl"
    with answering(LLMServer(), tasks) as server:
        exported = args(tasks, tmp_path / "j.jsonl", server.base_url, "--batch-export", str(requests))
        assert swords_main([*exported, "--model", "other-model"]) == 0
        stand_in(server, requests, answers)
        capsys.readouterr()
        assert swords_main(args(tasks, tmp_path / "j.jsonl", server.base_url, "--batch-import", str(answers))) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"swords: error: {answers}:1: custom_id ") and len(err.splitlines()) == 1
    assert err.endswith("is not a request of this run (an output of another export: other settings or other targets); "
                        "nothing was imported")  # fmt: skip
    assert not (tmp_path / "j.jsonl").exists() and not (tmp_path / "j.jsonl.partial").exists()


def test_kill_9_during_an_import_keeps_every_journalled_label(tmp_path, dev):
    """kill -9 while `--batch-import` journals its labels (SWORDS dev, 4,400 candidates: 2.5 s): a rerun given only
    the answers the journal lacks writes the output an import never killed writes."""
    tasks = dev_tasks_file(tmp_path / "tasks.jsonl", dev, targets=400, per_target=10)
    requests, answers = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl"
    output, reference = tmp_path / "killed.jsonl", tmp_path / "reference.jsonl"
    journal = Path(f"{output}.partial")
    with answering(LLMServer(models_owned_by="vllm"), tasks) as server:
        assert swords_main(args(tasks, reference, server.base_url, "--batch-export", str(requests))) == 0
        stand_in(server, requests, answers)
        candidates = len(requests.read_text().splitlines())
        assert swords_main(args(tasks, reference, server.base_url, "--batch-import", str(answers))) == 0
        held = killed_once_journalled(
            args(tasks, output, server.base_url, "--batch-import", str(answers)), journal, seconds=120
        )
        assert 3 <= len(held) < 1 + candidates and not output.exists()  # killed mid-import, the journal kept
        asked = {
            (task.task, candidate.substitute): user_message(task, candidate.substitute)
            for task, candidate in items(tasks)
        }
        journalled = set()
        for line in held[1:]:
            try:
                record = json.loads(line)
            except ValueError:  # the last line, cut by the kill
                continue
            journalled.add(asked[(record["task"], record["substitute"])])
        rest = [line for line in requests.read_text().splitlines() if user_message_of(line) not in journalled]
        assert journalled and len(rest) == candidates - len(journalled)
        requests.write_text("".join(line + "\n" for line in rest))
        stand_in(server, requests, answers)  # the answers the journal lacks, and no others
        assert swords_main(args(tasks, output, server.base_url, "--batch-import", str(answers))) == 0
    assert not journal.exists()
    assert without_time(output) == without_time(reference)
