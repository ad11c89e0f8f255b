"""An empty completion is the model's answer, not a failing server (issue 30): a server on 127.0.0.1 that answers
every request with an empty text (HTTP 200, finish reason "stop", as a model that stops at once does). It used to
be retried 7 times as a server failure, trip the circuit breaker ("the server … keeps failing") and end "rerun the
same command", which fails the same way. Now each target is asked once, the run stops after --abort-after of them
in a row naming `--on-failure empty`, and with that option the run finishes, recording no substitutes."""

from __future__ import annotations

import json
import time

import pytest

import swords_dataset
from swords_baselines.llm import LLM
from swords_baselines.llm.prompt import question
from swords_baselines.run.files import output_paths
from swords_lexsub.errors import SwordsError

from ..conftest import run_swords
from ..llm_server import Canned, Fault, LLMServer

LIMIT = 12


def make_llm(server: LLMServer, **options) -> LLM:
    return LLM(
        model="davinci",
        base_url=server.base_url,
        api_key_env="SWORDS_TEST_LLM_KEY",
        cache_dir="off",
        backoff=0.01,
        timeout=5.0,
        **options,
    )


def completions(server: LLMServer) -> list[dict]:
    return [request for request in server.requests if request["path"].endswith("/completions")]


def swords_run(server: LLMServer, tmp_path, *options: str):
    output = tmp_path / "llm.jsonl"
    done = run_swords(
        "run",
        "--system",
        "llm",
        "--base-url",
        server.base_url,
        "--model",
        "davinci-002",
        "--dataset",
        "swords",
        "--split",
        "test",
        "--limit",
        str(LIMIT),
        "--output",
        str(output),
        "--cache-dir",
        str(tmp_path / "cache"),
        "--no-progress",
        "--bootstrap",
        "0",
        *options,
        env={"OPENAI_API_KEY": ""},
    )
    return done, output


@pytest.mark.slow  # 6 s on two cores
def test_a_model_that_answers_nothing_stops_the_run_naming_on_failure_empty(tmp_path):
    with LLMServer(generic="") as server:
        started = time.monotonic()
        done, output = swords_run(server, tmp_path, "--concurrency", "1")
        seconds = time.monotonic() - started
        # (a request cancelled at the stop arrives without its body)
        prompts = [request["body"]["prompt"] for request in completions(server) if "prompt" in request["body"]]
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("swords: error: llm: 5 targets in a row got an empty completion (last t:")
    assert last.endswith(
        ": empty completion (finish reason 'stop')); a rerun asks the same: pass --on-failure empty "
        "to record them as answered with no substitutes (finished targets are checkpointed)"
    )
    assert "keeps failing" not in done.stderr and "retr" not in done.stderr
    # Each target asked once: no prompt twice (it was 7 attempts each, with backoff waits between them).
    assert len(prompts) == len(set(prompts)) and 5 <= len(prompts) <= 6  # the sixth may be under way at the stop
    assert seconds < 30, seconds  # with the waits of 7 attempts it took a minute
    assert not output.exists()

    # The option the line names: the same command with it finishes, every target answered with nothing.
    with LLMServer(generic="") as server:
        done, output = swords_run(server, tmp_path, "--concurrency", "1", "--on-failure", "empty")
        asked = len(completions(server))
    assert done.returncode == 0, done.stderr[-2000:]
    assert asked == LIMIT  # once each
    answers = [json.loads(line) for line in output.read_text().splitlines()]
    test_ids = [row["id"] for row in swords_dataset.rows("swords", "test")[:LIMIT]]
    assert [answer["id"] for answer in answers] == test_ids and all(a["substitutes"] == [] for a in answers)
    metrics = json.loads(output_paths(output)["metrics"].read_text())
    assert metrics["run"]["report"]["empty completions (no substitutes)"] == LIMIT
    assert "failed targets" not in metrics["run"]["report"]
    assert metrics["lenient_a_f@10"] == 0.0 and metrics["strict_c_f@10"] == 0.0  # nothing proposed: F is 0
    assert "empty completions (no substitutes): 12" in done.stdout


def test_one_empty_completion_among_answers_is_not_retried_and_is_named(dev, monkeypatch):
    """The Python API, four targets of which one gets an empty completion: asked once, the server not counted as
    failing (the others are answered), and the batch ends naming --on-failure empty; with it, that target is
    recorded with no substitutes and the report counts it apart from failures."""
    monkeypatch.setenv("SWORDS_TEST_LLM_KEY", "sk-test-empty")
    rows = dev[:4]
    with LLMServer() as server:
        for row in rows:
            server.canned[question(row)] = Canned(" alternative, option")
        server.inject(Fault("empty", key=question(rows[2])))
        system, answered = make_llm(server), {}
        with system, pytest.raises(SwordsError) as error:
            for target_id, prediction in system.predict(rows):
                answered[target_id] = prediction
        assert len(completions(server)) == 4 and system.client.usage.retries == 0
        assert set(answered) == {row["id"] for row in rows} - {rows[2]["id"]}
        assert str(error.value) == (
            f"llm: 1 targets got an empty completion (first {rows[2]['id']}: empty completion (finish reason "
            "'stop')); a rerun asks the same: pass --on-failure empty to record them as answered with no substitutes "
            "(3 finished targets are checkpointed)"
        )

        server.inject(Fault("empty", key=question(rows[2])))
        system = make_llm(server, on_failure="empty")
        with system:
            answered = dict(system.predict(rows))
        assert answered[rows[2]["id"]] == [] and all(answered[row["id"]] for row in rows if row is not rows[2])
        assert system.report()["empty completions (no substitutes)"] == 1 and "failed targets" not in system.report()
        assert len(completions(server)) == 8
