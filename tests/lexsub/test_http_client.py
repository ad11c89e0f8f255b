"""The one bounded HTTP client factory (swords_lexsub/http_client.py), over both http modules it serves (httpx for the
LLM client, httpx2 for huggingface_hub 2.x), sync and async, against a real server on 127.0.0.1 that misbehaves."""

from __future__ import annotations

import asyncio
import json

import pytest

from swords_lexsub.http_client import BodyTooLarge, bounded_client
from tests.llm_server import LLMServer
from tests.proxy_server import ForwardProxy

BODY = {"model": "m", "prompt": "p", "max_tokens": 5}


def _post(http, asynchronous: bool, url: str):
    """The answer's text, or the exception raised while reading it."""
    try:
        if asynchronous:

            async def ask():
                async with bounded_client(http, asynchronous=True, timeout=30) as client:
                    response = await client.post(url, json=BODY)
                    return (await response.aread()).decode()

            return asyncio.run(ask())
        with bounded_client(http, timeout=30) as client:
            return client.post(url, json=BODY).read().decode()
    except Exception as error:  # noqa: BLE001 (the test looks at it)
        return error


@pytest.mark.parametrize("module", ["httpx", "httpx2"])
@pytest.mark.parametrize("asynchronous", [False, True])
@pytest.mark.parametrize(
    "mode, message",
    [
        (None, None),
        ("endless-announced", "the response body announces 1,073,741,824 bytes, past 16 MB"),
        ("gzip-bomb", "the response body passed 16 MB (read no further)"),  # 64 kB sent, 64 MB expanded
    ],
)
def test_an_answer_is_read_whole_and_a_bomb_or_a_huge_one_refused(module, asynchronous, mode, message):
    http = pytest.importorskip(module)
    with LLMServer(mode=mode) as server:
        outcome = _post(http, asynchronous, f"{server.base_url}/completions")
    if message is None:
        assert json.loads(outcome)["choices"][0]["text"] == server.generic
        return
    assert isinstance(outcome, BodyTooLarge) and isinstance(outcome, http.ReadError), repr(outcome)
    assert str(outcome) == message


@pytest.mark.parametrize("asynchronous", [False, True])
def test_requests_go_through_the_proxy_the_environment_names(monkeypatch, asynchronous):
    """A client given a transport leaves httpx's own proxy settings off; the factory's transport reads them. NO_PROXY
    as urllib and requests read it: a host, or a host:port (issue 47: the port made it ignored)."""
    http = pytest.importorskip("httpx")
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    with LLMServer() as server, ForwardProxy() as proxy:
        url = f"{server.base_url}/completions"
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        assert json.loads(_post(http, asynchronous, url))["choices"][0]["text"] == server.generic
        assert proxy.seen == [url]
        for bypass in ("127.0.0.1", f"127.0.0.1:{server.port}", f"example.org, .0.0.1:{server.port}"):
            monkeypatch.setenv("NO_PROXY", bypass)
            assert json.loads(_post(http, asynchronous, url))["choices"][0]["text"] == server.generic
        monkeypatch.setenv("NO_PROXY", f"127.0.0.1:{server.port + 1}")  # another port: through the proxy
        assert json.loads(_post(http, asynchronous, url))["choices"][0]["text"] == server.generic
        assert proxy.seen == [url, url] and len(server.requests) == 5
