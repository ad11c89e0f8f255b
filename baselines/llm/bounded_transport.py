"""The LLM client's side of swords_lexsub.bounded_body: at most MAX_BODY_BYTES of an answer's body is read,
counted after decompression.

The HTTP client's transport is wrapped so that every response body (answers and error bodies alike) goes through
a BodyCounter that stops reading at the limit; bodies are asked for as gzip or deflate and decompressed there
with a bound on each step's output; any other encoding is refused.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx

from swords_lexsub.bounded_body import (
    ACCEPT_ENCODING,
    MAX_BODY_BYTES,
    BodyCounter,
    BodyPastLimit,
    BodyUndecodable,
    refusal,
)

__all__ = ["ACCEPT_ENCODING", "MAX_BODY_BYTES", "BodyTooLarge", "BoundedTransport"]


class BodyTooLarge(httpx.ReadError):
    """A response body past MAX_BODY_BYTES (or in an encoding we did not ask for): read no further."""


class _BoundedStream(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream, limit: int, encoding: str) -> None:
        self.inner = inner
        self.counter = BodyCounter(encoding, limit)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        chunks = aiter(self.inner)
        try:
            async for chunk in chunks:
                try:
                    chunk = self.counter.feed(chunk)
                except BodyPastLimit as error:
                    raise BodyTooLarge(str(error)) from None
                except BodyUndecodable as error:
                    raise httpx.DecodingError(str(error)) from None
                if chunk:
                    yield chunk
        finally:  # stopped early: close the connection's reader now, not when the garbage collector finds it
            close = getattr(chunks, "aclose", None)
            if close is not None:
                await close()

    async def aclose(self) -> None:
        await self.inner.aclose()


class BoundedTransport(httpx.AsyncBaseTransport):
    """A transport whose responses yield at most `limit` bytes of (decompressed) body; a body announced larger
    is refused before it is read."""

    def __init__(self, inner: httpx.AsyncBaseTransport | None = None, limit: int = MAX_BODY_BYTES) -> None:
        self.inner = inner or httpx.AsyncHTTPTransport()
        self.limit = limit

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.headers["Accept-Encoding"] = ACCEPT_ENCODING
        response = await self.inner.handle_async_request(request)
        encoding = response.headers.get("content-encoding", "identity").strip().lower() or "identity"
        problem = refusal(encoding, response.headers.get("content-length", ""), self.limit)
        if problem is not None:
            await response.aclose()
            raise BodyTooLarge(problem, request=request)
        headers = [
            (name, value)
            for name, value in response.headers.multi_items()
            if name.lower() not in ("content-encoding", "content-length") or encoding == "identity"
        ]
        return httpx.Response(
            response.status_code,
            headers=headers,
            stream=_BoundedStream(response.stream, self.limit, encoding),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        await self.inner.aclose()
