"""The SWORDS tasks under the `lm_eval` command as a user runs it, against servers on 127.0.0.1
(tests/llm_server.py, a bare socket): the run that succeeds, a task that cannot run refused in one line
(`lm_eval: error: TASK: …`, exit 2) before any request, a server that never answers, and a completion past
max_tokens.

Each `lm_eval` takes 12-15 s to start on two busy cores (10 s of it indexing lm-eval's own few thousand task
files), so the command runs once for each place the task refuses: as it is built (`--metadata`: NaN), as lm-eval
asks it for its requests (`--apply_chat_template`; `--limit` is refused by the same method), and when it first asks
the server (a socket that never answers, after the task's own 10 s). The first two lines are compared with the
TaskError `lm_eval.simple_evaluate` raises in this process for the same case; the other cases of those places
(`--metadata` of other wrong types, `--num_fewshot`, `--system_instruction`, `--limit` 0 or below) run only that
way (test_lm_eval_in_process.py, about a second each), since the line is `fail`'s, the same for every case of a
place. The server that answers the task's question but never a completion is bounded by lm-eval's own
`--model_args timeout=…,max_retries=…` (measured)."""

from __future__ import annotations

import json
import socket

import pytest

import swords_dataset
from swords_baselines.llm.prompt import question

from ..llm_server import LLMServer
from .lm_eval_helpers import (
    PROMPT_CHANGES,
    TASK,
    WRONG_TYPES,
    changes_the_prompt,
    completions,
    lm_eval,
    one_line,
    refusal,
)

pytestmark = pytest.mark.slow  # every test starts lm-eval itself (12-35 s each on two busy cores)

pytest.importorskip("lm_eval")
pytest.importorskip("tiktoken")  # davinci-002's tokenizer, offline: the tasks ask no server for one

STARTUP_SECONDS = 60  # lm_eval's own start (imports, task loading): 12-25 s on a busy 2-core machine
TASK_WAITS = 10  # the task's question to the server (task.SERVER_ANSWER_SECONDS)
TIMEOUT, RETRIES = 2, 2  # lm-eval's --model_args timeout (whole seconds) and max_retries against a stalling server


def test_the_command_runs_against_the_test_server(tmp_path):
    """The baseline of the tests below: the same command, nothing wrong, answers and exits 0. swords_dev_gen primes
    from SWORDS test, never from the dev split it scores, and lm-eval's results file records it (issue 30)."""
    with LLMServer() as server:
        done, _ = lm_eval(server.base_url, tmp_path, "--output_path", str(tmp_path / "out"), limit=2)
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(completions(server)) == 2 and "swords_dev_gen" in done.stdout
    dev, test = (swords_dataset.rows("swords", split) for split in ("dev", "test"))
    for request in completions(server):
        *shots, query = request["body"]["prompt"].split("\n\n")
        assert shots and any(query.startswith(question(row)) for row in dev[:2])
        assert all(any(shot.startswith(question(row) + "\nA: ") for row in test) for shot in shots)
    (results,) = (tmp_path / "out").rglob("results_*.json")
    assert json.loads(results.read_text())["configs"]["swords_dev_gen"]["metadata"]["priming"] == "swords:test"


def test_metadata_of_the_wrong_type_is_one_line_before_any_request(tmp_path):
    """Refused as the task is built. NaN: the case where how the command reads `--metadata` matters (json.loads
    takes NaN)."""
    metadata, expected = WRONG_TYPES["NaN"]
    with LLMServer() as server:
        done, _ = lm_eval(server.base_url, tmp_path, metadata=metadata)
        in_process = refusal(server.base_url, metadata)
    assert one_line(done) == f"lm_eval: error: {TASK}: {expected}"
    assert one_line(done) == f"lm_eval: error: {in_process}"
    assert server.requests == []


def test_an_option_that_would_change_the_prompt_is_one_line_before_any_request(tmp_path):
    """Refused as lm-eval asks the task for its requests. `--apply_chat_template`: the option the command itself does
    most with (it turns on fewshot_as_multiturn, which a chat template would use)."""
    options, python_options = PROMPT_CHANGES["--apply_chat_template"]
    with LLMServer() as server:
        done, _ = lm_eval(server.base_url, tmp_path, *options)
        in_process = refusal(server.base_url, **python_options)
    assert one_line(done) == f"lm_eval: error: {changes_the_prompt('--apply_chat_template')}"
    assert one_line(done) == f"lm_eval: error: {in_process}"
    assert server.requests == []


def test_a_server_that_accepts_connections_and_never_answers_is_one_line(tmp_path):
    """A socket that listens (the kernel completes every connection) and never reads or answers: the task's own
    question is given up after TASK_WAITS seconds, before lm-eval sends a request (it would wait 300 s × 3)."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(64)
        port = silent.getsockname()[1]
        done, seconds = lm_eval(f"http://127.0.0.1:{port}/v1", tmp_path)
    assert one_line(done) == (
        f"lm_eval: error: swords_dev_gen: the server at http://127.0.0.1:{port}/v1 does not answer (GET /models: no "
        f"answer within {TASK_WAITS} s); lm-eval itself waits up to --model_args timeout (300 s) × max_retries (3) "
        "for each request"
    )
    assert seconds < TASK_WAITS + STARTUP_SECONDS, seconds
    print(f"lm_eval against a silent socket: stopped after {seconds:.1f} s")


def test_lm_evals_own_timeout_and_retries_bound_a_completion_that_never_comes(tmp_path):
    """The server answers the task's question but never a completion: lm-eval's own bounds govern, and
    `--model_args timeout=2,max_retries=2` makes it give up after two attempts of 2 s (its default: 3 of 300 s)."""
    bounds = f"timeout={TIMEOUT},max_retries={RETRIES}"
    with LLMServer(mode="stall") as server:
        done, seconds = lm_eval(server.base_url, tmp_path, model_args=bounds)
        sent = completions(server)
    assert done.returncode != 0 and "timed out" in done.stderr.lower(), done.stderr[-3000:]
    assert len(sent) == RETRIES, sent
    waited = sent[-1]["time"] - sent[0]["time"] + TIMEOUT
    # Two attempts of TIMEOUT s with lm-eval's backoff of at least 1 s between them; not giving up within 5 s more.
    assert TIMEOUT * RETRIES - 1 < waited < TIMEOUT * RETRIES + 5, waited
    assert seconds < TIMEOUT * RETRIES + 5 + STARTUP_SECONDS, seconds
    print(
        f"lm_eval against a stalling server, {bounds}: gave up after {seconds:.1f} s, "
        f"{waited:.1f} s after its first request"
    )


def test_a_completion_past_max_tokens_is_kept_as_the_runner_keeps_it(tmp_path):
    """A server that ignores max_tokens (1.2 million words under max_tokens 48): the task keeps what the runner
    keeps (64 characters a token, at most max_tokens substitutes), so scoring sees a bounded answer."""
    words = " " + ", ".join(f"w{i}" for i in range(1_200_000))
    with LLMServer(generic=words) as server:
        done, _ = lm_eval(server.base_url, tmp_path, "--output_path", str(tmp_path / "out"), "--log_samples")
    assert done.returncode == 0, done.stderr[-3000:]
    (samples,) = (tmp_path / "out").rglob("samples_swords_dev_gen_*.jsonl")
    (sample,) = [json.loads(line) for line in samples.read_text().splitlines()]
    assert len(sample["resps"][0][0]) == len(words)  # lm-eval keeps the text as sent; the task bounds its use
    target_id, prediction = sample["lenient_a_f@10"]
    assert target_id == sample["doc"]["id"]
    assert [item[0] for item in prediction] == [f"w{i}" for i in range(48)]
