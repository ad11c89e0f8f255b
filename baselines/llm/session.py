"""One run's requests to an LLM server, from start to close: the embedded engine (--local), the client and the event
loop the requests run on, taken as they complete (the prompted LLM and the LLM judge each hold one). The loop runs
only while the caller waits for the next answers, so a caller journalling each answer needs no thread.

A signal handler's exception (Ctrl-C, `swords`'s SIGTERM handler) may be raised anywhere inside the loop, leaving two
kinds of wreckage, both seen under load: the callback that stops the loop may already be queued and would stop the
next run early ("Event loop stopped before Future completed"): every run here is `run_to_end`, which runs again past
it; and raised inside a connection's callback, it leaves the connection broken, and httpcore's shielded clean-up of
a cancelled request can then wait forever (a SIGTERMed run was found waiting 45 minutes later): `settle` and
`close_within` wait at most SETTLE_SECONDS, then abandon what has not finished (the process is stopping).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator
from contextlib import closing
from typing import TYPE_CHECKING, Any

from swords_baselines.llm.client import LLMClient, is_openai
from swords_baselines.llm.errors import ServerDown
from swords_baselines.llm.slots import server_slots, slots_line
from swords_lexsub.errors import SwordsError

if TYPE_CHECKING:
    from swords_baselines.llm.batch import Outputs
    from swords_baselines.llm.engine import LocalEngine

STALE_STOPS = 3  # an interrupted run leaves at most one stop queued; a few more tries bound the wait
SETTLE_SECONDS = 5.0  # a cancelled request's clean-up takes milliseconds; one that takes longer will never end


def run_to_end(loop: asyncio.AbstractEventLoop, awaitable: Awaitable[Any]) -> Any:
    """`loop.run_until_complete(awaitable)`, run again when a stop left queued by an interrupted run ended it early."""
    future = asyncio.ensure_future(awaitable, loop=loop)
    for _ in range(STALE_STOPS):
        try:
            return loop.run_until_complete(future)
        except RuntimeError:
            if future.done():
                raise
    return loop.run_until_complete(future)


def _abandon(loop: asyncio.AbstractEventLoop) -> None:
    # Left running on purpose: without this, each would be reported on stderr ("Task was destroyed but it is
    # pending!") when collected, after the command's own one line.
    loop.set_exception_handler(lambda loop, context: None)


def settle(loop: asyncio.AbstractEventLoop, tasks: set[asyncio.Task]) -> None:
    """Cancel `tasks` and wait up to SETTLE_SECONDS for them to finish; abandon those that do not."""
    for task in tasks:
        task.cancel()
    if tasks:
        done, left = run_to_end(loop, asyncio.wait(tasks, timeout=SETTLE_SECONDS))
        for task in done:
            if not task.cancelled():
                task.exception()  # retrieved, so not reported on stderr when collected
        if left:
            _abandon(loop)


def close_within(loop: asyncio.AbstractEventLoop, coroutine: Coroutine[Any, Any, Any]) -> None:
    """Run `coroutine` (a client's close) for at most SETTLE_SECONDS, then abandon it; its exception is dropped."""
    task = loop.create_task(coroutine)
    done, _ = run_to_end(loop, asyncio.wait({task}, timeout=SETTLE_SECONDS))
    if done:
        if not task.cancelled():
            task.exception()
    else:
        task.cancel()
        _abandon(loop)


def in_completion_order(
    loop: asyncio.AbstractEventLoop, coroutines: Iterable[Coroutine[Any, Any, Any]]
) -> Iterator[set[asyncio.Task]]:
    """Every coroutine as a task, those finished yielded at each wait; stopped early, the rest are settled."""
    pending = {loop.create_task(coroutine) for coroutine in coroutines}
    try:
        while pending:
            done, pending = run_to_end(loop, asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED))
            yield done
    finally:
        settle(loop, pending)


class LLMSession:
    """Making one does no I/O; `start(...)` makes the client, `completed(coroutines, command)` runs requests."""

    def __init__(self, engine: LocalEngine | None = None) -> None:
        self.engine = engine
        self.client: LLMClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self, local_identity: Callable[[LocalEngine], str] | None = None, **client_options) -> LLMClient:
        """Start the engine, if any (cached under `local_identity(engine)`: its port changes), and make the client."""
        if self.engine is not None:
            client_options["base_url"] = self.engine.start()
            client_options["direct"] = True
            client_options["cache_identity"] = local_identity(self.engine) if local_identity else None
        self.client = LLMClient(**client_options)
        return self.client

    def fit_to_slots(self) -> str | None:
        """Once, before the first request (not to OpenAI's nor the embedded engine, whose slots are known): no more
        at once than the server's slots (slots.py); the line saying so, or None when it does not say."""
        client = self.client
        if self.engine is not None or is_openai(client.base_url):
            return None
        slots = server_slots(client.base_url, client.api_key())
        if slots is None:
            return None
        client.concurrency = min(client.concurrency, slots)
        return slots_line(client.public_base_url, slots, client.concurrency)

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        # One loop for the whole run, so the HTTP connection pool survives from batch to batch.
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop

    def run(self, awaitable: Any) -> Any:
        """One awaitable run to its end on the session's loop; stopped by an exception (Ctrl-C, SIGTERM), it is
        cancelled and settled, else Python would print "Task exception was never retrieved" after the one line."""
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
        """Each coroutine's result as it completes; when one raised, the results finished with it are yielded first,
        then a SwordsError `command: message` (credentials removed; `after_down()` after a ServerDown's)."""
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


class Served:
    """What the LLM and the judge share: the session's engine and client, a batch file's answers (`answer_from`)."""

    session: LLMSession
    imported: Outputs | None = None  # the batch output file the answers come from

    @property
    def engine(self) -> LocalEngine | None:
        """The embedded engine (--local), else None."""
        return self.session.engine

    @property
    def client(self) -> LLMClient | None:
        return self.session.client

    def answer_from(self, outputs: Outputs) -> None:
        """Answer from a batch output file (llm/batch.read_outputs) instead of the server."""
        self.imported = outputs
