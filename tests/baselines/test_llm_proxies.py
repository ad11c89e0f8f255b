"""The LLM clients (`swords judge llm`, `swords run --system llm`) behind the proxy the environment names, each fault
made to happen with a real forward proxy on 127.0.0.1 (tests/proxy_server.py) in front of a real OpenAI-compatible
server (tests/llm_server.py): a proxy that echoes the credentials it got, one that is not there, one that never
answers, one that speaks plain HTTP to a client that speaks TLS to it, one that answers 407; and proxy variables
that cannot work. What the user gets: no piece of a proxy's credentials anywhere, one line naming the proxy and its
variable (not the server, when the proxy is at fault), before any request where the variable says it all."""

from __future__ import annotations

import base64
import importlib.util
from pathlib import Path

import pytest

from swords_lexsub.cli import main as swords_main

from ..conftest import free_port
from ..llm_server import Canned, LLMServer
from ..proxy_server import ForwardProxy
from .judge_helpers import dev_tasks_file, items, user_message
from .run_helpers import llm_args, one_line, swords

USER, PASSWORD = "proxyuser", "Pr0xy-Secret-7f3a9c1e"
PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")


@pytest.fixture
def tasks(tmp_path, dev) -> Path:
    return dev_tasks_file(tmp_path / "tasks.jsonl", dev)  # 2 targets, 3 candidates and 2 controls each


@pytest.fixture
def environment(monkeypatch):
    """No proxy variable but those the test sets."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    return monkeypatch


def judge_args(base_url: str, tasks: Path, output: Path, *extra: str, cache: str = "off") -> list[str]:
    return [
        "judge", "llm", "--tasks", str(tasks), "--output", str(output), "--base-url", base_url, "--model", "m",
        "--cache-dir", cache, "--backoff", "0.01", "--timeout", "1", "--max-retries", "1", *extra,
    ]  # fmt: skip


def proxied(url: str) -> dict[str, str]:
    """A subprocess's environment for plain HTTP through `url`, whatever this one sets (an empty lower-case variable
    unsets the upper-case one, as urllib reads them)."""
    return {"HTTP_PROXY": url, "http_proxy": url, "NO_PROXY": "", "no_proxy": ""}


def error_line(capsys, args: list[str]) -> str:
    """The one error line of a refused command, run in this process (exit 2, no traceback); the notes before it
    ("judge llm: asking …", "judge: …", a retry) are the command's own."""
    capsys.readouterr()
    assert swords_main(args) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert "Traceback" not in err and all(line.startswith(("judge llm: ", "judge: ")) for line in lines[:-1]), err
    assert lines[-1].startswith("swords: error: "), err
    return lines[-1]


def secrets_of(user: str, password: str) -> dict[str, str]:
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"user": user, "password": password, "upper": password.upper(), "basic": token, "basic cut": token[:13]}


def assert_nowhere(secrets: dict[str, str], text: str, folder: Path) -> None:
    files = [path for path in folder.rglob("*") if path.is_file() and path.name != "tasks.jsonl"]
    assert files
    for name, piece in secrets.items():
        assert piece.lower() not in text.lower(), name
        for path in files:
            assert piece.lower() not in path.read_text(errors="replace").lower(), (name, path)


# --- credentials ---------------------------------------------------------------------------------------------------


@pytest.mark.slow  # 5 to 7 s on two cores
def test_a_proxy_that_echoes_its_credentials_has_them_shown_and_written_nowhere_by_judge_llm(
    tasks, tmp_path, environment, capsys
):
    """Issue 47: `user:pass` and its base64 were in the "not a label" lines and every response-cache file."""
    output, cache = tmp_path / "out" / "j.jsonl", tmp_path / "cache"
    with LLMServer(generic="accept") as server, ForwardProxy("echo") as proxy:
        for task, candidate in items(tasks)[:3]:  # three replies that name no label: shown as failed items
            server.canned[user_message(task, candidate.substitute)] = Canned("no idea")
        environment.setenv("HTTP_PROXY", f"http://{USER}:{PASSWORD}@127.0.0.1:{proxy.port}")
        capsys.readouterr()
        assert swords_main(judge_args(server.base_url, tasks, output, cache=str(cache))) == 0
        sent = set(proxy.authorization)
    secrets = secrets_of(USER, PASSWORD)
    assert sent == {f"Basic {secrets['basic']}"}  # sent to the proxy with every request, and echoed into every reply
    out, err = capsys.readouterr()
    assert err.count("not a label: 'Basic ***") == 3, err
    assert len(list(cache.rglob("*.json"))) == 10 and output.exists()
    assert_nowhere(secrets, out + err, tmp_path)


@pytest.mark.slow  # 11 s on two cores
def test_a_proxy_that_echoes_its_credentials_has_them_shown_and_written_nowhere_by_swords_run(tmp_path, key):
    output, cache = tmp_path / "run" / "out.jsonl", tmp_path / "cache"
    user, password = "Prxy", "Another-Pr0xy-Pa55"  # a user shorter than a token's piece: masked whole, in any case
    with LLMServer() as server, ForwardProxy("echo") as proxy:
        environment = {**key, **proxied(f"http://{user}:{password}@127.0.0.1:{proxy.port}")}
        done = swords(*llm_args(server.base_url, output, "--cache-dir", str(cache), limit=3), env=environment)
        assert done.returncode == 0, done.stderr
        assert len(server.requests) == 3  # and the proxy saw them, after the server's slots were asked (/props)
        assert [url.rsplit("/", 1)[1] for url in proxy.seen] == ["props", "completions", "completions", "completions"]
    assert "Basic *" in output.read_text()  # the echo reached the output, masked (the parser keeps one star)
    assert len(list(cache.rglob("*.json"))) == 3
    assert_nowhere(secrets_of(user, password), done.stdout + done.stderr, tmp_path)


# --- proxy variables that cannot work: said before any request ---------------------------------------------------


@pytest.mark.parametrize(
    ("variable", "value", "problem"),
    [
        ("HTTP_PROXY", "not-a-url", "not a proxy URL (write http://host:port)"),
        ("HTTP_PROXY", "http://u:pw-secret@127.0.0.1:99999", "port 99999 is out of range (1 to 65535)"),
        ("http_proxy", "http://[::1:{port}", "not a valid URL (Invalid IPv6 URL)"),
        ("ALL_PROXY", "socks5://127.0.0.1:{port}", "a SOCKS proxy needs the socksio package (pip install socksio)"),
        ("HTTP_PROXY", "http://127.0.0.1:{port}\n", "a URL has no spaces or control characters"),
    ],
)
def test_a_proxy_variable_that_cannot_work_is_one_line_before_any_request(
    tasks, tmp_path, environment, capsys, variable, value, problem
):
    """Issue 47: these were "unexpected ImportError/ValueError/ExceptionGroup/InvalidURL" after the requests began."""
    if "socks5" in value and importlib.util.find_spec("socksio") is not None:
        pytest.skip("socksio is installed here: a SOCKS proxy can be used")
    with LLMServer(generic="accept") as server, ForwardProxy() as proxy:
        environment.setenv(variable, value.format(port=proxy.port))
        output = tmp_path / "j.jsonl"
        line = error_line(capsys, judge_args(server.base_url, tasks, output))
        assert line.startswith(f"swords: error: judge llm: {variable}='") and problem in line, line
        assert "pw-secret" not in line and ("\\n'" in line) == ("\n" in value)
        # The same from `swords run --system llm`, and from `judge validate` (which says it is judge validate).
        line = error_line(capsys, llm_args(server.base_url, tmp_path / "run.jsonl"))
        assert line.startswith(f"swords: error: llm: {variable}='") and problem in line, line
        validate = ["judge", "validate", "--base-url", server.base_url, "--model", "m", "--cache-dir", "off"]
        assert error_line(capsys, validate).startswith(f"swords: error: judge validate: {variable}='")
        assert not server.requests and not server.gets and not proxy.seen
    assert sorted(path.name for path in tmp_path.iterdir()) == ["tasks.jsonl"]


# --- a proxy that fails at run time: named, not the server ------------------------------------------------------


def test_a_proxy_that_is_not_there_is_named_not_the_server(tasks, tmp_path, environment, capsys):
    port = free_port()  # nothing listens
    with LLMServer(generic="accept") as server:
        environment.setenv("HTTP_PROXY", f"http://127.0.0.1:{port}")
        line = error_line(capsys, judge_args(server.base_url, tasks, tmp_path / "j.jsonl"))
        assert not server.requests
    assert f"judge llm: the proxy http://127.0.0.1:{port} (HTTP_PROXY) is not answering" in line, line
    assert "Connection refused" in line and "the server at" not in line and "nothing was written" in line


@pytest.mark.slow  # 4 s on two cores
def test_a_proxy_that_never_answers_is_named_with_the_server_behind_it(tasks, tmp_path, environment, capsys):
    """A proxy that takes the request and says nothing cannot be told from a server behind it that says nothing: both
    are named."""
    with LLMServer(generic="accept") as server, ForwardProxy("stall") as proxy:
        environment.setenv("HTTP_PROXY", proxy.url)
        line = error_line(capsys, judge_args(server.base_url, tasks, tmp_path / "j.jsonl"))
        assert proxy.seen and not server.requests
    assert f"the server at {server.base_url}, through the proxy {proxy.url} (HTTP_PROXY), is not answering" in line
    assert "timed out after 1 s" in line


def test_tls_to_a_proxy_that_speaks_plain_http_is_named_at_once(tasks, tmp_path, environment, capsys):
    with LLMServer(generic="accept") as server, ForwardProxy() as proxy:
        url = proxy.url.replace("http://", "https://")
        environment.setenv("HTTP_PROXY", url)
        line = error_line(capsys, judge_args(server.base_url, tasks, tmp_path / "j.jsonl"))
        assert not server.requests
    assert f"judge llm: the proxy {url} (HTTP_PROXY): its TLS handshake failed" in line, line
    assert "a proxy that speaks plain HTTP is written http://… in HTTP_PROXY" in line


@pytest.mark.parametrize("scheme", ["http", "https"])
@pytest.mark.parametrize("given", [False, True])
def test_a_proxy_that_answers_407_is_named_at_once(tasks, tmp_path, environment, capsys, scheme, given):
    """Forwarding plain HTTP (the 407 is an answer) or opening a tunnel for HTTPS (the 407 refuses CONNECT)."""
    variable = f"{scheme.upper()}_PROXY"
    with LLMServer(generic="accept") as server, ForwardProxy("refuse") as proxy:
        environment.setenv(variable, proxy.url.replace("://", f"://{USER}:{PASSWORD}@") if given else proxy.url)
        base_url = server.base_url.replace("http://", f"{scheme}://")
        line = error_line(capsys, judge_args(base_url, tasks, tmp_path / "j.jsonl"))
        asked = len(proxy.seen)
        assert not server.requests
    named = f"judge llm: the proxy {proxy.url} ({variable})"
    if given:
        assert f"{named} refuses the user and password {variable} gives (HTTP 407)" in line, line
    else:
        assert f"{named} asks for a user and password (HTTP 407): write them in {variable} as http://" in line, line
    # The probes (the server's slots, its constraint), then the first requests in flight: no retries
    assert asked <= 2 + 4 and PASSWORD not in line


@pytest.mark.slow  # 23 s on two cores
def test_swords_run_names_the_proxy_too(tmp_path, key):
    """A run that stops as five targets failed in a row says so in its last line, and nothing after it: the requests
    failed with it were each retrieved ("Task exception was never retrieved" and a traceback followed it before)."""
    closed_port = f"http://127.0.0.1:{free_port()}"
    with LLMServer() as server, ForwardProxy("refuse") as refusing:
        args = llm_args(server.base_url, tmp_path / "a.jsonl", "--max-retries", "0", "--backoff", "0.01")
        closed = swords(*args, env={**key, **proxied(closed_port)})
        refused = swords(*llm_args(server.base_url, tmp_path / "b.jsonl"), env={**key, **proxied(refusing.url)})
        assert not server.requests
    assert closed.returncode == 2 and "Traceback" not in closed.stderr, closed.stderr[-2000:]
    assert "never retrieved" not in closed.stderr
    last = closed.stderr.strip().splitlines()[-1]
    assert f"the proxy {closed_port} (http_proxy)" in last and "the server at" not in last, last
    line = one_line(refused)
    assert f"the proxy {refusing.url} (http_proxy) asks for a user and password (HTTP 407)" in line, line
