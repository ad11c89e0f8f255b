"""The circuit breaker: when a server is down, stop sending to it instead of retrying every target (openai's client
has none: each request would spend its own retries on a dead server)."""

from __future__ import annotations

import time
from collections.abc import Callable

from swords_baselines.llm.errors import ServerDown

DOWN_AFTER_FAILURES = 8  # server-side failures in a row (no answer in between) that mean the server is down
DOWN_AFTER_SECONDS = 120.0  # or: failures in a row for this long (low concurrency, long timeouts)


class CircuitBreaker:
    """A server is down after DOWN_AFTER_FAILURES server-side failures in a row, or failures for DOWN_AFTER_SECONDS;
    only requests sent after the last answer count (not those that timed out in a busy server's queue)."""

    def __init__(
        self,
        failures: int = DOWN_AFTER_FAILURES,
        seconds: float = DOWN_AFTER_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.failures, self.seconds, self.clock = failures, seconds, clock
        self.last_answer = float("-inf")
        self.streak, self.first_failure = 0, None
        self.tripped: str | None = None  # the message, once tripped

    def check(self) -> None:
        if self.tripped:
            raise ServerDown(self.tripped)

    def trip(self, message: str) -> None:
        """Take the server as down now, for the reason given (e.g. it asks to wait longer than any run waits)."""
        self.tripped = self.tripped or message
        self.check()

    def answered(self) -> None:
        self.last_answer = self.clock()
        self.streak, self.first_failure = 0, None

    def failed(self, sent_at: float, describe: Callable[[int], str]) -> None:
        """Record a server-side failure of a request sent at `sent_at`; trip (and raise) if the server is down."""
        if sent_at < self.last_answer or self.tripped:
            self.check()
            return
        now = self.clock()
        self.streak += 1
        self.first_failure = now if self.first_failure is None else self.first_failure
        if self.streak >= self.failures or (self.streak >= 2 and now - self.first_failure >= self.seconds):
            self.tripped = describe(self.streak)
            self.check()
