"""The LLM with a session's own key: settings validated, each session's key used (never the server's), an
unreachable endpoint one message without the key."""

from __future__ import annotations

import os
import socket
import threading
import time

import pytest

from .helpers import import_space, importable

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_space import offered_systems  # noqa: E402  (after the import fallback)
from swords_space.errors import SpaceError  # noqa: E402
from swords_space.tabs.substitute import substitute  # noqa: E402
from swords_space.tabs.substitute_llm import llm_settings  # noqa: E402


def test_llm_settings_are_validated():
    with pytest.raises(SpaceError, match="Paste an API key"):
        llm_settings("https://api.example.org/v1", "m", "chat", "")
    with pytest.raises(SpaceError, match="http\\(s\\) URL"):
        llm_settings("file:///etc/passwd", "m", "chat", "sk-abcdefgh")
    settings = llm_settings(" https://api.example.org/v1/ ", "m", "chat", " sk-abcdefgh ")
    assert settings.base_url == "https://api.example.org/v1" and settings.api_key == "sk-abcdefgh"
    assert "sk-abcdefgh" not in repr(settings)
    with pytest.raises(SpaceError, match="needs an API key"):
        substitute("A bright day.", "bright", 1, "auto", "llm")


def test_llm_uses_each_sessions_key_and_never_the_environment(llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-server-owner-key-never-used")
    keys = [f"sk-session-{n}-0123456789" for n in range(2)]
    results = {}

    def ask(key: str) -> None:
        settings = llm_settings(llm_server.base_url, "davinci-002", "completions", key)
        results[key] = substitute("She gave a bright answer.", "bright", 1, "ADJ", "llm", llm=settings)

    threads = [threading.Thread(target=ask, args=(key,)) for key in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert llm_server.authorization == {f"Bearer {key}" for key in keys}
    for key in keys:
        assert [s["substitute"] for s in results[key].suggestions][:3] == ["alternative", "option", "choice"]
    assert not any(key in value for value in os.environ.values() for key in keys)


def test_an_unreachable_llm_endpoint_is_a_message_without_the_key():
    if not importable(offered_systems.LLM_SYSTEM):
        pytest.skip("the llm system is not installed")
    with socket.socket() as probe:  # a port with nothing listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    key = "sk-secret-abcdefghijklmnop"
    settings = llm_settings(f"http://127.0.0.1:{port}/v1", "davinci-002", "completions", key)
    started = time.perf_counter()
    with pytest.raises(SpaceError, match="did not answer: cannot connect to http://127.0.0.1") as error:
        substitute("She gave a bright answer.", "bright", 1, "ADJ", "llm", llm=settings)
    assert key not in str(error.value) and time.perf_counter() - started < 20
