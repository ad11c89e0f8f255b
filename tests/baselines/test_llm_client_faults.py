"""The few-shot LLM baseline through the real `openai` client, against a local OpenAI-compatible server that
answers with the paper's real GPT-3 completions and injects faults: server errors, timeouts and malformed bodies
retried with a growing, jittered backoff or as Retry-After says, truncated outputs, a target that keeps failing,
consecutive failures that abort a run with its finished targets checkpointed, fatal errors that never show the key.
Nothing here reaches beyond 127.0.0.1."""

from __future__ import annotations

import json

import pytest

from swords_baselines.llm.parse import parse_completion, to_prediction
from swords_baselines.llm.prompt import question
from swords_baselines.llm.retry import Backoff, retry_after_seconds
from swords_baselines.run.files import output_paths
from swords_lexsub.cli import main as swords_main
from swords_lexsub.errors import SwordsError

from ..llm_server import Fault
from . import llm_helpers
from .llm_helpers import GPT3_DAVINCI_SWORDS_V08_DEV, make_llm, recorded_rows, run_system

# This file's fixtures, shared with the other test_llm_client_*.py: `key`, a fresh fake API key in its own
# environment variable (in place of conftest.py's), and `server`, the local server answering with GPT-3's completions.
key, server = llm_helpers.key, llm_helpers.server


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


@pytest.mark.slow  # 5 s on two busy cores (load 4-6)
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
