"""The fresh environment the release's tests install (conftest.py's `installed`), run as a user runs it: its commands
from a folder outside the clone, every file they open traced with strace where the machine has it, and the check
that none was the clone's; with the shipped result file the tests score (test_installed_*.py, test_distributions.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from ..conftest import REPO_ROOT
from .conftest import user_env

COMMAND_TIMEOUT = 600
RESULTS = "swords_space/results"
COINCO_ORACLE = "coinco-oracle.swords.test.jsonl"


def _strace_flags() -> list[str] | None:
    """The flags strace traces children with here: with --seccomp-bpf where this strace and kernel have it (only
    the traced calls stop the processes; a served app's reads, writes and polls would each stop it otherwise),
    else without; None where strace cannot run."""
    if shutil.which("strace") is None:
        return None
    for flags in (["-f", "--seccomp-bpf"], ["-f"]):
        probe = subprocess.run(["strace", *flags, "-qq", "-o", os.devnull, "true"], capture_output=True, timeout=30)
        if probe.returncode == 0:
            return flags
    return None  # ptrace may be forbidden in a container


STRACE = _strace_flags()


def traced(command: list[str], log: Path) -> list[str]:
    """`command` with every file it (or a child) opens written to `log`, when strace can run here."""
    if not STRACE:
        return command
    # -y: each descriptor with its path, so a relative open shows where it landed
    return [
        "strace",
        *STRACE,
        "-qq",
        "-y",
        "-e",
        "trace=open,openat,openat2",
        "-e",
        "signal=none",
        "-o",
        str(log),
        *command,
    ]


def assert_nothing_opened_in_the_clone(log: Path) -> None:
    if not STRACE:
        return
    clone = (f'"{REPO_ROOT}/', f"<{REPO_ROOT}/", f"<{REPO_ROOT}>")  # a path asked for, opened, or the cwd
    opened = [line for line in log.read_text(errors="replace").splitlines() if any(mark in line for mark in clone)]
    assert not opened, "opened in the clone:\n" + "\n".join(opened[:20])


def run_installed(installed: dict, *args: str, log: Path, **env: str) -> subprocess.CompletedProcess:
    """A command of the fresh environment, from a folder outside the clone (`env`: variables to set)."""
    return subprocess.run(
        traced([str(installed["bin"] / args[0]), *args[1:]], log),
        cwd=installed["home"],
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
        env=user_env(installed["venv"], **env),
    )


def site_packages(installed: dict) -> Path:
    (found,) = (installed["venv"] / "lib").glob("python3*/site-packages")
    return found
