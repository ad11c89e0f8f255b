"""Requests run on the caller's own event loop and taken as they complete: the loop the prompted LLM (prompted.py) and
the LLM judge (judge/llm.py) share. The loop runs only while the caller waits for the next answers, so a caller
that writes each answer to its journal between waits needs no thread.

A signal handler's exception (Ctrl-C, or `swords`'s SIGTERM handler) may be raised anywhere inside the loop, which
leaves two kinds of wreckage, both seen under load:
- the callback that stops the loop once the awaited requests finish may already be queued, and would stop the next
  run early ("Event loop stopped before Future completed" replaced the one-line "terminated"): every run here is
  `run_to_end`, which runs again past it;
- raised inside a connection's own callback, it leaves that connection broken, and httpcore's clean-up of a
  cancelled request (shielded from cancellation) can then wait on it forever (a SIGTERMed run was found still
  waiting 45 minutes later): the clean-up of what is left (`settle`) and the client's close (`close_within`) wait
  at most SETTLE_SECONDS, then abandon what has not finished (the process is stopping).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Coroutine, Iterable, Iterator
from typing import Any

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
    """Run `coroutine` (a client's close) for at most SETTLE_SECONDS, then abandon it; its exception is not raised
    (a close that fails leaves nothing to keep)."""
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
    """Starts every coroutine as a task and yields the tasks that finished (with a result or an exception) at each
    wait. When the caller stops early (an error, a break, an interrupt), the unfinished tasks are cancelled and
    settled before the generator returns."""
    pending = {loop.create_task(coroutine) for coroutine in coroutines}
    try:
        while pending:
            done, pending = run_to_end(loop, asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED))
            yield done
    finally:
        settle(loop, pending)
