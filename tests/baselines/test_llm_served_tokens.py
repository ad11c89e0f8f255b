"""The served tokenizer's requests (baselines/llm/served_tokens.py), made by the one bounded HTTP client factory,
against a real server on 127.0.0.1 that misbehaves: each is one line, and none waits past its bound."""

from __future__ import annotations

import time

import pytest

from swords_baselines.llm.errors import ServerUnreachable
from swords_baselines.llm.served_tokens import ServerTokenizer
from swords_lexsub.errors import SwordsError
from tests.llm_server import LLMServer

pytest.importorskip("httpx")


@pytest.mark.parametrize(
    "mode, unreachable, message",
    [
        (None, False, "the server's /tokenize answered HTTP 404"),  # an answer: not this flavor's endpoint
        ("endless", False, "the server's /tokenize answered more than 16 MB"),
        # 35 bytes, one every half second: 18 s, given up after twice the timeout
        ("trickle", True, "its /tokenize: no whole answer within 1.6 s"),
        ("stall", True, "its /tokenize: timed out"),
    ],
)
def test_a_misbehaving_tokenize_is_one_line_within_its_bound(mode, unreachable, message):
    with LLMServer(mode=mode) as server:
        started = time.monotonic()
        with pytest.raises(SwordsError) as raised:
            ServerTokenizer(server.base_url, "m", "llama.cpp", timeout=0.8)
        seconds = time.monotonic() - started
    assert str(raised.value) == message
    assert isinstance(raised.value, ServerUnreachable) == unreachable
    assert seconds < 3.5, seconds


def test_a_closed_port_is_said_as_the_socket_says_it():
    with LLMServer() as server:
        base_url = server.base_url  # the port is free once the server is gone
    with pytest.raises(ServerUnreachable, match=r"^its /tokenize: Connection refused$"):
        ServerTokenizer(base_url, "m", "llama.cpp", timeout=0.8)


def test_a_proxy_that_is_not_there_is_named(monkeypatch):
    """The /tokenize probe goes through the proxy the environment names, and a proxy that is not there is named (issue
    47); the embedded engine's (`direct`) goes to its server."""
    from tests.conftest import free_port

    for name in ("http_proxy", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    proxy = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("HTTP_PROXY", proxy)
    with LLMServer() as server:
        with pytest.raises(ServerUnreachable) as raised:
            ServerTokenizer(server.base_url, "m", "llama.cpp", timeout=0.8)
        assert str(raised.value) == f"its /tokenize, through the proxy {proxy} (HTTP_PROXY): Connection refused"
        with pytest.raises(SwordsError, match=r"^the server's /tokenize answered HTTP 404$"):  # the server's own
            ServerTokenizer(server.base_url, "m", "llama.cpp", timeout=0.8, direct=True)
        assert [r["path"] for r in server.requests] == ["/tokenize"]
