"""The SWORDS tasks in lm-evaluation-harness given what they cannot use: `--metadata` of the wrong type or value
(`"budget": "640"`, `"temperature": NaN`, `"seed": "zero"`, `"budget": 1e12`), lm-eval's options that would change
the prompt (`--num_fewshot`, `--apply_chat_template`, `--system_instruction`), a `--limit` of 0 or below, a priming
split that is the scored one, and a server that never answers. Each is one
line (`lm_eval: error: TASK: …`, exit 2) before any request, except the server that answers the task's question
but never a completion, where lm-eval's own `--model_args timeout=…,max_retries=…` bound the wait (measured).
The `lm_eval` command as a user runs it, against servers on 127.0.0.1 (tests/llm_server.py, a bare socket)."""

from __future__ import annotations

import json
import math
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import swords_dataset
from swords_baselines.llm.prompt import question
from swords_lexsub.errors import SwordsError

from ..conftest import run_swords
from ..llm_server import LLMServer

pytestmark = pytest.mark.slow  # most tests start lm-eval itself (20-45 s each on two cores)

pytest.importorskip("lm_eval")
pytest.importorskip("tiktoken")  # davinci-002's tokenizer, offline: the tasks ask no server for one

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "OPENAI_API_KEY": ""}
METADATA = {"swords": {"budget": 640, "max_tokens": 48}}
STARTUP_SECONDS = 60  # lm_eval's own start (imports, task loading): 15-25 s on a busy 2-core machine
TASK_WAITS = 10  # the task's question to the server (task.SERVER_ANSWER_SECONDS)


def lm_eval(
    base_url: str, tmp_path: Path, *extra: str, metadata: str | None = None, model_args: str = "", limit: int = 1
) -> tuple[subprocess.CompletedProcess, float]:
    """(result, seconds) of `lm_eval` on one SWORDS dev target, as the manual gives the command."""
    path = run_swords("lm-eval", "path").stdout.strip()
    arguments = f"model=davinci-002,base_url={base_url}/completions,tokenizer_backend=none,tokenized_requests=False" + (
        f",{model_args}" if model_args else ""
    )
    command = [
        str(Path(sys.executable).with_name("lm_eval")),
        "--model",
        "local-completions",
        "--model_args",
        arguments,
        "--include_path",
        path,
        "--tasks",
        "swords_dev_gen",
        "--limit",
        str(limit),
        "--metadata",
        metadata or json.dumps(METADATA),
        *extra,
    ]
    started = time.monotonic()
    done = subprocess.run(
        command, cwd=tmp_path, env={**os.environ, **OFFLINE}, capture_output=True, text=True, timeout=900
    )
    return done, time.monotonic() - started


def one_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.stderr.strip().splitlines()[-1]


def completions(server: LLMServer) -> list[dict]:
    return [request for request in server.requests if request["path"].endswith("/completions")]


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


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        (
            '{"swords": {"budget": "640"}}',
            '--metadata swords.budget: "640" is text; give a whole number (without quotes)',
        ),
        (
            '{"swords": {"temperature": NaN}}',
            "--metadata swords.temperature: NaN is not a number JSON allows; give a finite number",
        ),
        (
            '{"swords": {"seed": "zero"}}',
            '--metadata swords.seed: "zero" is text; give a whole number (without quotes)',
        ),
    ],
)
def test_metadata_of_the_wrong_type_is_one_line_before_any_request(tmp_path, metadata, expected):
    with LLMServer() as server:
        done, _ = lm_eval(server.base_url, tmp_path, metadata=metadata)
    assert one_line(done) == f"lm_eval: error: swords_dev_gen: {expected}"
    assert server.requests == []


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"budget": 640.5}, "--metadata swords.budget: 640.5 is a number with a fraction; give a whole number"),
        ({"temperature": -math.inf}, "--metadata swords.temperature: -Infinity is not a number JSON allows"),
        ({"force_longer": "yes"}, '--metadata swords.force_longer: "yes" is text; give true or false'),
        ({"presence_penalty": 3}, "--metadata swords.presence_penalty: 3 is too large (at least -2, at most 2)"),
        # JSON's numbers as lm-eval's --metadata reads them (json.loads): 1e12 is a whole number, too large a budget.
        (
            json.loads('{"budget": 1e12}'),
            "--metadata swords.budget: 1e+12 is too large (at least 2, at most 2147483647)",
        ),
        (json.loads('{"budget": 1e400}'), "--metadata swords.budget: Infinity is not a number JSON allows"),
        (
            json.loads('{"seed": 1e300}'),
            "--metadata swords.seed: 1e+300 is too large to be read exactly (written with an "
            "exponent or a fraction, a whole number is exact up to 2**53); give its digits",
        ),
        ({"max_tokens": 0.0}, "--metadata swords.max_tokens: 0 is too small (at least 1)"),
        ({"preset": "papr"}, "--metadata swords.preset: \"papr\" (did you mean 'paper'?); choose none, paper"),
        (
            {"budgte": 640},
            "--metadata swords.budgte: not an option of `swords run --system llm` (did you mean 'budget'?)",
        ),
        (
            {"budget": None},
            "--metadata swords.budget: null; give a whole number or leave it out for its default (2048)",
        ),
        ({"max_tokens": [48]}, "--metadata swords.max_tokens: a list; give a whole number"),
        ({"stop": 5}, "--metadata swords.stop: 5 is a whole number; give text"),
        ({"budget": 40}, "--metadata swords: --budget 40 leaves no room for a prompt beside --max-tokens 128"),
        ({"priming": "wikipedia:dev"}, "--metadata swords: unknown config 'wikipedia'"),
        ({"timeout": 5}, "--metadata swords.timeout: lm-eval decides that"),
    ],
)
def test_every_metadata_mistake_is_named(options, expected):
    """What the task checks (baselines/harness/settings.py), one case at a time, as lm-eval hands it over."""
    from swords_baselines.harness.settings import settings_of

    with pytest.raises(SwordsError) as error:
        settings_of({"swords": options, "model": "davinci-002", "base_url": "http://127.0.0.1:1/v1/completions"})
    assert str(error.value).startswith(expected), str(error.value)


def test_a_whole_number_written_as_json_writes_it_is_that_number():
    """`2048.0` and `1e3` are whole numbers (JSON has one kind of number): taken as the int they are."""
    from swords_baselines.harness.settings import settings_of

    settings = settings_of({"swords": json.loads('{"budget": 1e3, "max_tokens": 48.0, "seed": 1e12}')})
    assert (settings.budget, settings.max_tokens, settings.seed) == (1000, 48, 10**12)
    assert all(type(value) is int for value in (settings.budget, settings.max_tokens, settings.seed))


def task(name: str, swords: dict | None = None):
    """The task as lm-eval builds it from its YAML file (dataset_name, test_split) and --metadata, in this process:
    the tokenizer named, so that no server is asked for one."""
    from swords_baselines.harness import TASKS
    from swords_baselines.harness.task import SwordsGeneration

    benchmark, split = TASKS[name]
    metadata = {"model": "davinci-002", "swords": {"budget": 640, "tokenizer": "cl100k_base", **(swords or {})}}
    return SwordsGeneration({"task": name, "dataset_name": benchmark, "test_split": split, "metadata": metadata})


@pytest.mark.parametrize("limit", [0, -1, -0.5])
def test_a_limit_that_leaves_no_target_is_one_line(limit):
    """lm-eval hands a task `--limit` as its get_sample_size makes it (a count, or below 1 a fraction of the split):
    0 became no document (lm-eval's "did not find any docs!" traceback), -1 an index islice cannot take. Here
    through lm-eval's own code in this process (the `lm_eval` command takes 15-45 s to start); under that command
    `fail` prints the same line and exits 2, as test_options_that_would_change_the_prompt_are_refused shows."""
    from lm_eval.evaluator_utils import get_sample_size

    from swords_baselines.harness.task import TaskError

    built = task("swords_dev_gen")
    with pytest.raises(TaskError) as error:
        built.build_all_requests(limit=get_sample_size(built, limit))
    assert str(error.value) == (
        "swords_dev_gen: --limit 0 or below leaves no target to ask; give a count of targets "
        "from 1 to 370, or a fraction of the split above 0 and below 1"
    )
    built.build_all_requests(limit=get_sample_size(built, 0.001))  # a fraction: ceil(0.37), one target
    assert len(built.instances) == 1


def test_a_task_never_primes_from_the_split_it_scores():
    """swords_dev_gen primes from SWORDS test (auto), the test sets from SWORDS dev as the paper did, each recorded in
    the task's metadata; a --metadata priming of the scored split is one line naming it."""
    from swords_baselines.harness.task import TaskError

    assert task("swords_dev_gen").config.metadata["priming"] == "swords:test"
    assert task("swords_test_gen").config.metadata["priming"] == "swords:dev"
    assert task("tsar2022_es_test_gen").config.metadata["priming"] == "tsar2022_es:trial"
    with pytest.raises(TaskError) as error:
        task("swords_dev_gen", {"priming": "swords:dev"})
    assert str(error.value) == (
        "swords_dev_gen: --metadata swords.priming swords:dev is the split being scored (swords dev): every prompt "
        "would carry the other targets' gold answers; choose another (e.g. swords:test)"
    )
    with pytest.raises(
        TaskError,
        match=r"^coinco_test_gen: --metadata swords.priming swords:test holds the targets "
        r"of the split being scored \(coinco test\)",
    ):
        task("coinco_test_gen", {"priming": "swords:test"})


@pytest.mark.parametrize(
    "options", [("--num_fewshot", "3"), ("--apply_chat_template",), ("--system_instruction", "Answer briefly.")]
)
def test_options_that_would_change_the_prompt_are_refused(tmp_path, options):
    with LLMServer() as server:
        done, _ = lm_eval(server.base_url, tmp_path, *options)
    assert one_line(done) == (
        f"lm_eval: error: swords_dev_gen: {options[0]} would change the prompt: the priming "
        "examples are in the prompt itself, which the task sends as a completion, as the paper "
        "did (`swords run --mode chat` is the way for chat models)"
    )
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
    `--model_args timeout=3,max_retries=2` makes it give up after two attempts of 3 s (its default: 3 of 300 s)."""
    with LLMServer(mode="stall") as server:
        done, seconds = lm_eval(server.base_url, tmp_path, model_args="timeout=3,max_retries=2")
        sent = completions(server)
    assert done.returncode != 0 and "timed out" in done.stderr.lower(), done.stderr[-3000:]
    assert len(sent) == 2, sent
    waited = sent[-1]["time"] - sent[0]["time"] + 3
    assert 5 < waited < 3 * 2 + 5, waited  # two attempts of 3 s, lm-eval's backoff of about 1 s between them
    assert seconds < 3 * 2 + 5 + STARTUP_SECONDS, seconds
    print(
        f"lm_eval against a stalling server, timeout=3,max_retries=2: gave up after {seconds:.1f} s, "
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
