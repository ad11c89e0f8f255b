"""One run's requests to an LLM server, from start to close: the embedded engine (--local), the client and the event
loop the requests run on. The prompted LLM (prompted.py) and the LLM judge (judge/llm.py) each hold one and differ
only in the client's settings and in what a local model's answers are cached under.

Closing stops the three in order: the client (waited for at most completion.SETTLE_SECONDS), the loop, the engine's
process.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable, Iterator
from contextlib import closing
from typing import TYPE_CHECKING, Any

from swords_baselines.llm.client import LLMClient
from swords_baselines.llm.completion import close_within, in_completion_order, run_to_end, settle
from swords_baselines.llm.errors import ServerDown
from swords_lexsub.errors import SwordsError

if TYPE_CHECKING:
    from swords_baselines.llm.engine import LocalEngine


class LLMSession:
    """`session = LLMSession(engine)`; `session.start(...)` makes the client; `session.completed(coroutines, command)`
    runs requests; `session.close()`. Making one does no I/O."""

    def __init__(self, engine: LocalEngine | None = None) -> None:
        self.engine = engine
        self.client: LLMClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self, local_identity: Callable[[LocalEngine], str] | None = None, **client_options) -> LLMClient:
        """Start the engine, if any, and make the client (LLMClient's options). Requests go to the engine, whose
        answers are cached under `local_identity(engine)` (it listens on a new port each time), or to the options'
        base_url (through the proxy the environment names for it; the engine's, directly)."""
        if self.engine is not None:
            client_options["base_url"] = self.engine.start()
            client_options["direct"] = True
            client_options["cache_identity"] = local_identity(self.engine) if local_identity else None
        self.client = LLMClient(**client_options)
        return self.client

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        # One loop for the whole run, so the HTTP connection pool survives from batch to batch.
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop

    def run(self, awaitable: Any) -> Any:
        """One awaitable run to its end on the session's loop (a probe before the requests). Stopped by an exception
        (Ctrl-C, SIGTERM), it is cancelled and its end awaited (at most completion.SETTLE_SECONDS): an interrupt
        inside its own step (the client's imports) would otherwise leave it failed with no one to retrieve that, and
        Python would print "Task exception was never retrieved" and a traceback after the command's one line."""
        task = asyncio.ensure_future(awaitable, loop=self.loop)
        try:
            return run_to_end(self.loop, task)
        except BaseException:
            settle(self.loop, {task})
            raise

    def completed(
        self,
        coroutines: Iterable[Coroutine[Any, Any, Any]],
        command: str,
        after_down: Callable[[], str] | None = None,
    ) -> Iterator[Any]:
        """Each coroutine's result as it completes. The loop runs only while this generator waits for the next
        results: while the caller writes one to its journal, requests in flight wait on their sockets. When a
        request raised, the results finished with it are yielded first; then a ServerDown or another SwordsError
        is raised as one SwordsError `command: message` (credentials removed; `after_down()` appended to a
        ServerDown's: what is kept), anything else as it is."""
        with closing(in_completion_order(self.loop, coroutines)) as batches:
            for done in batches:
                # Every exception retrieved first: a caller that stops at one of the results (five targets failed in
                # a row) would leave the rest unretrieved, and Python would print each with its traceback at exit.
                failures = [task.exception() for task in done]
                fatal = next((failure for failure in failures if failure is not None), None)
                for task, failure in zip(done, failures, strict=True):
                    if failure is None:
                        yield task.result()
                if isinstance(fatal, ServerDown):
                    raise SwordsError(f"{command}: {fatal}{after_down() if after_down else ''}") from None
                if isinstance(fatal, SwordsError):
                    raise SwordsError(f"{command}: {self.client.redact(str(fatal))}") from None
                if fatal is not None:
                    raise fatal

    def close(self) -> None:
        """Close the client, the loop and the engine; a session never started closes too."""
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            if self.client is not None:
                close_within(loop, self.client.aclose())
            loop.close()
        if self.engine is not None:
            self.engine.stop()
