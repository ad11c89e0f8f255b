"""Requests run on the caller's own event loop and taken as they complete: the loop the prompted LLM (prompted.py) and
the LLM judge (judge/llm.py) share. The loop runs only while the caller waits for the next answers, so a caller
that writes each answer to its journal between waits needs no thread.

A signal handler's exception (Ctrl-C, or `swords`'s SIGTERM handler) may be raised inside a request, that is inside
the loop: the loop's run then ends with that exception, while the callback that stops the loop once the awaited
requests finish stays queued and would stop the next run early ("Event loop stopped before Future completed",
which replaced the one-line "terminated" with a traceback). Every run here is therefore `run_to_end`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Coroutine, Iterable, Iterator
from typing import Any

STALE_STOPS = 3  # an interrupted run leaves at most one stop queued; a few more tries bound the wait


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


def in_completion_order(
    loop: asyncio.AbstractEventLoop, coroutines: Iterable[Coroutine[Any, Any, Any]]
) -> Iterator[set[asyncio.Task]]:
    """Starts every coroutine as a task and yields the tasks that finished (with a result or an exception) at each
    wait. When the caller stops early (an error, a break, an interrupt), the unfinished tasks are cancelled and
    awaited before the generator returns: no request outlives the call."""
    pending = {loop.create_task(coroutine) for coroutine in coroutines}
    try:
        while pending:
            done, pending = run_to_end(loop, asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED))
            yield done
    finally:
        for task in pending:
            task.cancel()
        if pending:
            run_to_end(loop, asyncio.gather(*pending, return_exceptions=True))
