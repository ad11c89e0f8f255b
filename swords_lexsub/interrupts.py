"""Ctrl-C and SIGTERM (as `Terminated`, a KeyboardInterrupt) stop a `swords` command where it is, even where Python
swallows exceptions: raised in a weakref callback, a `__del__` or a GC callback, Python prints "Exception ignored in
..." and the command would exit 0 (seen in CI). `handled_interrupts` delivers such an interrupt again a moment later,
and `raise_pending` raises one still on its way when the command's work returns."""

from __future__ import annotations

import _thread
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator

# A command that resumes where an interrupted run stopped sets `resumes=True` in its parser's defaults (`swords
# run`, `swords judge llm`); its stop line then says that the same command again resumes.
RESUME_HINT = "; run the same command again to resume"

# Long enough for the callback that swallowed the interrupt to return (they are short); short beside any command.
REDELIVERY_SECONDS = 0.05


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: what is finished is kept, temporary files go, one line says so."""


def stopped_line(interrupt: KeyboardInterrupt, resumes: bool) -> str:
    """The one line a command stopped by Ctrl-C or SIGTERM prints; for a command that resumes, that rerunning does."""
    line = "swords: terminated (SIGTERM)" if isinstance(interrupt, Terminated) else "swords: interrupted"
    kept = "; finished work is kept" if resumes or isinstance(interrupt, Terminated) else ""
    return line + kept + (RESUME_HINT if resumes else "")


def _terminate(signum: int, frame: object) -> None:
    raise Terminated()


class _Redelivery:
    """One swallowed interrupt, delivered again by a helper thread after REDELIVERY_SECONDS unless taken first."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.sent = self.taken = False
        self.lock = threading.Lock()
        self.timer = threading.Timer(REDELIVERY_SECONDS, self._send)
        self.timer.daemon = True

    def _send(self) -> None:
        with self.lock:
            if self.taken:
                return
            self.sent = True
        # The signal's handler runs in the main thread at its next instruction (Terminated, or KeyboardInterrupt).
        _thread.interrupt_main(self.signum)

    def take(self) -> bool:
        """Stop the helper; whether the interrupt was still to be delivered (then the caller raises it)."""
        with self.lock:
            self.taken = True
            self.timer.cancel()
            return not self.sent


_pending: list[_Redelivery] = []


def _redeliver_swallowed(previous_hook):
    def hook(unraisable) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            previous_hook(unraisable)
            return
        # Not raised here: this hook runs inside the code that swallowed it, which would swallow it again.
        redelivery = _Redelivery(signal.SIGTERM if isinstance(unraisable.exc_value, Terminated) else signal.SIGINT)
        _pending.append(redelivery)
        redelivery.timer.start()

    return hook


def raise_pending() -> None:
    """Raise now an interrupt that was swallowed and is not delivered yet (the command's work has just returned)."""
    while _pending:
        redelivery = _pending.pop()
        if redelivery.take():
            raise Terminated() if redelivery.signum == signal.SIGTERM else KeyboardInterrupt()


@contextlib.contextmanager
def handled_interrupts() -> Iterator[None]:
    """SIGTERM raises `Terminated`, and an interrupt swallowed where Python ignores exceptions comes again."""
    previous_handler = signal.signal(signal.SIGTERM, _terminate)
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _redeliver_swallowed(previous_hook)
    try:
        yield
    finally:
        sys.unraisablehook = previous_hook
        signal.signal(signal.SIGTERM, previous_handler)
        while _pending:
            _pending.pop().take()
