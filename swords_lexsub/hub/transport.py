"""The transport huggingface_hub's client uses while publishing (session.py installs it), under http_client.py's
bounded reading: each request gets REQUEST_SECONDS of wall time, connect to last byte, within what is left of
PUBLISH_SECONDS, then its connection is shut (a socket's timeout counts each read alone: a byte a second never trips
it). After the first request given up, every later one fails at once the same way: retries cannot restart the wait."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator

from swords_lexsub.errors import SwordsError
from swords_lexsub.terminal import shown

REQUEST_SECONDS = 60.0  # one request, from connecting to the answer's last byte
PUBLISH_SECONDS = 600.0  # a whole `swords hub publish` (three repositories) or `swords data publish`
# Each can be set in the environment (a slow link, a test).
REQUEST_SECONDS_VARIABLE = "SWORDS_HUB_REQUEST_SECONDS"
PUBLISH_SECONDS_VARIABLE = "SWORDS_HUB_PUBLISH_SECONDS"
MAX_SECONDS = 86400.0
# huggingface_hub retries these answers (and lost connections), six tries in all.
RETRIED_STATUSES = (408, 429, 500, 502, 503, 504)
ATTEMPTS_IN_A_ROW = 6


class HubFailure(Exception):
    """A request the client gave up (past its time, an answer past the limit): never retried."""


def _seconds(variable: str, default: float) -> float:
    text = os.environ.get(variable, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= MAX_SECONDS:
        raise SwordsError(f"{variable}={shown(text[:40])}: not a number of seconds above 0 and at most {MAX_SECONDS:g}")
    return value


class HubLimits:
    """One publish's time (from now) and each request's, and the first request it gave up."""

    def __init__(self) -> None:
        self.seconds = _seconds(PUBLISH_SECONDS_VARIABLE, PUBLISH_SECONDS)
        self.request_seconds = _seconds(REQUEST_SECONDS_VARIABLE, REQUEST_SECONDS)
        self.deadline = time.monotonic() + self.seconds
        self.failure: str | None = None
        self.failed_in_a_row: dict[str, int] = {}  # method and URL -> failures since its last answer

    def give_up(self, reason: str) -> HubFailure:
        if self.failure is None:
            self.failure = reason
        return HubFailure(self.failure)

    def count_failure(self, what: str, request: str, reason: str) -> None:
        """A request that failed as huggingface_hub retries; as often in a row as it tries, later requests fail at
        once (its retries of a commit in smaller parts would start over: seven times 23 s for a 502)."""
        self.failed_in_a_row[request] = self.failed_in_a_row.get(request, 0) + 1
        if self.failed_in_a_row[request] >= ATTEMPTS_IN_A_ROW:
            self.give_up(f"{what}: {reason}, {ATTEMPTS_IN_A_ROW} times in a row")


class _Watch:
    """One request's wall-clock limit: at `ends` its socket is shut down, waking the read or write it waits in."""

    def __init__(self, ends: float, late: str) -> None:
        self.late = late  # how the time ran out: "within 60 s", "before the publish's 600 s were over"
        self.lock = threading.Lock()
        self.sock: socket.socket | None = None
        self.fired = self.done = False
        self.timer = threading.Timer(max(0.0, ends - time.monotonic()), self._fire)
        self.timer.daemon = True
        self.timer.start()

    def trace(self, event: str, info: dict) -> None:
        """httpcore's trace extension: the connection's socket, once connected (and again after TLS)."""
        if event.endswith(("connect_tcp.complete", "start_tls.complete")):
            stream = info.get("return_value")
            with self.lock:
                self.sock = stream.get_extra_info("socket") if stream is not None else None
                if self.fired:
                    self._shut()

    def _fire(self) -> None:
        with self.lock:
            if not self.done:
                self.fired = True
                self._shut()

    def _shut(self) -> None:
        if self.sock is not None:
            # The plain socket's shutdown, also under TLS; a closed socket has no descriptor left to reuse.
            with contextlib.suppress(OSError):
                socket.socket.shutdown(self.sock, socket.SHUT_RDWR)

    def finish(self) -> None:
        with self.lock:
            self.done = True
        self.timer.cancel()


def refuse(limits: HubLimits) -> Callable[[object, str], HubFailure]:
    """The bounded client's refusal of an answer (past the limit, an encoding not asked for): the publish gives up."""

    def refused(request, reason: str) -> HubFailure:
        return limits.give_up(f"{request.method} {request.url.path}: {reason}")

    return refused


def transport_class(http):
    """The transport class for `http` (httpx or httpx2, whichever huggingface_hub uses)."""

    class WatchedStream(http.SyncByteStream):
        def __init__(self, inner, watch: _Watch, fail: Callable[[str], HubFailure]) -> None:
            self.inner, self.watch, self.fail = inner, watch, fail

        def __iter__(self) -> Iterator[bytes]:
            try:
                yield from self.inner
            except Exception:
                if self.watch.fired:
                    raise self.fail(f"no whole answer {self.watch.late}") from None
                raise

        def close(self) -> None:
            self.watch.finish()
            self.inner.close()

    class HubTransport(http.BaseTransport):
        """Every request bounded in wall time (see the module's docstring)."""

        def __init__(self, limits: HubLimits, inner) -> None:
            self.limits, self.inner = limits, inner

        def handle_request(self, request):
            limits = self.limits
            what, retried = f"{request.method} {request.url.path}", f"{request.method} {request.url}"

            def fail(reason: str) -> HubFailure:
                return limits.give_up(f"{what}: {reason}")

            if limits.failure is not None:
                raise HubFailure(limits.failure)
            now = time.monotonic()
            if now >= limits.deadline:
                raise fail(f"not started, the publish's {limits.seconds:g} s are over")
            ends = min(now + limits.request_seconds, limits.deadline)
            seconds = ends - now
            asked = request.extensions.get("timeout") or {}
            request.extensions["timeout"] = {
                k: min(seconds, asked.get(k) or seconds) for k in ("connect", "read", "write", "pool")
            }
            late = (
                f"before the publish's {limits.seconds:g} s were over"
                if ends == limits.deadline
                else f"within {limits.request_seconds:g} s"
            )
            watch = _Watch(ends, late)
            request.extensions["trace"] = watch.trace
            try:
                response = self.inner.handle_request(request)
            except Exception as error:
                watch.finish()
                if watch.fired or time.monotonic() >= ends:
                    raise fail(f"no answer {late}") from None
                limits.count_failure(what, retried, str(error) or type(error).__name__)
                raise
            if response.status_code in RETRIED_STATUSES:
                limits.count_failure(what, retried, f"HTTP {response.status_code} {response.reason_phrase}")
            else:
                limits.failed_in_a_row.pop(retried, None)
            wait = response.headers.get("retry-after", "").strip()
            if response.status_code in (429, 503) and wait.isdigit() and now + int(wait) > limits.deadline:
                watch.finish()
                response.close()
                raise fail(f"HTTP {response.status_code}, asked to wait {int(wait):,} s, past the publish's deadline")
            return http.Response(
                response.status_code,
                headers=response.headers,
                extensions=response.extensions,
                stream=WatchedStream(response.stream, watch, fail),
                request=request,
            )

        def close(self) -> None:
            self.inner.close()

    return HubTransport
