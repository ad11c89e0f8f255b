"""The process the embedded engine runs in: llama.cpp's server (xllamacpp) in a child process of its own.

xllamacpp's Server holds the GIL while it starts and shuts down, and both can wait for ever on its own threads (seen
under load: the shutdown once in 5-10 starts, the start once in a few hundred), freezing the whole process. In a
child, a start past the caller's bound is given up and the child killed, and the shutdown never runs: the child
leaves with `os._exit` once its stdin closes (at `stop()` or when the parent ends in any way, kill -9 too). It
prints one JSON line: {"address": "http://127.0.0.1:PORT"} once listening, or {"error": "..."}.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import weakref
from contextlib import suppress

STOP_SECONDS = 10.0  # for the child to leave once its stdin closes (it leaves at once; then it is killed)


def _params(settings: dict):
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = settings["path"]
    params.hostnames = ["127.0.0.1"]  # loopback only
    params.port = settings["port"]
    params.n_parallel = settings["parallel"]
    params.n_ctx = settings["context"] * settings["parallel"]  # llama.cpp splits the context between the slots
    params.cpuparams.n_threads = settings["threads"]
    params.cpuparams_batch.n_threads = settings["threads"]
    params.verbosity = -1  # llama.cpp's own log lines stay off the terminal
    # The same request, the same answer, whatever was asked before: a prompt whose state llama.cpp restored
    # from its prompt cache is decoded from logits computed in another batch shape, which can turn a greedy
    # choice (seen: lm-eval's request, the runner's before it). Each target's prompt differs anyway, and
    # answers are cached by the client; the prompt cache's RAM (8 GB by default) is saved too.
    params.cache_prompt = False
    params.cache_ram_mib = 0
    return params


def main() -> None:
    """The child: serve until stdin closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the parent, which stops this child
    settings = json.loads(sys.argv[1])
    try:
        import xllamacpp

        server = xllamacpp.Server(_params(settings))
        line = {"address": server.listening_address.rstrip("/")}
    except Exception as error:  # noqa: BLE001 (the parent says it in one line)
        text = str(error).strip()
        line = {"error": text.splitlines()[0] if text else f"{type(error).__name__}"}
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()
    if "address" in line:
        sys.stdin.buffer.read()  # until the parent closes it, or ends
    os._exit(0 if "address" in line else 1)  # never llama.cpp's shutdown (see above)


def _end(process: subprocess.Popen) -> None:
    if process.poll() is None:
        with suppress(OSError):
            process.stdin.close()
        try:
            process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(STOP_SECONDS)


class EngineProcess:
    """The child serving one model, started and waited for at most `timeout` s: `.address` or `.error` (both None
    when it said nothing in time: it is killed then); `.alive()`; `.stop()` (also when the object goes)."""

    def __init__(self, settings: dict, timeout: float) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "swords_baselines.llm.engine_host", json.dumps(settings)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._stop = weakref.finalize(self, _end, self.process)
        self.address = self.error = None
        said: list[bytes] = []
        reader = threading.Thread(target=lambda: said.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        if not said:
            self.process.kill()
            self.process.wait(STOP_SECONDS)
            return
        try:
            line = json.loads(said[0] or b"{}")
        except ValueError:
            line = {}
        self.address = line.get("address")
        self.error = line.get("error") if self.address is None else None
        if self.address is None and self.error is None:
            code = self.process.wait(STOP_SECONDS)
            self.error = f"its process ended (exit code {code}) before it served"

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        self._stop()


if __name__ == "__main__":
    main()
