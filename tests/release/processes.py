"""The servers the release tests start (the demo, the Space's app.py): each in its own process group, so a
tracer and the app end together; waited for with a bound."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

START_TIMEOUT = 180  # the app's first start in a fresh environment compiles its imports


def start(command: list[str], cwd: Path, env: dict, log: Path) -> subprocess.Popen:
    with open(log, "wb") as out:  # its own process group: strace and the app end together
        return subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def stop(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(30)


def wait_for_http(url: str, process: subprocess.Popen, log: Path, line: str = "") -> None:
    """Until the app answers at `url` (and its log holds `line`), bounded."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text(errors="replace")[-3000:]
        if line and line not in log.read_text(errors="replace"):
            time.sleep(0.5)
            continue
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200 and b"gradio" in response.read().lower():
                    return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(
        f"nothing answered at {url} within {START_TIMEOUT} s:\n" + log.read_text(errors="replace")[-3000:]
    )
