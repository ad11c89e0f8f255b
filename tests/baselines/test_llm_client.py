"""The few-shot LLM baseline through the real `openai` client, against a local OpenAI-compatible server that
answers with the paper's real GPT-3 completions and injects faults; and `swords run` end to end. Nothing here
reaches beyond 127.0.0.1."""

from __future__ import annotations

import gzip
import json
import re
import secrets
import time
from pathlib import Path

import pytest

import swords_dataset
from swords_baselines.llm import LLM, GPT3Recorded, load_recorded
from swords_baselines.llm.cache import ResponseCache
from swords_baselines.llm.parse import parse_completion, to_prediction
from swords_baselines.llm.prompt import question
from swords_baselines.llm.retry import Backoff, retry_after_seconds
from swords_baselines.run.files import output_paths
from swords_lexsub.cli import main as swords_main
from swords_lexsub.errors import SwordsError

from ..llm_server import Canned, Fault, LLMServer

GPT3_DAVINCI_SWORDS_V08_DEV = load_recorded()  # the bundled completions


@pytest.fixture
def key(monkeypatch) -> str:
    """A fresh fake API key in its own environment variable; tests check it never reaches the disk."""
    value = "sk-test-" + secrets.token_hex(16)
    monkeypatch.setenv("SWORDS_TEST_LLM_KEY", value)
    return value


@pytest.fixture
def server(dev):
    """The local server, answering each recorded SWORDS dev target with GPT-3's real completion."""
    with LLMServer() as running:
        by_id = {row["id"]: row for row in dev}
        for target_id, output in GPT3_DAVINCI_SWORDS_V08_DEV.items():
            if target_id in by_id:
                running.canned[question(by_id[target_id])] = Canned(output["text"], output["finish_reason"])
        yield running


def recorded_rows(dev) -> list[dict]:
    return [row for row in dev if row["id"] in GPT3_DAVINCI_SWORDS_V08_DEV]


def make_llm(server: LLMServer, tmp_path: Path, **options) -> LLM:
    settings = {
        "model": "davinci",
        "base_url": server.base_url,
        "api_key_env": "SWORDS_TEST_LLM_KEY",
        "cache_dir": str(tmp_path / "cache"),
        "backoff": 0.01,
        "timeout": 5.0,
    }
    return LLM(**{**settings, **options})


def run_system(system: LLM, rows: list[dict]) -> dict:
    with system:
        return dict(system.predict(rows))


# --------------------------------------------------------------------------------------------------
# The real openai client against the local server


def test_answers_come_from_the_api_and_the_key_is_sent(server, tmp_path, key, dev):
    rows = recorded_rows(dev)[:8]
    predictions = run_system(make_llm(server, tmp_path), rows)
    assert set(predictions) == {row["id"] for row in rows}
    for row in rows:
        output = GPT3_DAVINCI_SWORDS_V08_DEV[row["id"]]
        expected = parse_completion(output["text"], row["target"], output["finish_reason"])
        assert predictions[row["id"]] == to_prediction(expected)
    assert server.authorization == {f"Bearer {key}"}
    body = server.requests[0]["body"]
    assert body["model"] == "davinci" and body["prompt"].endswith("\nA:")
    assert (body["temperature"], body["presence_penalty"], body["frequency_penalty"]) == (0.0, 0.5, 0.0)
    # The completions mode's defaults are the paper's: upstream's three stops and its logit bias (GPT-3's ids).
    assert (body["max_tokens"], body["stop"]) == (128, ["\n", "\r", "\n\n"])
    assert body["logit_bias"] == {"198": -100, "201": -100, "628": -100, "50256": -100}


def test_retries_on_server_errors_timeouts_and_malformed_bodies(server, tmp_path, key, dev):
    row = recorded_rows(dev)[0]
    server.inject(
        Fault("500"),
        Fault("sleep", seconds=1.5),  # beyond the client's timeout
        Fault("html"),
        Fault("nochoices"),
    )  # an empty completion is the model's answer, not retried (test_llm_empty_completion.py)
    system = make_llm(server, tmp_path, timeout=0.5, max_retries=6)
    predictions = run_system(system, [row])
    output = GPT3_DAVINCI_SWORDS_V08_DEV[row["id"]]
    assert predictions[row["id"]] == to_prediction(parse_completion(output["text"], row["target"], "length"))
    assert system.client.usage.retries == 4 and system.client.usage.requests == 5
    assert [r.get("status") for r in server.requests][-1] == 200


def test_retry_after_is_honoured(server, tmp_path, key, dev):
    row = recorded_rows(dev)[0]
    server.inject(Fault("429", seconds=1))
    system = make_llm(server, tmp_path, backoff=0.01)  # were Retry-After ignored, the wait would be ~0.01 s
    run_system(system, [row])
    first, second = server.requests[0], server.requests[1]
    assert first["status"] == 429 and second["status"] == 200
    assert 1.0 <= second["time"] - first["time"] < 1.5
    assert system.client.usage.waits == [1.0]


def test_backoff_grows_with_jitter():
    backoff = Backoff(1.0)
    waits = [backoff.wait(attempt) for attempt in range(5) for _ in range(20)]
    for attempt in range(5):
        batch = waits[attempt * 20 : (attempt + 1) * 20]
        assert all(2**attempt / 2 <= w <= 2**attempt for w in batch) and len(set(batch)) > 1
    assert backoff.wait(30) <= 60 and backoff.wait(3, retry_after=2.5) == 2.5
    assert retry_after_seconds({"retry-after": "2"}) == 2.0
    assert retry_after_seconds({"retry-after-ms": "250"}) == 0.25
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert retry_after_seconds({}) is None


def test_truncated_outputs_lose_their_cut_item(server, tmp_path, key, dev):
    row = recorded_rows(dev)[0]
    server.inject(Fault("length", text=" proceed, move, hea"))
    predictions = run_system(make_llm(server, tmp_path), [row])
    assert predictions[row["id"]] == [("proceed", 0.0), ("move", -1.0)]


def test_a_target_that_keeps_failing_is_reported_not_a_crash(server, tmp_path, key, dev, capsys):
    rows = recorded_rows(dev)[:4]
    bad = question(rows[1])
    server.inject(*[Fault("html", key=bad)] * 3)
    system = make_llm(server, tmp_path, max_retries=2, on_failure="empty")
    predictions = run_system(system, rows)
    assert predictions[rows[1]["id"]] == [] and all(predictions[r["id"]] for r in (rows[0], rows[2], rows[3]))
    assert "response body is not JSON (text/html, HTTP 200) (after 3 attempts)" in system.failed[rows[1]["id"]]
    assert f"llm: {rows[1]['id']} failed: response body is not JSON" in capsys.readouterr().err
    assert system.report()["failed targets"] == 1
    # The default: the others are answered, then the batch stops with a one-line message.
    server.inject(*[Fault("html", key=bad)] * 3)
    system = make_llm(server, tmp_path, max_retries=2, cache_dir="off")
    answered = []
    with (
        system,
        pytest.raises(
            SwordsError,
            match=r"llm: 1 targets failed \(first t:.*\); 3 finished targets are "
            "checkpointed",
        ),
    ):
        for target_id, _ in system.predict(rows):
            answered.append(target_id)
    assert sorted(answered) == sorted(r["id"] for r in rows if r is not rows[1])


def test_consecutive_failures_abort_the_run_and_finished_targets_stay_checkpointed(server, tmp_path, key, dev):
    rows = dev[:10]  # what --limit 10 answers
    for row in rows[5:8]:
        server.inject(*[Fault("500", key=question(row))] * 2)
    output = tmp_path / "run.jsonl"
    argv = [
        "run",
        "--system",
        "llm",
        "--dataset",
        "swords",
        "--split",
        "dev",
        "--output",
        str(output),
        "--bootstrap",
        "0",
    ]
    options = ["--base-url", server.base_url, "--model", "davinci", "--api-key-env", "SWORDS_TEST_LLM_KEY"]
    options += ["--cache-dir", str(tmp_path / "cache"), "--backoff", "0.01", "--concurrency", "1", "--limit", "10"]
    options += ["--max-retries", "1", "--abort-after", "3", "--no-progress"]
    assert swords_main([*argv, *options]) == 2
    journal = output_paths(output)["journal"].read_text().splitlines()
    done = {json.loads(line)["id"] for line in journal[1:]}
    assert key.encode() not in output_paths(output)["journal"].read_bytes()
    failing = {row["id"] for row in rows[5:8]}
    # Every answer that arrived is in the journal (others went ahead while the failing ones backed off).
    assert {row["id"] for row in rows[:5]} <= done and not done & failing
    requests = len(server.requests)
    assert swords_main([*argv, *options]) == 0  # the same command resumes with the others
    assert len(server.requests) - requests == 10 - len(done)


@pytest.mark.slow  # 3 s on two cores
def test_the_cache_makes_a_rerun_free(server, tmp_path, key, dev):
    rows = recorded_rows(dev)[:12]
    first = make_llm(server, tmp_path)
    answers = run_system(first, rows)
    assert first.report()["requests sent"] == 12 and first.report()["prompt tokens"] > 0
    sent = len(server.requests)
    again = make_llm(server, tmp_path)
    assert run_system(again, rows) == answers
    assert len(server.requests) == sent  # zero requests
    report = again.report()
    assert report["cache hits"] == 12 and report["requests sent"] == 0 and report["estimated cost (USD)"] == 0
    # The key is part of nothing cached; another sampling parameter is another request.
    changed = make_llm(server, tmp_path, presence_penalty=0.0)
    run_system(changed, rows[:1])
    assert len(server.requests) == sent + 1


def test_cache_keys_cover_the_whole_request(tmp_path):
    body = {"model": "m", "prompt": "p", "temperature": 0.0}
    key = ResponseCache.key("completions", "http://h/v1", body)
    assert key != ResponseCache.key("chat", "http://h/v1", body)
    assert key != ResponseCache.key("completions", "http://other/v1", body)
    assert key != ResponseCache.key("completions", "http://h/v1", {**body, "temperature": 0.1})
    assert key == ResponseCache.key("completions", "http://user:secret@h/v1?token=x", body)  # credentials dropped
    cache = ResponseCache(tmp_path)
    cache.put(key, {"response": {"choices": [{"text": "a"}]}})
    assert cache.get(key) == {"response": {"choices": [{"text": "a"}]}}
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == [f"{key}.json"]  # no temp files left


def test_concurrency_limit_is_respected(server, tmp_path, key, dev):
    server.latency = 0.1
    rows = dev[:24]
    with make_llm(server, tmp_path, concurrency=4, cache_dir="off") as system:
        dict(system.predict(dev[24:25]))  # started and connected (the client imported): only the requests are timed
        started = time.perf_counter()
        dict(system.predict(rows))
        elapsed = time.perf_counter() - started
    assert server.max_in_flight == 4
    assert elapsed < 24 * 0.1 / 2  # 6 rounds of 4: well under a sequential 2.4 s


def test_chat_mode(server, tmp_path, key, dev):
    rows = recorded_rows(dev)[:3]
    system = make_llm(server, tmp_path, model="gpt-4o-mini", mode="chat")
    predictions = run_system(system, rows)
    assert {r["path"] for r in server.requests} == {"/v1/chat/completions"}
    bodies = [r["body"] for r in server.requests]  # in arrival order, which concurrency makes any order
    assert all("stop" not in body and "prompt" not in body for body in bodies)
    assert all(body["messages"][0]["role"] == "system" for body in bodies)
    assert sorted(body["messages"][-1]["content"] for body in bodies) == sorted(question(row) for row in rows)
    for row in rows:
        text = GPT3_DAVINCI_SWORDS_V08_DEV[row["id"]]["text"].strip()
        assert predictions[row["id"]] == to_prediction(parse_completion(text, row["target"], "length"))


def test_force_longer_bans_newlines_with_the_models_own_token_ids(server, tmp_path, key, dev):
    with make_llm(server, tmp_path, force_longer=True) as system:
        assert system.parameters["logit_bias"] == {"198": -100, "201": -100, "628": -100, "50256": -100}


def test_fatal_errors_stop_the_run_and_never_show_the_key(server, tmp_path, key, dev, monkeypatch, capsys):
    server.inject(Fault("401"))  # the server echoes the Authorization header in its error message
    system = make_llm(server, tmp_path)
    with pytest.raises(SwordsError) as error:
        run_system(system, dev[:3])
    message = str(error.value)
    assert "HTTP 401" in message and "Bearer ***" in message and key not in message
    monkeypatch.delenv("SWORDS_TEST_LLM_KEY")
    # OpenAI's API needs a key: refused before anything is sent. Another server gets a placeholder.
    with pytest.raises(SwordsError, match="environment variable SWORDS_TEST_LLM_KEY is not set"):
        make_llm(server, tmp_path, cache_dir="off", base_url="https://api.openai.com/v1").check()
    keyless = make_llm(server, tmp_path, cache_dir="off")
    keyless.check()
    assert len(run_system(keyless, dev[:1])) == 1 and "Bearer EMPTY" in server.authorization
    assert key not in capsys.readouterr().err


# --------------------------------------------------------------------------------------------------
# `swords run`, end to end


def test_swords_run_llm_end_to_end_never_writes_the_key(server, tmp_path, key, dev, capsys):
    output = tmp_path / "runs" / "llm.jsonl"
    server.inject(Fault("429", seconds=0.1), Fault("500"))
    argv = ["run", "--system", "llm", "--dataset", "swords", "--split", "dev", "--output", str(output)]
    argv += ["--no-progress", "--bootstrap", "0", "--base-url", server.base_url, "--model", "davinci"]
    argv += ["--api-key-env", "SWORDS_TEST_LLM_KEY", "--cache-dir", str(tmp_path / "cache"), "--limit", "6"]
    argv += ["--backoff", "0.01"]
    assert swords_main(argv) == 0
    printed = capsys.readouterr()
    assert "llm on swords dev (6 of the split's 370 targets: a partial run, scored on those only)" in printed.out
    assert "retries: 2" in printed.out
    metrics = json.loads(output_paths(output)["metrics"].read_text())
    assert metrics["targets_scored"] == 6 and metrics["run"]["report"]["requests sent"] == 8
    assert set(json.loads(line)["id"] for line in output.read_text().splitlines()) == {r["id"] for r in dev[:6]}
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) > 6  # the outputs and the cache
    for path in files:
        assert key.encode() not in path.read_bytes(), path
    assert key not in printed.out + printed.err
    # A rerun is served from the cache.
    sent = len(server.requests)
    output.unlink()
    assert swords_main(argv) == 0 and len(server.requests) == sent
    assert "cache hits: 6" in capsys.readouterr().out


def test_swords_run_gpt3_recorded(tmp_path, capsys):
    output = tmp_path / "gpt3.jsonl"
    argv = ["run", "--system", "gpt3-recorded", "--dataset", "swords", "--split", "dev", "--output", str(output)]
    assert swords_main([*argv, "--no-progress", "--bootstrap", "0", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["targets_scored"] == 37 and result["run"]["targets"] == 37
    assert round(result["lenient_a_f@10"], 2) == 44.52 and round(result["strict_c_f@10"], 2) == 32.56
    with pytest.raises(SwordsError, match="none of these targets has a recorded completion"):
        GPT3Recorded().covers(swords_dataset.load("swords", split="test").to_list())


def test_key_pattern_is_not_in_the_bundled_data():
    # A guard for the files we ship: no API-key-like strings.
    folder = Path(__file__).resolve().parents[2] / "baselines" / "llm"
    texts = [path.read_text() for path in folder.glob("*.py")]
    texts.append(gzip.decompress((folder / "gpt3-davinci_swords-v0.8_dev.json.gz").read_bytes()).decode())
    for text in texts:
        assert not re.search(r"sk-[A-Za-z0-9]{20,}", text)
