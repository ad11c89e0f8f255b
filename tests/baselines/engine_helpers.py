"""The local engine's commands as the user runs them, shared by the engine's tests: `swords llm serve` and
`swords run --system llm --local` in a fresh process, timed and with their own peak memory, and what a refused
start must look like (test_engine_options_refused.py, test_engine_model_refused.py); the environment and the small
budget the real model's tests run with (test_llm_local_*.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from ..conftest import REPO_ROOT
from .run_helpers import SWORDS

OFFLINE = {"HF_HUB_OFFLINE": "1", "OPENAI_API_KEY": ""}
# The real model's runs: a small prompt budget and completion. 384 tokens hold the paper's instruction, a few
# examples and the query; the manual's commands use 640, and so does the same-request test (conftest.ENGINE_CONTEXT).
BUDGET, MAX_TOKENS = 384, 48


# A refusal comes before llama.cpp loads anything: within seconds (the Python imports; a loaded machine is
# slower) and without the model's memory. Before these checks, --context 100000000 took 13 s and 5.2 GB.
SECONDS, SERVE_MB, RUN_MB = 15.0, 300, 800


@dataclass
class Finished:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float  # the command's own peak resident memory


# Runs the command and writes its peak memory (wait4's ru_maxrss) to a file. A small process in between because
# Linux counts a child's memory before its exec in its peak: started from pytest directly, the figure would be
# pytest's own size.
LAUNCHER = (
    "import os, subprocess, sys; child = subprocess.Popen(sys.argv[2:]); "
    "_, status, usage = os.wait4(child.pid, 0); child.returncode = 0; "
    "open(sys.argv[1], 'w').write(str(usage.ru_maxrss)); "
    "sys.exit(os.waitstatus_to_exitcode(status))"
)


def swords(*args: str, timeout: float = 60) -> Finished:
    with tempfile.TemporaryDirectory() as folder:
        peak = Path(folder, "peak")
        started = time.monotonic()
        process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(peak), *SWORDS, *args],
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, **OFFLINE},
            start_new_session=True,
        )
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise AssertionError(f"swords {' '.join(args)} still running after {timeout} s") from None
        return Finished(process.returncode, stdout, stderr, time.monotonic() - started, int(peak.read_text()) / 1024)


def serve(*args: str) -> Finished:
    return swords("llm", "serve", *args)


def run_local(tmp_path: Path, *args: str) -> Finished:
    return swords(
        "run",
        "--system",
        "llm",
        "--local",
        "--dataset",
        "swords",
        "--split",
        "dev",
        "--limit",
        "1",
        "--output",
        str(tmp_path / "run" / "out.jsonl"),
        "--no-progress",
        *args,
    )


def refused(done: Finished, peak_mb: float = SERVE_MB) -> str:
    """The error line of a start refused before llama.cpp runs: exit code 2, exactly one line on stderr,
    no traceback, fast, small."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.seconds < SECONDS and done.peak_mb < peak_mb, (done.seconds, done.peak_mb, lines)
    assert not done.stdout
    return lines[0]


def refused_by_parser(done: Finished) -> str:
    """The parser's refusal: one error line (exit code 2), no usage block."""
    errors = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(errors) == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.seconds < SECONDS and not done.stdout
    return errors[0]


def refused_by_run(done: Finished, tmp_path: Path) -> str:
    line = refused(done, RUN_MB)
    assert not (tmp_path / "run").exists() or not any((tmp_path / "run").iterdir())  # nothing written
    return line


def start_serve(port: int, *extra: str) -> subprocess.Popen:
    """`swords llm serve --port PORT` started as a user starts it, offline; its first stdout line is the address."""
    return subprocess.Popen(
        [*SWORDS, "llm", "serve", "--port", str(port), *extra],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **OFFLINE},
    )


def serves(port: int) -> None:
    """`swords llm serve --port PORT` answers /health and a completion there, and stops on Ctrl-C."""
    process = start_serve(port, "--context", "512")
    try:
        line = process.stdout.readline()
        assert f"http://127.0.0.1:{port}/v1" in line, (line, process.stderr.read() if process.poll() else "")
        health = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=30).read())
        assert health["status"] == "ok"
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/completions",
            data=json.dumps({"prompt": "A word like bright:", "max_tokens": 4}).encode(),
            headers={"Content-Type": "application/json"},
        )
        assert json.loads(urllib.request.urlopen(request, timeout=60).read())["usage"]["completion_tokens"] > 0
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
    assert process.returncode == 0
