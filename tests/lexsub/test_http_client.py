"""The one bounded HTTP client factory (swords_lexsub/http_client.py), over both http modules it serves (httpx for the
LLM client, httpx2 for huggingface_hub 2.x), sync and async, against a real server on 127.0.0.1 that misbehaves."""

from __future__ import annotations

import asyncio
import json

import pytest

from swords_lexsub.http_client import BodyTooLarge, bounded_client
from tests.llm_server import LLMServer

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


class _ForwardProxy:
    """A real forward proxy on 127.0.0.1 for plain HTTP: it forwards each request to the URL named in its request line
    and keeps that URL."""

    def __init__(self) -> None:
        import http.server
        import threading
        import urllib.request

        seen = self.seen = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                seen.append(self.path)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                forwarded = urllib.request.Request(self.path, data=body, headers={"Content-Type": "application/json"})
                with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(forwarded, timeout=30) as answer:
                    data = answer.read()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.parametrize("asynchronous", [False, True])
def test_requests_go_through_the_proxy_the_environment_names(monkeypatch, asynchronous):
    """A client given a transport leaves httpx's own proxy settings off; the factory's transport reads them."""
    http = pytest.importorskip("httpx")
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    proxy = _ForwardProxy()
    try:
        with LLMServer() as server:
            url = f"{server.base_url}/completions"
            monkeypatch.setenv("HTTP_PROXY", proxy.url)
            assert json.loads(_post(http, asynchronous, url))["choices"][0]["text"] == server.generic
            assert proxy.seen == [url]
            monkeypatch.setenv("NO_PROXY", "127.0.0.1")
            assert json.loads(_post(http, asynchronous, url))["choices"][0]["text"] == server.generic
            assert proxy.seen == [url] and len(server.requests) == 2
    finally:
        proxy.close()
