"""A real forward proxy on 127.0.0.1 for the tests of the HTTP client's proxies (loopback only).

It forwards each plain-HTTP request to the URL named in its request line (GET and POST, the upstream's status and
body passed back) and keeps that URL and the `Proxy-Authorization` it got. Or it misbehaves on every request
(`mode`): "echo" (it forwards, then puts the `Proxy-Authorization` it got, that header decoded and the decoded
user:password upper-cased at the start of every completion's text, as a careless proxy or gateway might), "refuse"
(HTTP 407 with a `Proxy-Authenticate` challenge, CONNECT included), "stall" (it reads the request and never answers).
"""

from __future__ import annotations

import base64
import json
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FORWARDED_HEADERS = ("Content-Type", "Authorization")


def echoed(authorization: str) -> str:
    """What the "echo" proxy puts before a completion: the header, the user:password it encodes, upper-cased too."""
    try:
        decoded = base64.b64decode(authorization.split(" ", 1)[-1]).decode()
    except ValueError:
        decoded = ""
    return f"{authorization} {decoded} {decoded.upper()}"


class ForwardProxy:
    def __init__(self, mode: str | None = None) -> None:
        self.mode = mode
        self.seen: list[str] = []  # the request targets (absolute URLs, or host:port of a CONNECT)
        self.authorization: list[str] = []  # the Proxy-Authorization of each request ("" if none)
        self._release = threading.Event()  # set at shutdown: a stalled handler gives up
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                proxy._handle(self)

            do_POST = do_CONNECT = do_GET

        class Server(ThreadingHTTPServer):
            def handle_error(self, request, client_address) -> None:
                # A client that hangs up mid-answer (a refused 407, a command that stopped) is no error of the
                # proxy's; socketserver would print its traceback to stderr, into the output a test reads.
                pass

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)  # quick to stop

    def __enter__(self) -> ForwardProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._release.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        authorization = handler.headers.get("Proxy-Authorization", "")
        with self._lock:
            self.seen.append(handler.path)
            self.authorization.append(authorization)
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else None
        if self.mode == "stall":
            self._release.wait(600)
            handler.close_connection = True
            return
        if self.mode == "refuse" or handler.command == "CONNECT":
            status, headers, data = 407, {"Proxy-Authenticate": 'Basic realm="test"'}, b"proxy authentication required"
            if self.mode != "refuse":
                status, headers, data = 501, {}, b"no tunnels here"
        else:
            status, headers, data = self._forward(handler, body)
            if self.mode == "echo" and status == 200:
                data = self._echo(data, echoed(authorization))
        handler.send_response(status)
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    @staticmethod
    def _forward(handler: BaseHTTPRequestHandler, body: bytes | None) -> tuple[int, dict, bytes]:
        headers = {name: handler.headers[name] for name in FORWARDED_HEADERS if handler.headers.get(name)}
        request = urllib.request.Request(handler.path, data=body, headers=headers, method=handler.command)
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # straight to the server
        try:
            with opener.open(request, timeout=60) as answer:
                return answer.status, {"Content-Type": answer.headers.get("Content-Type", "")}, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, {"Content-Type": error.headers.get("Content-Type", "")}, error.read()

    @staticmethod
    def _echo(data: bytes, text: str) -> bytes:
        try:
            answer = json.loads(data)
        except ValueError:
            return data
        for choice in answer.get("choices", []) if isinstance(answer, dict) else []:
            if isinstance(choice.get("message"), dict):
                choice["message"]["content"] = f"{text} {choice['message'].get('content') or ''}"
            elif "text" in choice:
                choice["text"] = f" {text},{choice['text']}"
        return json.dumps(answer).encode()
