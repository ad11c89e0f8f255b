"""The event loop the prompted LLM and the judge share (baselines/llm/session.py) when a signal handler's exception
lands inside a request. Two faults, both found under load: `swords run` under SIGTERM exited 1 with "Event loop
stopped before Future completed" instead of its one line (CI; 2 runs in 6), because the interrupted run left its
stop callback queued; and a SIGTERMed run still waited 45 minutes later on the clean-up of a request whose
connection the interrupt had broken (httpcore's shielded close). Here the interrupt is raised at each step of the
loop in turn, so the step where a request had just finished (the first fault) is among them, deterministically; and
a request whose clean-up never ends stands for the broken connection."""

from __future__ import annotations

import asyncio
import gc
import time

import pytest

from swords_baselines.llm import session
from swords_baselines.llm.session import close_within, in_completion_order, run_to_end
from swords_lexsub.cli import Terminated


async def answered() -> str:
    return "answer"


async def waiting() -> None:
    await asyncio.sleep(30)


async def never_cleaned_up() -> None:
    """A request whose clean-up, once cancelled, never ends (as a shielded close on a broken connection)."""
    try:
        await asyncio.sleep(30)
    except asyncio.CancelledError:
        await asyncio.Event().wait()


async def interrupted(steps: int) -> None:
    for _ in range(steps):
        await asyncio.sleep(0)
    raise Terminated()  # what swords's SIGTERM handler raises wherever the main thread is


@pytest.mark.parametrize("steps", range(8))
def test_an_interrupt_at_any_step_leaves_as_itself_and_no_request_outlives_it(steps):
    loop = asyncio.new_event_loop()
    try:
        batches = in_completion_order(loop, [answered(), interrupted(steps), waiting()])
        with pytest.raises(Terminated):
            for _ in batches:
                pass
        assert not asyncio.all_tasks(loop)  # every request finished or cancelled
        assert run_to_end(loop, answered()) == "answer"  # the loop still serves the client's close
    finally:
        loop.close()


def test_results_come_in_batches_of_what_finished():
    loop = asyncio.new_event_loop()
    try:
        batches = list(in_completion_order(loop, [answered(), answered()]))
        assert sum(len(batch) for batch in batches) == 2
        assert all(task.result() == "answer" for batch in batches for task in batch)
    finally:
        loop.close()


def test_a_caller_that_stops_early_cancels_the_rest():
    loop = asyncio.new_event_loop()
    try:
        batches = in_completion_order(loop, [answered(), waiting(), waiting()])
        next(batches)
        batches.close()
        assert not asyncio.all_tasks(loop)  # the two waiting requests cancelled, not left pending
    finally:
        loop.close()


@pytest.mark.parametrize("steps", [0, 3])
def test_a_clean_up_that_never_ends_is_abandoned_after_the_bound_and_the_interrupt_still_leaves(
    steps, monkeypatch, caplog
):
    monkeypatch.setattr(session, "SETTLE_SECONDS", 0.5)
    loop = asyncio.new_event_loop()
    started = time.monotonic()
    with pytest.raises(Terminated):
        for _ in in_completion_order(loop, [answered(), never_cleaned_up(), interrupted(steps)]):
            pass
    close_within(loop, asyncio.Event().wait())  # a client's close that never ends: abandoned too
    loop.close()
    assert time.monotonic() - started < 3
    gc.collect()  # the abandoned tasks collected: not reported (on stderr, after the command's one line)
    assert not [record.getMessage() for record in caplog.records if record.name == "asyncio"]
