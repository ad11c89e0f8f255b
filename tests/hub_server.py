"""A Hub-compatible server on 127.0.0.1 (a real `http.server` in a thread) for `swords hub publish` and `swords data
publish`, with `HF_ENDPOINT` pointed at it.

It answers what huggingface_hub asks while publishing: GET /api/agent-harnesses, POST /api/repos/create,
/api/validate-yaml, /api/{datasets,spaces}/ORG/NAME/preupload/main (every file "regular") and .../commit/main (a
commit URL on this server). Any of these steps ("agent-harnesses", "create", "validate-yaml", "preupload",
"commit") can be given a misbehaviour in `faults`:

- a `Reply`: that status, content type and body (an error page, a commit URL echoing the token);
- "stall": read the request, never answer;
- "trickle-headers" / "trickle-body": a valid answer, one byte a second (its status line and headers, or its body);
- "endless": a 200 whose body never ends; "huge": one announced as 1 GB, sent until the client hangs up;
- "gzip-bomb": a 0.5 MB gzip body that expands to 512 MB.

It records every request (method, path, time) and counts the body bytes its misbehaving answers sent.
"""

from __future__ import annotations

import functools
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import zlib
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .conftest import REPO_ROOT

STEPS = {
    "agent-harnesses": r"/api/agent-harnesses",
    "create": r"/api/repos/create",
    "validate-yaml": r"/api/validate-yaml",
    "preupload": r"/api/\w+/[^/]+/[^/]+/preupload/",
    "commit": r"/api/\w+/[^/]+/[^/]+/commit/",
}
TRICKLE_SECONDS = 1.0


@dataclass
class Reply:
    status: int
    body: str | bytes
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class HubServer:
    faults: dict[str, Reply | str] = field(default_factory=dict)
    requests: list[tuple[str, str, float]] = field(default_factory=list)  # (method, path, monotonic time)
    body_bytes_sent: int = 0  # by "endless", "huge", "gzip-bomb" and the trickles, until the client hung up
    authorization: set[str] = field(default_factory=set)
    commit_url_suffix: str = ""  # added to every commit URL (a query that echoes the token, an escape sequence)

    def __post_init__(self) -> None:
        if "gzip-bomb" in self.faults.values():
            gzip_bomb()  # made before the client asks: it takes seconds, longer than some requests wait
        self._lock = threading.Lock()
        self._release = threading.Event()  # set at shutdown: stalled and trickling handlers give up
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                server._handle(self, b"")

            def do_POST(self) -> None:
                server._handle(self, self.rfile.read(int(self.headers.get("Content-Length") or 0)))

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> HubServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._release.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def steps(self) -> list[str]:
        """The steps asked for, in order ("create", "preupload", ...)."""
        return [
            next((name for name, pattern in STEPS.items() if re.match(pattern, path)), path)
            for _, path, _ in self.requests
        ]

    def times(self, step: str) -> list[float]:
        """When each request for `step` arrived (time.monotonic)."""
        return [at for (_, _, at), name in zip(self.requests, self.steps(), strict=True) if name == step]

    # -- answers --

    def _handle(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        path = handler.path.split("?", 1)[0]
        with self._lock:
            self.requests.append((handler.command, path, time.monotonic()))
            self.authorization.add(handler.headers.get("Authorization", ""))
        step = next((name for name, pattern in STEPS.items() if re.match(pattern, path)), None)
        fault = self.faults.get(step)
        try:
            if isinstance(fault, Reply):
                self._send(handler, fault)
            elif fault == "stall":
                handler.close_connection = True
                self._release.wait(600)
            elif fault is not None:
                self._misbehave(handler, fault, self._answer(step, path, body))
            else:
                self._send(handler, self._answer(step, path, body))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client hung up

    def _answer(self, step: str | None, path: str, body: bytes) -> Reply:
        if step == "agent-harnesses":
            return Reply(200, json.dumps({"standardEnvVars": [], "harnesses": {}}))
        if step == "create":
            request = json.loads(body)
            kind = {"dataset": "datasets/", "space": "spaces/"}.get(request.get("type"), "")
            return Reply(200, json.dumps({"url": f"{self.url}/{kind}{request['organization']}/{request['name']}"}))
        if step == "validate-yaml":
            return Reply(200, "{}")
        if step == "preupload":
            files = [
                {"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in json.loads(body)["files"]
            ]
            return Reply(200, json.dumps({"files": files}))
        if step == "commit":
            repo = path.split("/api/", 1)[1].rsplit("/commit/", 1)[0]
            return Reply(
                200,
                json.dumps(
                    {"commitUrl": f"{self.url}/{repo}/commit/{'c' * 40}{self.commit_url_suffix}", "commitOid": "c" * 40}
                ),
            )
        return Reply(404, json.dumps({"error": f"no such endpoint: {path}"}))

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, reply: Reply) -> None:
        payload = reply.body.encode() if isinstance(reply.body, str) else reply.body
        handler.send_response(reply.status)
        handler.send_header("Content-Type", reply.content_type)
        for name, value in reply.headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)

    def _misbehave(self, handler: BaseHTTPRequestHandler, fault: str, reply: Reply) -> None:
        handler.close_connection = True
        payload = reply.body.encode() if isinstance(reply.body, str) else reply.body
        head = f"HTTP/1.1 200 OK\r\nContent-Type: {reply.content_type}\r\n"
        if fault == "trickle-headers":
            chunks = (bytes([b]) for b in (head + f"Content-Length: {len(payload)}\r\n\r\n").encode() + payload)
        elif fault == "trickle-body":
            handler.wfile.write((head + f"Content-Length: {len(payload)}\r\n\r\n").encode())
            chunks = (bytes([b]) for b in payload)
        elif fault in ("endless", "huge"):
            length = "Content-Length: 1073741824\r\n" if fault == "huge" else ""
            handler.wfile.write((head + length + "\r\n").encode())
            chunks = (b'{"x": "' + b"a" * 65536 for _ in iter(int, 1))
        elif fault == "gzip-bomb":
            data = gzip_bomb()
            handler.wfile.write((head + f"Content-Encoding: gzip\r\nContent-Length: {len(data)}\r\n\r\n").encode())
            chunks = iter([data])
        else:
            raise ValueError(f"unknown fault {fault!r}")
        for chunk in chunks:
            if self._release.is_set():
                return
            handler.wfile.write(chunk)
            handler.wfile.flush()
            with self._lock:
                self.body_bytes_sent += len(chunk)
            if fault.startswith("trickle"):
                self._release.wait(TRICKLE_SECONDS)


@functools.cache
def gzip_bomb() -> bytes:
    """0.5 MB of gzip that expands to 512 MB of spaces."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    return b"".join(compressor.compress(b" " * 2**20) for _ in range(512)) + compressor.flush()


# Runs `swords` and writes its exit status and peak memory (wait4's ru_maxrss, kB) to a file. A small process in
# between: Linux counts a child's memory before its exec in its peak, and pytest is hundreds of MB.
LAUNCHER = (
    "import os, subprocess, sys; child = subprocess.Popen(sys.argv[2:]); "
    "_, status, usage = os.wait4(child.pid, 0); child.returncode = 0; "
    "open(sys.argv[1], 'w').write(str(usage.ru_maxrss)); "
    "sys.exit(os.waitstatus_to_exitcode(status))"
)


@dataclass
class Published:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float


def publish(*args: str, env: dict[str, str], tmp: Path, timeout: float = 300) -> Published:
    """`swords ARGS` with `env` (HF_ENDPOINT, HF_TOKEN, ...), its own HF_HOME and temporary folder under `tmp`;
    its output, time and peak memory. Killed (and the test failed) after `timeout` seconds."""
    peak = tmp / "peak"
    for name in ("hf-home", "tmp"):
        (tmp / name).mkdir(exist_ok=True)
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, str(peak), sys.executable, "-m", "swords_lexsub.cli", *args],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "HF_HUB_OFFLINE": "0", "HF_HOME": str(tmp / "hf-home"), "TMPDIR": str(tmp / "tmp"), **env},
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise AssertionError(f"swords {' '.join(args)[:200]} still running after {timeout} s") from None
    return Published(
        process.returncode,
        stdout,
        stderr,
        time.monotonic() - started,
        int(peak.read_text()) / 1024 if peak.is_file() else 0.0,
    )
