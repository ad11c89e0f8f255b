"""A local OpenAI-compatible HTTP server for the LLM baseline's tests and benchmark (loopback only).

It answers POST /v1/completions and /v1/chat/completions from a table of canned completions keyed by the
query's question block (context with the marked target + question), falls back to a generic answer, and
can inject faults into the next requests: 429 with Retry-After, 500, slow responses (client timeouts),
truncated outputs, non-JSON bodies, bodies without choices and empty texts; or misbehave on every request
(`mode`): never answer, answer 500, send a body shorter than its Content-Length (then close, or hang), echo
the request's credentials into the completion, answer 429 with a Retry-After, send an endless body, a gzip
bomb, or trickle a byte at a time. Every answer's text (`generic`) and usage counts (`usage`) can be replaced
by anything JSON can carry. It counts requests, the largest number in flight and the body bytes it sent,
and records when each request arrived. With `slots` it answers llama.cpp's GET /props and takes requests one slot
at a time, as llama.cpp does.
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GENERIC = " alternative, option, choice"
QUESTION_MARK = "\nQ: What are appropriate substitutes for "


@dataclass
class Fault:
    """One injected misbehaviour. kind: "429" (seconds = Retry-After), "500", "sleep" (seconds before a
    normal answer), "html" (200 with a non-JSON body), "nochoices", "empty", "length" (text, finish_reason
    "length"), "401" (body echoes the Authorization header, as a careless server might)."""

    kind: str
    seconds: float = 0.0
    text: str = ""
    key: str | None = None  # only for requests whose query block contains this; None: any request


@dataclass
class Canned:
    text: str
    finish_reason: str = "stop"
    logprobs: dict | None = None  # a chat choice's "logprobs", as servers that give them send it


@dataclass
class LLMServer:
    latency: float = 0.0  # seconds added to every request (benchmark: a remote API's latency)
    canned: dict[str, Canned] = field(default_factory=dict)  # query question block -> completion
    faults: deque = field(default_factory=deque)
    requests: list[dict] = field(default_factory=list)  # {path, body, time, status}
    in_flight: int = 0
    max_in_flight: int = 0
    authorization: set[str] = field(default_factory=set)
    # Every request: "stall" (read it, never answer), "500", "short-close" / "short-hang" (headers announce
    # the full body, part of it comes, then the connection closes / nothing more comes), "echo" (the
    # completion repeats the Authorization header and the request line).
    # Also: "429" (every request: HTTP 429 with Retry-After `retry_after`), "endless" (a body that never ends),
    # "endless-announced" (the same, announced as 1 GB), "gzip-bomb" (a 64 kB gzip body that expands to 64 MB),
    # "trickle" (a valid answer, one byte every half second), "bad-chunk" (a chunk size that is no number).
    mode: str | None = None
    varied: bool = False  # targets without a canned answer get words chosen by a hash of their query
    generic: str = GENERIC  # the answer to targets without a canned one
    usage: dict = field(default_factory=dict)  # replaces the usage counts of every answer (e.g. negative ones)
    retry_after: str = "1"  # the Retry-After header of mode "429"
    body_bytes_sent: int = 0  # by the modes that misbehave mid-body, until the client hung up
    # GET /v1/models answers with one model of this `owned_by` ("llamacpp", "vllm", "openai"); None: 501, as any GET;
    # "stall": it is read and never answered
    models_owned_by: str | None = None
    # A request holding any of these fields (the constraints: "grammar", "guided_choice", "response_format") is
    # answered HTTP 400, as a server that does not take them
    refused_fields: tuple[str, ...] = ()
    gets: list[str] = field(default_factory=list)  # the paths of the GET /models it answered
    # llama.cpp's slots: GET /props answers `total_slots` (and GET /slots lists them), and at most this many requests
    # are answered at once, the others waiting their turn, as llama.cpp queues them; None: no /props (501)
    slots: int | None = None
    props: dict | str | None = None  # the GET /props body instead (an older llama.cpp: no total_slots); "stall" never

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._turns = threading.Semaphore(self.slots or 1)  # the slots' queue (held only with `slots`)
        self._release = threading.Event()  # set at shutdown: stalled handlers give up
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real APIs: the client reuses connections

            def log_message(self, *args) -> None:  # quiet
                pass

            def setup(self) -> None:
                super().setup()
                # Headers and body go out in two writes; without this, Nagle's algorithm and the client's
                # delayed ACK add ~40 ms to every keep-alive response, which no real API has.
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                if path in ("/props", "/slots") and (server.slots is not None or server.props is not None):
                    server._llama_cpp_get(self, path)
                    return
                owner = server.models_owned_by
                if owner is None or not self.path.split("?", 1)[0].endswith("/models"):
                    self.send_error(501, f"Unsupported method ({self.command!r})")  # as without a do_GET
                    return
                with server._lock:
                    server.gets.append(self.path)
                if owner == "stall":
                    server._release.wait(600)
                    self.close_connection = True
                    return
                model = {"id": "m", "object": "model", "owned_by": owner}
                data = json.dumps({"object": "list", "data": [model]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                    server.authorization.add(self.headers.get("Authorization", ""))
                    record = {"path": self.path, "body": body, "time": time.monotonic()}
                    server.requests.append(record)
                try:
                    if server.mode == "stall":
                        server._release.wait(600)
                        self.close_connection = True
                        return
                    if server.mode in ("endless", "endless-announced", "gzip-bomb", "trickle", "bad-chunk"):
                        server._misbehave(self, body)
                        return
                    authorization = self.headers.get("Authorization", "")
                    if server.mode == "echo":
                        authorization += f" {self.requestline}"
                    if server.slots is not None:
                        with server._turns:  # this request's turn at a slot
                            status, headers, payload = server.respond(self.path.split("?", 1)[0], body, authorization)
                    else:
                        status, headers, payload = server.respond(self.path.split("?", 1)[0], body, authorization)
                    record["status"] = status
                    if server.mode in ("short-close", "short-hang"):
                        self.send_response(200)
                        self.send_header("Content-Type", "application/json")
                        self.send_header("Content-Length", str(len(payload)))
                        self.end_headers()
                        self.wfile.write(payload[: len(payload) // 3])
                        self.wfile.flush()
                        if server.mode == "short-hang":
                            server._release.wait(600)
                        self.close_connection = True
                        return
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout): nothing to answer
                finally:
                    with server._lock:
                        server.in_flight -= 1

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> LLMServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._release.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    # -- behaviour --

    def _misbehave(self, handler: BaseHTTPRequestHandler, body: dict) -> None:
        """Modes "endless", "gzip-bomb" and "trickle": the body goes out until the client hangs up."""
        handler.close_connection = True
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        if self.mode.startswith("endless"):  # "endless-announced": with a Content-Length of 1 GB
            chunks = (b"[" + b"0," * 32767 for _ in iter(int, 1))
            announced = 2**30 if self.mode == "endless-announced" else None
        elif self.mode == "gzip-bomb":
            compressor = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
            data = b"".join(compressor.compress(b"\0" * 2**20) for _ in range(64)) + compressor.flush()
            handler.send_header("Content-Encoding", "gzip")
            chunks, announced = iter([data]), len(data)
        elif self.mode == "bad-chunk":
            handler.send_header("Transfer-Encoding", "chunked")
            chunks, announced = iter([b"zz\r\n{}\r\n0\r\n\r\n"]), None
        else:  # trickle
            _, _, payload = self.respond(handler.path.split("?", 1)[0], body, "")
            chunks, announced = (payload[i : i + 1] for i in range(len(payload))), len(payload)
        if announced is not None:  # else the body ends when the connection closes
            handler.send_header("Content-Length", str(announced))
        handler.end_headers()
        try:
            for chunk in chunks:
                if self._release.is_set():
                    return
                handler.wfile.write(chunk)
                handler.wfile.flush()
                with self._lock:
                    self.body_bytes_sent += len(chunk)
                if self.mode == "trickle":
                    self._release.wait(0.5)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client hung up: what it read is counted

    def _llama_cpp_get(self, handler: BaseHTTPRequestHandler, path: str) -> None:
        """GET /props and /slots as llama.cpp answers them (its own fields, trimmed to what matters here)."""
        with self._lock:
            self.gets.append(handler.path)
        if path == "/props":
            if self.props == "stall":
                self._release.wait(600)
                handler.close_connection = True
                return
            answer = self.props
            if answer is None:
                answer = {"default_generation_settings": {"n_ctx": 2048}, "total_slots": self.slots}
        elif self.slots is not None:
            answer = [{"id": i, "n_ctx": 2048, "is_processing": False} for i in range(self.slots)]
        else:
            handler.send_error(501, "Unsupported method ('GET')")  # a build with /slots turned off
            return
        data = json.dumps(answer).encode()
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def inject(self, *faults: Fault) -> None:
        with self._lock:
            self.faults.extend(faults)

    @staticmethod
    def query_of(path: str, body: dict) -> str:
        """The query's question block: the last example of a completion prompt, the last user message."""
        if path.endswith("/chat/completions"):
            return [m for m in body.get("messages", []) if m.get("role") == "user"][-1]["content"]
        prompt = body.get("prompt", "")
        last = prompt.rsplit("\n\n", 1)[-1]
        return last[: -len("\nA:")] if last.endswith("\nA:") else last

    @staticmethod
    def _varied(query: str) -> str:
        words = (
            "alternative option choice pick selection answer idea thing matter point item piece part "
            "element aspect feature factor detail"
        ).split()
        seed = int(hashlib.sha1(query.encode()).hexdigest(), 16)
        return " " + ", ".join(words[(seed >> (5 * i)) % len(words)] for i in range(5))

    def _next_fault(self, query: str) -> Fault | None:
        with self._lock:
            for i, fault in enumerate(self.faults):
                if fault.key is None or fault.key in query:
                    del self.faults[i]
                    return fault
        return None

    def respond(self, path: str, body: dict, authorization: str) -> tuple[int, dict, bytes]:
        if self.latency:
            time.sleep(self.latency)
        chat = path.endswith("/chat/completions")
        if not (chat or path.endswith("/completions")):
            return 404, {"Content-Type": "application/json"}, b'{"error": {"message": "not found"}}'
        query = self.query_of(path, body)
        canned = self.canned.get(query) or Canned(self._varied(query) if self.varied else self.generic)
        text, finish = canned.text, canned.finish_reason
        if self.mode == "500":
            return 500, {"Content-Type": "application/json"}, b'{"error": {"message": "The server had an error"}}'
        if self.mode == "429":
            error = b'{"error": {"message": "Rate limit reached", "type": "requests"}}'
            return 429, {"Content-Type": "application/json", "Retry-After": self.retry_after}, error
        if self.mode == "echo":
            text = f" {authorization}, {text.strip()}"
        refused = [name for name in self.refused_fields if name in body]
        if refused:
            error = {"error": {"message": f"Unrecognized request argument supplied: {refused[0]}", "code": 400}}
            return 400, {"Content-Type": "application/json"}, json.dumps(error).encode()
        fault = self._next_fault(query)
        json_type = {"Content-Type": "application/json"}
        if fault is not None:
            if fault.kind == "429":
                error = b'{"error": {"message": "Rate limit reached", "type": "requests"}}'
                return 429, {**json_type, "Retry-After": f"{fault.seconds:g}"}, error
            if fault.kind == "500":
                return 500, json_type, b'{"error": {"message": "The server had an error"}}'
            if fault.kind == "401":
                echo = json.dumps({"error": {"message": f"Incorrect API key provided: {authorization}"}})
                return 401, json_type, echo.encode()
            if fault.kind == "sleep":
                time.sleep(fault.seconds)
            if fault.kind == "html":
                return 200, {"Content-Type": "text/html"}, b"<html><body>502 Bad Gateway</body></html>"
            if fault.kind == "nochoices":
                return 200, json_type, json.dumps({"id": "cmpl-x", "object": "text_completion"}).encode()
            if fault.kind == "empty":
                text, finish = "", "stop"
            if fault.kind == "length":
                text, finish = fault.text, "length"
        prompt_text = json.dumps(body.get("messages")) if chat else body.get("prompt", "")
        usage = {"prompt_tokens": len(prompt_text) // 4, "completion_tokens": max(1, len(text) // 4)}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        usage.update(self.usage)
        if chat:
            choice = {"index": 0, "message": {"role": "assistant", "content": text.strip()}, "finish_reason": finish}
            if canned.logprobs is not None:
                choice["logprobs"] = canned.logprobs
            response = {"id": "chatcmpl-local", "object": "chat.completion", "choices": [choice]}
        else:
            choice = {"index": 0, "text": text, "logprobs": None, "finish_reason": finish}
            response = {"id": "cmpl-local", "object": "text_completion", "choices": [choice]}
        response.update(created=int(time.time()), model=body.get("model", ""), usage=usage)
        # json.dumps writes a lone surrogate as its escape ("\ud800") and NaN or Infinity as such, as a careless
        # server would.
        return 200, json_type, json.dumps(response).encode()
