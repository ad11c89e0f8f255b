"""The Space in its own process on 127.0.0.1, as `python space/app.py` starts it (the way a Hugging Face
Space runs it), for the end-to-end and fault tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .conftest import REPO_ROOT, free_port

__all__ = ["APP", "REPO_ROOT", "free_port", "peak_memory_mb", "running_app", "wait_until_up"]
APP = REPO_ROOT / "space" / "app.py"
START_TIMEOUT = 90  # seconds; the app itself starts in a few


def wait_until_up(url: str, process: subprocess.Popen, timeout: float) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if process.poll() is not None:
            raise RuntimeError(f"the app exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return time.perf_counter() - started
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"the app did not answer at {url} within {timeout} s")


def stop_process(process: subprocess.Popen, seconds: float = 15) -> None:
    """Terminate a server started for a test; kill it if it has not ended within `seconds`."""
    process.terminate()
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def peak_memory_mb(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


@contextmanager
def running_app(folder: Path, extra_env: dict | None = None, options: tuple[str, ...] = ()) -> Iterator[dict]:
    """The app started as `python space/app.py --port N --host 127.0.0.1 [options]`, until the block ends."""
    port = free_port()
    env = {
        **os.environ,
        "GRADIO_TEMP_DIR": str(folder / "uploads"),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "PYTHONUNBUFFERED": "1",
        **(extra_env or {}),
    }
    log_path = folder / "app.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, str(APP), "--port", str(port), "--host", "127.0.0.1", *options],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=folder,
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_up(url, process, START_TIMEOUT)
        yield {"url": url, "log": log_path, "folder": folder, "pid": process.pid}
    except Exception:
        print(log_path.read_text(errors="replace"))
        raise
    finally:
        stop_process(process)
