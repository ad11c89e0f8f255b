"""A server's slots (issue 50): llama.cpp's server, and so `swords llm serve`, decodes one request a slot and queues
the rest, their timeouts running while they wait; 16 requests in flight against one slot were timed out and retried
on a loaded machine (2 of 3 targets). The run asks GET /props once, sends no more than the slots at once, and says
so in one line; a request waiting in the client's own queue is not timed out. A real OpenAI-compatible server on
127.0.0.1 (tests/llm_server.py) answers /props as llama.cpp does and takes its requests one slot at a time; the real
engine's `swords llm serve` is in test_llm_local_runs.py."""

from __future__ import annotations

import time

import pytest

from swords_baselines.llm.slots import server_slots

from ..conftest import free_port
from ..llm_server import LLMServer
from . import llm_helpers
from .llm_helpers import make_llm, recorded_rows, run_system

key = llm_helpers.key  # a fresh fake API key in its own environment variable (in place of conftest.py's)

# Each request takes 1.5 s at the server and may take 2.5 s: with 16 in flight to one slot, the second target's
# request waited 1.5 s in the server's queue and timed out (the client's timeout counts from when it is sent).
SECONDS_A_REQUEST, TIMEOUT = 1.5, 2.5


@pytest.mark.parametrize(
    "slots, props, expected",
    [
        (1, None, 1),  # llama.cpp's /props: total_slots
        (4, None, 4),
        (3, {"default_generation_settings": {"n_ctx": 2048}}, 3),  # an older build: its /slots listed
        (None, {"default_generation_settings": {"n_ctx": 2048}}, 1),  # ... with /slots off: its default, 1
        (None, {"total_slots": 0, "model": "m"}, None),  # no count, and not llama.cpp's /props
        (None, None, None),  # no /props at all (OpenAI, vLLM): 501
    ],
)
def test_the_probe_reads_how_many_slots_a_server_has(slots, props, expected):
    with LLMServer(slots=slots, props=props) as server:
        assert server_slots(server.base_url) == expected


def test_a_probe_nobody_answers_is_given_up_within_its_bound():
    with LLMServer(props="stall") as server:
        started = time.monotonic()
        assert server_slots(server.base_url, seconds=0.5) is None
        assert time.monotonic() - started < 2.0
    started = time.monotonic()
    assert server_slots(f"http://127.0.0.1:{free_port()}/v1") is None  # nothing listens: refused at once
    assert time.monotonic() - started < 2.0


@pytest.mark.slow  # 11 s on two cores (the run's start, then 3 targets at 1.5 s)
def test_a_one_slot_server_gets_one_request_at_a_time_and_none_times_out(key, dev, tmp_path, capsys):
    rows = recorded_rows(dev)[:3]
    with LLMServer(slots=1, latency=SECONDS_A_REQUEST) as server:
        system = make_llm(server, tmp_path, timeout=TIMEOUT)  # 16 requests in flight at most, by default
        answers = run_system(system, rows)
        assert server.max_in_flight == 1 and len(server.requests) == 3
    assert system.client.usage.retries == 0 and len(answers) == 3
    said = capsys.readouterr().err
    assert f"llm: the server at {server.base_url} has 1 slot: 1 request at a time" in said


def test_a_server_without_props_keeps_its_concurrency(key, dev, tmp_path, capsys):
    rows = recorded_rows(dev)[:4]
    with LLMServer(latency=0.3) as server:
        system = make_llm(server, tmp_path, concurrency=4)
        run_system(system, rows)
        assert server.max_in_flight == 4
    assert "slot" not in capsys.readouterr().err


def test_a_server_with_more_slots_than_requests_in_flight_keeps_the_concurrency(key, dev, tmp_path, capsys):
    rows = recorded_rows(dev)[:2]
    with LLMServer(slots=8) as server:
        system = make_llm(server, tmp_path, concurrency=2)
        run_system(system, rows)
    assert system.client.concurrency == 2
    assert "has 8 slots: 2 requests at a time" in capsys.readouterr().err
