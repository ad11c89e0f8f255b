"""Which failed requests are retried, and how long to wait: exponential backoff with jitter, exactly what a
Retry-After header asks for when the server gives one.

429, 5xx, 408/409, timeouts, connection errors and malformed bodies are retried; 400/422 fail the one
target; 401/403/404 stop the run. The client's own retries are switched off so that every policy is here,
explicit and tested.

Kept over openai's own retries: they say no wait as it starts, count nothing for a circuit breaker, and replace a
Retry-After past 2 minutes with their 8 s backoff (here the run stops instead); their Retry-After parser is private.
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from swords_baselines.llm.errors import FatalAPIError, TargetFailed

MAX_BACKOFF = 60.0  # seconds: the longest exponential wait between two attempts
# Seconds one request may spend waiting between its attempts, in all: the circuit breaker's bound on failures
# in a row. A Retry-After past what is left of it stops the run (the client trips the breaker) instead of
# holding it silent for hours; backoff waits are cut to what is left.
MAX_TOTAL_WAIT = 120.0

_HEADERS_SEEN = "swords_response_headers"


@dataclass(frozen=True)
class Retryable:
    """A failure worth another attempt: what to say, how long the server asked us to wait (None: it did not
    say), and whether the server is at fault (which the circuit breaker counts)."""

    message: str
    retry_after: float | None
    server_side: bool


@dataclass
class Backoff:
    """The wait before each retry: `first` seconds, doubling up to MAX_BACKOFF, with "equal jitter" (at
    least half the step, so waits still grow, while requests that failed together spread out instead of
    retrying in lockstep)."""

    first: float = 1.0
    rng: random.Random = field(default_factory=random.Random)

    def wait(self, attempt: int, retry_after: float | None = None) -> float:
        if retry_after is not None:
            return retry_after  # the server said when: exactly that, no guessing (the client bounds the total)
        step = min(MAX_BACKOFF, self.first * 2**attempt)
        return step / 2 + self.rng.uniform(0, step / 2)


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    """Retry-After as seconds (a number or an HTTP date), or OpenAI's retry-after-ms; None if absent."""
    if headers is None:
        return None
    milliseconds = headers.get("retry-after-ms")
    if milliseconds:
        try:
            return max(0.0, float(milliseconds) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def classify(error: Exception, timeout: float, where: str, redact: Callable[[str], str]) -> Retryable:
    """What a failed request's exception means: a Retryable, or raises FatalAPIError (no request will
    succeed) or TargetFailed (this request never will). `where` is the server's public URL."""
    import openai

    from swords_lexsub.http_client import BodyTooLarge

    if isinstance(error, openai.APITimeoutError):
        headers = _headers_seen(error)
        if headers is not None:
            status, length = headers
            announced = f"{length} bytes" if length is not None else "a body"
            return Retryable(
                f"the response stalled: HTTP {status} announced {announced}, then nothing came for "
                f"{timeout:g} s (timed out)",
                None,
                True,
            )
        return Retryable(f"timed out after {timeout:g} s with no response from {where}", None, True)
    if isinstance(error, openai.APIConnectionError):
        cause = error.__cause__
        if isinstance(cause, BodyTooLarge):
            return Retryable(str(cause), None, True)
        if cause is not None and "complete message body" in str(cause):
            return Retryable(f"the response was cut short: {redact(str(cause))}", None, True)
        detail = redact(str(cause or error)) or type(cause or error).__name__
        return Retryable(f"cannot connect to {where} ({detail})", None, True)
    if isinstance(error, openai.APIStatusError):
        status = error.status_code
        message = redact(f"HTTP {status}: {error.message}")
        if status in (401, 403, 404):
            raise FatalAPIError(f"{message} ({where})") from None
        if status == 429:
            return Retryable(message, retry_after_seconds(error.response.headers), False)
        if status >= 500 or status in (408, 409):
            return Retryable(message, retry_after_seconds(error.response.headers), True)
        raise TargetFailed(message) from None
    raise FatalAPIError(redact(f"unexpected {type(error).__name__}: {error}")) from None


async def note_headers(response) -> None:
    """httpx response hook, run when a response's headers arrive: remembered on the request, so that a
    timeout while reading the body can be told from a server that never answered."""
    length = response.headers.get("content-length")
    response.request.extensions[_HEADERS_SEEN] = (
        response.status_code,
        int(length) if length and length.isdigit() else None,
    )


def _headers_seen(error: Exception) -> tuple[int, int | None] | None:
    request = getattr(error, "request", None)
    return request.extensions.get(_HEADERS_SEEN) if request is not None else None
