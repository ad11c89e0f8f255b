"""Fixtures shared by the baselines' tests: the fault tests' key, SWORDS dev, the upstream file of GPT-3's recorded
completions, the embedded engine served once."""

from __future__ import annotations

import gzip
import json
import os
import secrets
import subprocess
import sys
import time
import urllib.request

import pytest

from swords_dataset.builder.sources import default_sources_dir

from ..conftest import REPO_ROOT, free_port
from ..space_server import stop_process

SWORDS = [sys.executable, "-m", "swords_lexsub.cli"]
# Tokens a slot of the session's engine. The same-request test fills it: with llama.cpp's prompt cache on, its five
# 640-token prompts answered differently in reverse order, its five 384-token ones did not (2026-11-27).
ENGINE_CONTEXT = 640
RECORDED_FILE = default_sources_dir() / "recorded-outputs" / "gpt3-davinci_swords-v0.8_dev-valid.json.gz"


@pytest.fixture
def key() -> dict:
    return {"SWORDS_FAULT_KEY": "sk-fault-" + secrets.token_hex(16)}


@pytest.fixture(scope="session")
def dev() -> list[dict]:
    """SWORDS dev, the LLM's priming pool and the recorded GPT-3 targets' split."""
    import swords_dataset

    return swords_dataset.rows("swords", "dev")


@pytest.fixture(scope="session")
def dev_by_id(dev) -> dict[str, dict]:
    return {row["id"]: row for row in dev}


@pytest.fixture(scope="session")
def recorded_file() -> dict:
    """GPT-3's completions on SWORDS v0.8 dev as upstream recorded them (with their logprobs). Read-only to tests."""
    if not RECORDED_FILE.is_file():
        pytest.skip(f"recorded GPT-3 outputs not found at {RECORDED_FILE}")
    with gzip.open(RECORDED_FILE, "rt", encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="session")
def served_engine(tmp_path_factory) -> str:
    """`swords llm serve --port PORT --context 640` (llama.cpp serving SmolLM2-135M, one slot), started once for
    the tests that need an engine to answer them; its OpenAI base URL. Tests of the engine's own start and stop
    start their own. (Any test using it is marked `engine`, and those run on one worker: tests/conftest.py.)"""
    from swords_baselines.llm.engine import unavailable_reason

    if unavailable_reason():
        pytest.skip(f"the local engine cannot run here: {unavailable_reason()}")
    port, log = free_port(), tmp_path_factory.mktemp("engine") / "serve.log"
    with open(log, "wb") as output:  # a file, not a pipe: a session's worth of lines never blocks the server
        process = subprocess.Popen(
            [*SWORDS, "llm", "serve", "--port", str(port), "--context", str(ENGINE_CONTEXT)],
            cwd=REPO_ROOT,
            env={**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "OPENAI_API_KEY": ""},
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    root = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    try:
        while True:
            assert process.poll() is None, log.read_text(errors="replace")[-3000:]
            assert time.monotonic() < deadline, f"swords llm serve did not answer at {root} within 120 s"
            try:
                with urllib.request.urlopen(root + "/health", timeout=2) as response:
                    if json.loads(response.read()).get("status") == "ok":
                        break
            except OSError:
                time.sleep(0.2)
        yield root + "/v1"
    finally:
        stop_process(process, 30)
