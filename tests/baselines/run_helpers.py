"""Running `swords` as a user does, shared by the fault tests (test_faults*.py, test_runs_*.py, test_run_files.py,
test_run_command_line.py) and the classic-baseline tests (test_classic_baselines_*.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from swords_baselines.cli import execute

from ..conftest import REPO_ROOT

SWORDS = [sys.executable, "-m", "swords_lexsub.cli"]


def swords(*args: str, env: dict | None = None, timeout: float = 600, cwd: Path = REPO_ROOT, user: str | None = None):
    started = time.monotonic()
    done = subprocess.run(
        [*SWORDS, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        user=user,
    )
    done.seconds = time.monotonic() - started
    return done


def killed_once_journalled(args: list[str], journal: Path, lines: int = 3, seconds: float = 300) -> list[str]:
    """`swords *args` killed with SIGKILL once its journal holds `lines` whole lines; the journal's lines then."""
    process = subprocess.Popen([*SWORDS, *args], cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (not journal.exists() or journal.read_text().count("\n") < lines):
        time.sleep(0.002)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=60)
    return journal.read_text().splitlines()


def one_line(done) -> str:
    """The error line of a failed command: exactly one line on stderr, no traceback."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    return lines[0]


def llm_args(base_url: str, output: Path, *extra: str, limit: int = 40) -> list[str]:
    return [
        "run",
        "--system",
        "llm",
        "--dataset",
        "swords",
        "--split",
        "dev",
        "--output",
        str(output),
        "--base-url",
        base_url,
        "--model",
        "davinci-002",
        "--api-key-env",
        "SWORDS_FAULT_KEY",
        "--cache-dir",
        "off",
        "--limit",
        str(limit),
        "--bootstrap",
        "0",
        "--no-progress",
        *extra,
    ]


def run_system(name: str, options: dict, tmp_path: Path, dataset: str = "swords", split: str = "test") -> dict:
    """`swords run` in-process (the same path as the CLI), returning the metrics file it writes."""
    output = tmp_path / f"{name}.jsonl"
    assert execute(name, options, dataset, split, str(output), bootstrap=0, progress=False, as_json=True) == 0
    return json.loads(output.with_name(f"{name}.metrics.json").read_text())


def start_and_wait(command: list[str], key: dict, journal, lines: int) -> subprocess.Popen:
    """`swords` started as a user starts it, once its journal holds `lines` lines (header included)."""
    process = subprocess.Popen(
        [*SWORDS, *command],
        cwd=REPO_ROOT,
        env={**os.environ, **key},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 300  # generous: on two busy cores the start alone can take a minute
    while time.monotonic() < deadline and (not journal.exists() or journal.read_text().count("\n") < lines):
        time.sleep(0.05)
    assert process.poll() is None, process.communicate()
    assert journal.exists() and journal.read_text().count("\n") >= lines, "the run did not get going in 300 s"
    return process
