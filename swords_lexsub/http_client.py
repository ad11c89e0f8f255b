"""The one HTTP client factory for outside servers (the LLM client, the served tokenizer, the Hub's publishing):
`bounded_client(http, ...)` makes an httpx (or httpx2: `http`, the caller's module) client reading every answer up to
MAX_BODY_BYTES, decompressed with a bound (httpx's own reads a whole body, a gzip bomb too, into memory), through the
environment's proxy (proxies.py)."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable, Iterator
from functools import cache
from types import ModuleType
from typing import Any

from swords_lexsub.bounded_body import (
    ACCEPT_ENCODING,
    MAX_BODY_BYTES,
    BodyCounter,
    BodyPastLimit,
    BodyUndecodable,
    refusal,
)
from swords_lexsub.errors import SwordsError
from swords_lexsub.proxies import Proxy, proxy_for

__all__ = [
    "ACCEPT_ENCODING",
    "MAX_BODY_BYTES",
    "BodyTooLarge",
    "ProxyUnusable",
    "bounded_client",
    "bounded_transport",
    "env_proxy",
    "proxied_transport",
    "proxy_of",
]


class ProxyUnusable(SwordsError):
    """A proxy the environment names that the http module cannot use (a command checks it before any request)."""


class BodyTooLarge(Exception):
    """A response body past the limit (or in an encoding not asked for), raised also as the http module's ReadError."""


# Makes the exception a refused body is raised as: (request, reason) -> exception. The default is BodyTooLarge.
Refuse = Callable[[Any, str], Exception]


# Where a request's proxy is kept (request.extensions), for whoever says why the request failed.
_PROXY = "swords_proxy"


def env_proxy(url: Any) -> Proxy | None:
    """The proxy the environment names for `url` (an http module's URL), as urllib reads it; None for none."""
    return proxy_for(url.scheme, url.host, url.port)


def proxy_of(request: Any) -> Proxy | None:
    """The proxy a request was sent through (None: straight to its server, or not sent by this factory)."""
    return request.extensions.get(_PROXY) if request is not None else None


@cache
def _classes(http: ModuleType) -> dict[str, type]:
    """The transport and stream classes over one http module (httpx and httpx2 have distinct base classes)."""

    class TooLarge(BodyTooLarge, http.ReadError):
        pass

    def default_refuse(request, reason: str) -> Exception:
        return TooLarge(reason, request=request)

    def bounded_response(request, response, limit: int, refuse: Refuse, stream_class: type):
        """The response with its body counted (or the refusal raised, before any of it is read)."""
        encoding = response.headers.get("content-encoding", "identity").strip().lower() or "identity"
        problem = refusal(encoding, response.headers.get("content-length", ""), limit)
        if problem is not None:
            return problem
        headers = [
            (name, value)
            for name, value in response.headers.multi_items()
            if name.lower() not in ("content-encoding", "content-length") or encoding == "identity"
        ]
        counter = BodyCounter(encoding, limit)
        return http.Response(
            response.status_code,
            headers=headers,
            stream=stream_class(response.stream, counter, lambda reason: refuse(request, reason)),
            extensions=response.extensions,
            request=request,
        )

    class PerProxy:
        # A client given a transport leaves its own proxy settings off: each request's proxy is chosen here, one
        # inner transport (of `kind`) a proxy.
        kind: type

        def __init__(self, **options: Any) -> None:
            self.options, self.transports, self.lock = options, {}, threading.Lock()

        def _for(self, request):
            proxy = env_proxy(request.url)
            if proxy is not None:
                request.extensions[_PROXY] = proxy
            with self.lock:
                if proxy not in self.transports:
                    # One that cannot work (a command checks it before any request) is said as the command says it,
                    # not as the http module fails on it (InvalidURL, ImportError, an ExceptionGroup at connect).
                    refusal = proxy.refusal() if proxy is not None else None
                    if refusal is not None:
                        raise ProxyUnusable(refusal)
                    self.transports[proxy] = self.kind(proxy=proxy and proxy.url, **self.options)
                return self.transports[proxy]

    class Proxied(PerProxy, http.BaseTransport):
        kind = http.HTTPTransport

        def handle_request(self, request):
            return self._for(request).handle_request(request)

        def close(self) -> None:
            for transport in self.transports.values():
                transport.close()

    class AsyncProxied(PerProxy, http.AsyncBaseTransport):
        kind = http.AsyncHTTPTransport

        async def handle_async_request(self, request):
            return await self._for(request).handle_async_request(request)

        async def aclose(self) -> None:
            for transport in self.transports.values():
                await transport.aclose()

    def counted(counter: BodyCounter, chunk: bytes, fail: Callable[[str], Exception]) -> bytes:
        try:
            return counter.feed(chunk)
        except BodyPastLimit as error:
            raise fail(str(error)) from None
        except BodyUndecodable as error:
            raise http.DecodingError(str(error)) from None

    class Counted:
        def __init__(self, inner, counter: BodyCounter, fail: Callable[[str], Exception]) -> None:
            self.inner, self.counter, self.fail = inner, counter, fail

    class Stream(Counted, http.SyncByteStream):
        def __iter__(self) -> Iterator[bytes]:
            for chunk in self.inner:
                chunk = counted(self.counter, chunk, self.fail)
                if chunk:
                    yield chunk

        def close(self) -> None:
            self.inner.close()

    class AsyncStream(Counted, http.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            chunks = aiter(self.inner)
            try:
                async for chunk in chunks:
                    chunk = counted(self.counter, chunk, self.fail)
                    if chunk:
                        yield chunk
            finally:  # stopped early: close the connection's reader now, not when the garbage collector finds it
                close = getattr(chunks, "aclose", None)
                if close is not None:
                    await close()

        async def aclose(self) -> None:
            await self.inner.aclose()

    class Bounded:
        proxied: type  # the inner transport when none is given

        def __init__(self, inner=None, limit: int = MAX_BODY_BYTES, refuse: Refuse | None = None) -> None:
            self.inner = inner or self.proxied()
            self.limit, self.refuse = limit, refuse or default_refuse

    class Transport(Bounded, http.BaseTransport):
        proxied = Proxied

        def handle_request(self, request):
            request.headers["Accept-Encoding"] = ACCEPT_ENCODING
            response = self.inner.handle_request(request)
            bounded = bounded_response(request, response, self.limit, self.refuse, Stream)
            if isinstance(bounded, str):
                response.close()
                raise self.refuse(request, bounded)
            return bounded

        def close(self) -> None:
            self.inner.close()

    class AsyncTransport(Bounded, http.AsyncBaseTransport):
        proxied = AsyncProxied

        async def handle_async_request(self, request):
            request.headers["Accept-Encoding"] = ACCEPT_ENCODING
            response = await self.inner.handle_async_request(request)
            bounded = bounded_response(request, response, self.limit, self.refuse, AsyncStream)
            if isinstance(bounded, str):
                await response.aclose()
                raise self.refuse(request, bounded)
            return bounded

        async def aclose(self) -> None:
            await self.inner.aclose()

    return {"sync": Transport, "async": AsyncTransport, "sync proxied": Proxied, "async proxied": AsyncProxied}


def proxied_transport(http: ModuleType, *, asynchronous: bool = False, **options: Any) -> Any:
    """A transport of `http` sending each request through the environment's proxy for its URL (or directly)."""
    return _classes(http)["async proxied" if asynchronous else "sync proxied"](**options)


def bounded_transport(
    http: ModuleType,
    *,
    asynchronous: bool = False,
    inner: Any = None,
    limit: int = MAX_BODY_BYTES,
    refuse: Refuse | None = None,
) -> Any:
    """A transport of `http` whose answers yield at most `limit` bytes of (decompressed) body, one announced larger
    refused before it is read; `inner` sends (default proxied_transport), `refuse(request, reason)` raises."""
    return _classes(http)["async" if asynchronous else "sync"](inner, limit, refuse)


def bounded_client(
    http: ModuleType,
    *,
    asynchronous: bool = False,
    inner: Any = None,
    limit: int = MAX_BODY_BYTES,
    refuse: Refuse | None = None,
    **options: Any,
) -> Any:
    """An `http.Client` (`http.AsyncClient` if `asynchronous`) over bounded_transport; `options` are the client's."""
    transport = bounded_transport(http, asynchronous=asynchronous, inner=inner, limit=limit, refuse=refuse)
    return (http.AsyncClient if asynchronous else http.Client)(transport=transport, **options)
