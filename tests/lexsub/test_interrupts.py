"""Ctrl-C and SIGTERM stop a `swords` command with one line and the usual exit status, also when the signal lands
inside code whose exceptions Python swallows (a garbage-collection callback here; weakref callbacks and `__del__`
alike), where it was once lost and the command ran on to exit 0."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

LAST_LINES = {
    signal.SIGTERM: (143, "swords: terminated (SIGTERM); finished work is kept"),
    signal.SIGINT: (130, "swords: interrupted"),
}


def test_sigterm_is_handled_as_ctrl_c_with_one_line(tmp_path):
    """`swords` under SIGTERM mid-command (here `data verify`, counting every config): one line, exit 143."""
    process = subprocess.Popen(
        [sys.executable, "-c", "import sys; from swords_lexsub.cli import main; sys.exit(main(['data', 'verify']))"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    time.sleep(1.5)  # verify is under way (it loads and counts every config)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 143, stderr
    assert "Traceback" not in stderr
    assert stderr.strip().splitlines()[-1] == "swords: terminated (SIGTERM); finished work is kept"


# `swords data verify` with a garbage-collection callback that, once the command's handlers are in place, says so
# in a file and sleeps: the test's signal arrives inside it, where Python prints "Exception ignored" and goes on.
SWALLOWING = """
import gc, signal, sys, time
from pathlib import Path
from swords_lexsub.cli import main

ready = Path(sys.argv[1])

def callback(phase, info):
    if phase == "start" and not ready.exists() and signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        ready.write_text("in the callback")
        time.sleep(20)  # the signal interrupts this sleep, inside the callback

signal.signal(signal.SIGINT, signal.default_int_handler)  # as an interactive shell leaves it
gc.callbacks.append(callback)
sys.exit(main(["data", "verify"]))
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_inside_a_callback_python_ignores_still_stops_the_command(tmp_path: Path, signum):
    ready = tmp_path / "ready"
    process = subprocess.Popen(
        [sys.executable, "-c", SWALLOWING, str(ready)], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )
    deadline = time.monotonic() + 60
    while not ready.exists():
        assert process.poll() is None and time.monotonic() < deadline, "the command never ran a collection"
        time.sleep(0.01)
    sent = time.monotonic()
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=30)
    status, line = LAST_LINES[signum]
    assert process.returncode == status, stderr
    assert time.monotonic() - sent < 5  # stopped where it was, not after verifying everything
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
    assert stderr.strip().splitlines() == [line]
