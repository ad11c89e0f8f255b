"""Faults, not happy paths: the LLM runner against a broken server (stalled, failing, cut short, unreachable,
echoing credentials). Each test makes the fault happen (servers on 127.0.0.1 only, every wait bounded) and
checks what the user gets: bounded time, one clear line, no credential. Interrupted runs are in
test_runs_killed.py, repeated and concurrent ones in test_runs_refused.py, a full disk in test_runs_full_disk.py,
missing models and hostile input in test_faults_cli.py; the Space's faults (bomb uploads, concurrent users) are in
test_space_faults.py."""

from __future__ import annotations

import base64
import json
import secrets
import socket
from pathlib import Path

import pytest

from swords_baselines.run.files import output_paths
from swords_metric import read_predictions

from ..conftest import begin_for
from ..llm_server import LLMServer
from .run_helpers import llm_args, one_line, swords


def assert_nowhere(folder: Path, done, *secrets_: str) -> None:
    """No secret in the command's output nor in any file it left."""
    for secret in secrets_:
        assert secret not in done.stdout + done.stderr, secret
        for path in folder.rglob("*"):
            if path.is_file():
                assert secret.encode() not in path.read_bytes(), (secret, path)


# --- The LLM runner against a broken server -------------------------------------------------------------


STALLED = "test_a_stalled_server_stops_the_run_with_default_settings_within_two_minutes"


@pytest.fixture(scope="module", autouse=True)
def stalled_run(request, tmp_path_factory):
    """The stalled-server run, begun as this file's tests begin: it waits a minute on the default timeout, while the
    other tests run (its figures are its own: the command's seconds, the server's requests)."""
    folder = tmp_path_factory.mktemp("stalled")
    key = {"SWORDS_FAULT_KEY": "sk-fault-" + secrets.token_hex(16)}

    def run():
        with LLMServer(mode="stall") as server:
            url = server.base_url.replace("http://", "http://user:PASSWORD1@") + "?api-key=QUERYSECRET"
            done = swords(*llm_args(url, folder / "out.jsonl", limit=0), env=key, timeout=400)
            return folder, key, server.port, done, len(server.requests)

    yield from begin_for(request, STALLED, run, limit=420)


@pytest.mark.slow  # 5 s on two cores
def test_a_server_answering_500_is_not_hammered(tmp_path, key):
    with LLMServer(mode="500") as server:
        done = swords(*llm_args(server.base_url, tmp_path / "out.jsonl", limit=0), env=key, timeout=120)
        sent = len(server.requests)
    line = one_line(done)
    assert "keeps failing" in line and "HTTP 500" in line and f"127.0.0.1:{server.port}" in line
    assert sent <= 32 and done.seconds < 30, (sent, done.seconds)


@pytest.mark.slow  # 12 s on two cores
def test_a_body_shorter_than_its_content_length_is_named_as_such(tmp_path, key):
    with LLMServer(mode="short-close") as server:
        done = swords(*llm_args(server.base_url, tmp_path / "a.jsonl", "--concurrency", "2"), env=key, timeout=120)
    assert "cut short" in one_line(done) and "complete message body" in one_line(done)
    with LLMServer(mode="short-hang") as server:
        done = swords(
            *llm_args(server.base_url, tmp_path / "b.jsonl", "--timeout", "1", "--concurrency", "2"),
            env=key,
            timeout=120,
        )
    line = one_line(done)
    assert "stalled: HTTP 200 announced" in line and "bytes, then nothing came for 1 s" in line, line


@pytest.mark.slow  # 4 s on two cores
def test_an_unreachable_url_is_named(tmp_path, key):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = swords(*llm_args(f"http://127.0.0.1:{port}/v1", tmp_path / "out.jsonl"), env=key, timeout=120)
    line = one_line(done)
    assert f"cannot connect to http://127.0.0.1:{port}/v1" in line and done.seconds < 30


@pytest.mark.slow  # 4 s on two cores
def test_credentials_never_reach_a_file_or_the_terminal(tmp_path, key):
    """The base URL carries a password and a query token; the server echoes the Authorization header and
    its request line (with the token) into every completion."""
    with LLMServer(mode="echo") as server:
        url = server.base_url.replace("http://", "http://user:PASSWORD2@") + "?api-key=QUERYSECRET2"
        output = tmp_path / "runs" / "out.jsonl"
        done = swords(*llm_args(url, output, limit=6), "--cache-dir", str(tmp_path / "cache"), env=key)
        assert done.returncode == 0, done.stderr
        assert all("api-key=QUERYSECRET2" in r["path"] for r in server.requests)  # the query token was sent
    basic = base64.b64encode(b"user:PASSWORD2").decode()  # the Basic-auth token the client made of them
    assert_nowhere(tmp_path, done, "PASSWORD2", "QUERYSECRET2", basic, key["SWORDS_FAULT_KEY"])
    header = json.loads(output_paths(output)["metrics"].read_text())["run"]
    assert header["options"]["base_url"] == f"http://127.0.0.1:{server.port}/v1"
    echoed = [s for items in read_predictions(output)[0].values() for s, _ in items if "/completions?" in s]
    assert echoed  # the echo arrived, its secrets blanked


# Last in the file: begun as the file's first test began (stalled_run), it has been waiting since.
@pytest.mark.slow  # 65 s on two cores, most of it spent while the file's other tests ran
def test_a_stalled_server_stops_the_run_with_default_settings_within_two_minutes(stalled_run):
    """A server that accepts connections and never answers, every option at its default (60 s timeout, 16
    requests in flight): the run gives up when the first requests time out, sends nothing more, and says
    so in one line naming the host but none of the URL's credentials."""
    folder, key, port, done, sent = stalled_run.result()
    line = one_line(done)
    assert f"127.0.0.1:{port}" in line and "not answering" in line and "timed out" in line
    assert "checkpointed" in line
    assert done.seconds < 60 + 60, done.seconds  # the first timeouts come at 60 s: stopped well within 2 minutes
    assert sent <= 32, sent  # the 16 in flight, and no retry after the server was found down
    assert_nowhere(folder, done, "PASSWORD1", "QUERYSECRET", key["SWORDS_FAULT_KEY"])
