"""Ctrl-C during `swords judge llm`: one line that says the finished work is kept and that the same command again
resumes (the judge journals each answer; a rerun asks only for the rest)."""

from __future__ import annotations

import signal
import subprocess
import time

import pytest

from ..llm_server import LLMServer
from .judge_helpers import dev_tasks_file
from .run_helpers import SWORDS


@pytest.mark.slow  # 4.7 s on two cores (both busy with other work)
def test_ctrl_c_says_that_rerunning_resumes(tmp_path, dev):
    tasks = dev_tasks_file(tmp_path / "tasks.jsonl", dev)
    output = tmp_path / "judgments.jsonl"
    with LLMServer(mode="stall") as server:  # reads each request, never answers: the judge is waiting when stopped
        command = [*SWORDS, "judge", "llm", "--tasks", str(tasks), "--output", str(output)]
        command += ["--base-url", server.base_url, "--model", "judge-model", "--cache-dir", "off"]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while not server.requests:
            assert process.poll() is None and time.monotonic() < deadline, process.stderr.read()
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert stderr.strip().splitlines()[-1] == (
        "swords: interrupted; finished work is kept; run the same command again to resume"
    )
