"""`swords evaluate` on prediction files a test wrote, as the user runs it (in a fresh process), and the one line a
refused file must give; shared by test_metric_files_streamed.py and test_metric_files_hostile.py."""

from __future__ import annotations

import os
import subprocess

from ..baselines.run_helpers import SWORDS
from ..conftest import REPO_ROOT


def evaluate(*args: str, split: tuple[str, str] = ("swords", "test")) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*SWORDS, "evaluate", "--dataset", split[0], "--split", split[1], "--bootstrap", "0", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )


def one_line(done: subprocess.CompletedProcess) -> str:
    """The error of a refused file: exit 2, exactly one line on stderr, no traceback."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-3000:]
    return lines[0]


def write(path, text: str):
    path.write_text(text, encoding="utf-8")
    return path
