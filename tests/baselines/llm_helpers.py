"""What the few-shot LLM baseline's tests share: the paper's real GPT-3 completions as bundled (test_llm_prompt.py,
test_llm_parse.py, test_llm_client_*.py); and for the client's tests, a fresh fake API key, a local OpenAI-compatible
server answering each recorded SWORDS dev target with GPT-3's real completion, and the system built against it."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from swords_baselines.llm import LLM, load_recorded
from swords_baselines.llm.prompt import question

from ..llm_server import Canned, LLMServer

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
