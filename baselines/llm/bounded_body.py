"""How much of an LLM server's answer is read: at most MAX_BODY_BYTES of body, counted after decompression.

A completion is a few kB. A server that sends megabytes (one that ignores max_tokens), an endless body or a
gzip bomb is cut off at the limit instead of filling memory: the HTTP client's transport is wrapped so that
every response body (answers and error bodies alike) goes through a counting stream that stops reading at the
limit. Bodies are asked for as gzip or deflate, which are decompressed here chunk by chunk with a bound on
each step's output; any other encoding is refused.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator

import httpx

MAX_BODY_BYTES = 16 * 2**20  # a completion's JSON is a few kB; 16 MB is already a server misbehaving
ACCEPT_ENCODING = "gzip, deflate"


class BodyTooLarge(httpx.ReadError):
    """A response body past MAX_BODY_BYTES (or in an encoding we did not ask for): read no further."""


class _Decoder:
    """gzip or deflate (zlib-wrapped or raw, as servers send either), decompressed with bounded output."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self.zlib = zlib.decompressobj(zlib.MAX_WBITS | 16 if encoding == "gzip" else zlib.MAX_WBITS)
        self.first = True

    def decode(self, data: bytes, room: int) -> tuple[bytes, bool]:
        """Up to `room` + 1 bytes of output for `data`, and whether more output was pending past that."""
        try:
            output = self.zlib.decompress(data, room + 1)
        except zlib.error:
            if not (self.first and self.encoding == "deflate"):
                raise httpx.DecodingError(f"the response body is not valid {self.encoding} data") from None
            self.zlib = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate
            output = self.zlib.decompress(data, room + 1)
        self.first = False
        return output, bool(self.zlib.unconsumed_tail)


class _BoundedStream(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream, limit: int, encoding: str | None) -> None:
        self.inner, self.limit = inner, limit
        self.decoder = _Decoder(encoding) if encoding else None

    def _too_large(self) -> BodyTooLarge:
        return BodyTooLarge(f"the response body passed {self.limit / 2**20:g} MB (read no further)")

    async def __aiter__(self) -> AsyncIterator[bytes]:
        total = 0
        chunks = aiter(self.inner)
        try:
            async for chunk in chunks:
                if self.decoder is not None:
                    chunk, more = self.decoder.decode(chunk, self.limit - total)
                    if more:
                        raise self._too_large()
                total += len(chunk)
                if total > self.limit:
                    raise self._too_large()
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
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        length = response.headers.get("content-length", "")
        problem = None
        if encoding not in ("identity", "gzip", "deflate"):
            problem = f"the response body is in an encoding that was not asked for ({encoding[:40]!r})"
        elif encoding == "identity" and length.isdigit() and int(length) > self.limit:
            problem = f"the response body announces {int(length):,} bytes, past {self.limit / 2**20:g} MB"
        if problem is not None:
            await response.aclose()
            raise BodyTooLarge(problem, request=request)
        headers = [(name, value) for name, value in response.headers.multi_items()
                   if name.lower() not in ("content-encoding", "content-length") or encoding == "identity"]
        return httpx.Response(
            response.status_code,
            headers=headers,
            stream=_BoundedStream(response.stream, self.limit, None if encoding == "identity" else encoding),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        await self.inner.aclose()
