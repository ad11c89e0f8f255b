"""Which failed requests are retried, and how long to wait: exponential backoff with jitter, or exactly what a
Retry-After header asks. 429, 5xx, 408/409, timeouts, connection errors and malformed bodies are retried; 400/422
fail the one target; 401/403/404 stop the run. openai's own retries are off: they say no wait as it starts, count
nothing for a circuit breaker, and replace a Retry-After past 2 minutes with 8 s (here the run stops instead).
"""

from __future__ import annotations

import email.utils
import os
import random
import ssl
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from swords_baselines.llm.errors import FatalAPIError, TargetFailed
from swords_lexsub.http_client import BodyTooLarge, ProxyUnusable, proxy_of
from swords_lexsub.proxies import Proxy

MAX_BACKOFF = 60.0  # seconds: the longest exponential wait between two attempts
# Seconds one request may wait between its attempts, in all: a Retry-After past what is left stops the run (the
# client trips the breaker) instead of holding it silent for hours; backoff waits are cut to what is left.
MAX_TOTAL_WAIT = 120.0

_HEADERS_SEEN = "swords_response_headers"


@dataclass(frozen=True)
class Retryable:
    """A failure worth another attempt: what to say, the wait the server asked (None: none), whether the server is
    at fault (the circuit breaker counts it), and who failed when not the server alone (a proxy)."""

    message: str
    retry_after: float | None
    server_side: bool
    who: str | None = None


@dataclass
class Backoff:
    """The wait before each retry: `first` seconds, doubling up to MAX_BACKOFF, with "equal jitter" (at least half
    the step: waits still grow, and requests that failed together do not retry in lockstep)."""

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
        with suppress(ValueError):
            return max(0.0, float(milliseconds) / 1000)
    value = headers.get("retry-after")
    if not value:
        return None
    with suppress(ValueError):
        return max(0.0, float(value))
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def classify(error: Exception, timeout: float, where: str, redact: Callable[[str], str]) -> Retryable:
    """A failed request's exception as a Retryable, else FatalAPIError or TargetFailed raised (`where`: the server)."""
    import openai

    if isinstance(error.__cause__, ProxyUnusable) or isinstance(error, ProxyUnusable):
        raise FatalAPIError(redact(str(error.__cause__ or error))) from None
    request = getattr(error, "request", None)
    proxy = proxy_of(request)
    via = f"{where} through {proxy}" if proxy is not None else where
    if isinstance(error, openai.APITimeoutError):
        headers = request.extensions.get(_HEADERS_SEEN) if request is not None else None
        if headers is not None:
            status, length = headers
            announced = f"{length} bytes" if length is not None else "a body"
            return Retryable(
                f"the response stalled: HTTP {status} announced {announced}, then nothing came for "
                f"{timeout:g} s (timed out)",
                None,
                True,
            )
        who = f"the server at {where}, through {proxy}," if proxy is not None else None
        return Retryable(f"timed out after {timeout:g} s with no response from {via}", None, True, who)
    if isinstance(error, openai.APIConnectionError):
        return _unanswered(error, where, proxy, redact)
    if isinstance(error, openai.APIStatusError):
        status = error.status_code
        message = redact(f"HTTP {status}: {error.message}")
        if status == 407 and proxy is not None:
            raise FatalAPIError(_credentials_asked(proxy)) from None
        if status in (401, 403, 404):
            raise FatalAPIError(f"{message} ({where})") from None
        if status == 429:
            return Retryable(message, retry_after_seconds(error.response.headers), False)
        if status >= 500 or status in (408, 409):
            return Retryable(message, retry_after_seconds(error.response.headers), True)
        raise TargetFailed(message, status) from None
    raise FatalAPIError(redact(f"unexpected {type(error).__name__}: {error}")) from None


def described(error: Exception, timeout: float, where: str, redact: Callable[[str], str]) -> str:
    """A failed request's exception in a few words, as classify says it, retryable or not."""
    import openai

    if not isinstance(error, openai.APIError):
        text = str(error).strip()
        return redact(text.splitlines()[0] if text else type(error).__name__)
    try:
        return classify(error, timeout, where, redact).message
    except (FatalAPIError, TargetFailed) as said:
        return redact(str(said))


def _unanswered(error: Exception, where: str, proxy: Proxy | None, redact: Callable[[str], str]) -> Retryable:
    """What a request that got no whole answer met (APIConnectionError): a proxy at fault named, an answer cut short
    or malformed said as such, not as "cannot connect"."""
    import httpx

    cause = error.__cause__
    detail = redact(str(cause or error)) or type(cause or error).__name__
    if isinstance(cause, BodyTooLarge):
        return Retryable(str(cause), None, True)
    if proxy is not None and isinstance(cause, httpx.ProxyError):  # the proxy's answer to CONNECT
        if detail.startswith("407"):
            raise FatalAPIError(_credentials_asked(proxy)) from None
        who = f"the server at {where}, through {proxy},"  # the proxy answered: what is behind it did not
        return Retryable(f"{proxy} opened no tunnel to {where} ({detail})", None, True, who)
    tls = _tls_failure(cause)
    to_proxy = proxy is not None and (tls is None or urlsplit(proxy.url).scheme.lower() == "https")
    if to_proxy and isinstance(cause, httpx.ConnectError):  # a tunnel's TLS to the server is the server's
        if tls is not None:  # TLS to a proxy that speaks plain HTTP, or whose certificate is not trusted
            raise FatalAPIError(
                f"{proxy}: its TLS handshake failed ({redact(tls)}); a proxy that speaks plain HTTP is written "
                f"http://… in {proxy.variable}"
            ) from None
        return Retryable(f"cannot connect to {proxy}: {_socket_reason(cause) or detail}", None, True, str(proxy))
    via = f"{where} through {proxy}" if proxy is not None else where
    if isinstance(cause, httpx.RemoteProtocolError | httpx.DecodingError):
        if "complete message body" in detail:
            return Retryable(f"the response was cut short: {detail}", None, True)
        if "without sending a response" in detail:
            return Retryable(f"{via} closed the connection without answering", None, True)
        return Retryable(f"the answer from {via} was malformed ({detail})", None, True)
    reason = _socket_reason(cause) if isinstance(cause, httpx.ConnectError) else None
    return Retryable(f"cannot connect to {via} ({reason or detail})", None, True)


def _credentials_asked(proxy: Proxy) -> str:
    """A proxy's 407: it wants credentials, or refuses the ones its variable gives."""
    if "@" in urlsplit(proxy.url).netloc:
        return f"{proxy} refuses the user and password {proxy.variable} gives (HTTP 407)"
    return f"{proxy} asks for a user and password (HTTP 407): write them in {proxy.variable} as http://user:password@host:port"


def _tls_failure(error: BaseException | None) -> str | None:
    """The TLS error behind a failed connection, if that is what it was."""
    while error is not None:
        if isinstance(error, ssl.SSLError):
            return error.reason or str(error)
        error = error.__cause__ or error.__context__
    return None


def _socket_reason(error: BaseException | None) -> str | None:
    """What the socket said ("Connection refused"), under anyio's "All connection attempts failed"."""
    while error is not None:
        if isinstance(error, OSError) and error.errno:
            return os.strerror(error.errno)
        error = error.__cause__ or error.__context__
    return None


async def note_headers(response) -> None:
    """httpx hook: the headers noted on the request, to tell a timeout reading the body from no answer at all."""
    length = response.headers.get("content-length")
    response.request.extensions[_HEADERS_SEEN] = (
        response.status_code,
        int(length) if length and length.isdigit() else None,
    )
