"""How many threads the embedded engine computes with when none are given: $OMP_NUM_THREADS when set (batch
systems set it to a job's cores), else every core the process may run on; a value that is no number of threads
is one line naming the variable, from the Python API and from `swords llm serve`, before any model loads."""

from __future__ import annotations

import os

import pytest

from swords_baselines.llm.engine import LocalEngine, unavailable_reason
from swords_baselines.llm.engine_limits import MAX_THREADS
from swords_lexsub.errors import SwordsError

from ..conftest import free_port, run_swords

if unavailable_reason():
    pytest.skip(f"the local engine cannot run here: {unavailable_reason()}", allow_module_level=True)


def test_omp_num_threads_sets_the_engines_threads(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert LocalEngine().threads == 1
    assert LocalEngine(threads=2).threads == 2  # an explicit number wins
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert LocalEngine().threads == len(os.sched_getaffinity(0))


@pytest.mark.parametrize("value", ["zero", "0", "-1", "1.5", str(MAX_THREADS + 1)])
def test_omp_num_threads_that_is_no_number_of_threads_is_one_line(monkeypatch, value):
    monkeypatch.setenv("OMP_NUM_THREADS", value)
    with pytest.raises(SwordsError, match=rf"^OMP_NUM_THREADS='{value}' is not a number of threads from 1 to"):
        LocalEngine()
    done = run_swords("llm", "serve", "--port", str(free_port()), env={"OMP_NUM_THREADS": value})
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"swords: error: OMP_NUM_THREADS='{value}' is not a number of threads from 1 to {MAX_THREADS} (set it to the "
        "cores the engine may use, or unset it to use every core)"
    ]
