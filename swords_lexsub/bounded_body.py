"""How much of a server's answer is read: at most MAX_BODY_BYTES, counted after decompression (http_client.py wraps
every response stream around a BodyCounter), so an endless body or a gzip bomb is cut off. Bodies are asked for as
gzip or deflate, decompressed with a bound on each step's output; any other encoding is refused."""

from __future__ import annotations

import zlib

MAX_BODY_BYTES = 16 * 2**20  # an API's JSON answer is a few kB; 16 MB is already a server misbehaving
ACCEPT_ENCODING = "gzip, deflate"


class BodyPastLimit(Exception):
    """A body past the limit, or in an encoding that was not asked for: read no further."""


class BodyUndecodable(Exception):
    """A body announced as gzip or deflate that is not."""


def refusal(encoding: str, length: str, limit: int = MAX_BODY_BYTES) -> str | None:
    """Why an answer is refused before its body is read (from its Content-Encoding and Content-Length), or None."""
    encoding = encoding.strip().lower() or "identity"
    if encoding not in ("identity", "gzip", "deflate"):
        return f"the response body is in an encoding that was not asked for ({encoding[:40]!r})"
    if encoding == "identity" and length.strip().isdigit() and int(length) > limit:
        return f"the response body announces {int(length):,} bytes, past {limit / 2**20:g} MB"
    return None


class BodyCounter:
    """Counts a body's bytes as they arrive, decompressing gzip or deflate (zlib-wrapped or raw, as servers send
    either) with bounded output; raises BodyPastLimit once the decoded body passes `limit`."""

    def __init__(self, encoding: str = "identity", limit: int = MAX_BODY_BYTES) -> None:
        self.encoding = encoding.strip().lower() or "identity"
        self.limit = limit
        self.total = 0
        self.first = True
        self.zlib = None
        if self.encoding != "identity":
            self.zlib = zlib.decompressobj(zlib.MAX_WBITS | 16 if self.encoding == "gzip" else zlib.MAX_WBITS)

    def too_large(self) -> BodyPastLimit:
        return BodyPastLimit(f"the response body passed {self.limit / 2**20:g} MB (read no further)")

    def feed(self, data: bytes) -> bytes:
        """The decoded bytes of the next chunk of the body."""
        if self.zlib is not None:
            room = self.limit - self.total
            try:
                output = self.zlib.decompress(data, room + 1)
            except zlib.error:
                if not (self.first and self.encoding == "deflate"):
                    raise BodyUndecodable(f"the response body is not valid {self.encoding} data") from None
                self.zlib = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate
                output = self.zlib.decompress(data, room + 1)
            if self.zlib.unconsumed_tail:  # more output was pending past the limit
                raise self.too_large()
            data = output
        self.first = False
        self.total += len(data)
        if self.total > self.limit:
            raise self.too_large()
        return data
