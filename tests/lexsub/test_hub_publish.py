"""`swords hub publish --org ORG [--dry-run]` and `swords data publish` as a user runs them against a Hub-compatible
server on 127.0.0.1 (tests/hub_server.py): what they would upload, and each way they fail in one line (exit 2)
naming the Hub's address, without ever showing a secret (any 8-character piece of the token in any case,
HF_ENDPOINT's password) or the server's escape sequences. Time, memory, signals: test_hub_publish_faults.py."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request

import pytest

from swords_lexsub.hub.repos import DEFAULT_ORG, hub_repos, repo_url

from ..conftest import free_port, run_swords
from ..hub_server import HubServer, Reply, publish

SECRET = "hf_Qm7xT2vLp9KdW4sZr8NcY1bHj6FgA3eUo"
# How a careless server may echo the token: whole, upper-cased, less its last characters, a piece in lower case.
ECHOES = {"whole": SECRET, "upper": SECRET.upper(), "cut": SECRET[:-5], "piece": SECRET[10:19].lower()}
PASSWORD = "pw-Zq8Rt5Lk"


def token_pieces(text: str) -> list[str]:
    """Every 8-character piece of the token that `text` holds, in any case."""
    lowered, secret = text.lower(), SECRET.lower()
    return [secret[i : i + 8] for i in range(len(secret) - 7) if secret[i : i + 8] in lowered]


def listed_repositories(stdout: str) -> dict[str, dict[str, int]]:
    """'TYPE ORG/NAME URL: …' headers, each followed by '  SIZE  PATH' lines -> {header: {path: size}}."""
    found: dict[str, dict[str, int]] = {}
    header = None
    for line in stdout.splitlines()[:-1]:
        if line.startswith(" "):
            size, path = line.split()
            found[header][path] = int(size.replace(",", ""))
        else:
            header = line[: line.index(": ")]  # the URL holds ':' but never ': '
            found[header] = {}
    return found


def test_dry_run_lists_every_repository_with_its_url_files_and_sizes(hub_export):
    result = run_swords("hub", "publish", "--dry-run", env={"HF_TOKEN": "", "HF_ENDPOINT": "http://127.0.0.1:9"})
    assert result.returncode == 0, result.stderr
    listed = listed_repositories(result.stdout)
    repos = hub_repos()
    assert [repo.folder for repo in repos] == ["dataset", "metric", "space"]
    expected = {}
    for repo in repos:
        url = repo_url(repo, DEFAULT_ORG, "http://127.0.0.1:9")
        files = {
            p.relative_to(hub_export / repo.folder).as_posix(): p.stat().st_size
            for p in (hub_export / repo.folder).rglob("*")
            if p.is_file()
        }
        expected[f"{repo.repo_type} {DEFAULT_ORG}/{repo.name} {url}"] = files
    assert listed == expected
    assert "dataset swords-lexsub/swords http://127.0.0.1:9/datasets/swords-lexsub/swords" in listed
    assert "space swords-lexsub/swords_metric http://127.0.0.1:9/spaces/swords-lexsub/swords_metric" in listed
    assert result.stdout.splitlines()[-1] == f"{len(repos)} repositories (dry run, nothing uploaded)"


def assert_one_line_error(result: subprocess.CompletedProcess, *expected: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for text in expected:
        assert text in lines[0], lines[0]
    assert token_pieces(result.stdout + result.stderr) == []


def test_without_a_token_nothing_is_done():
    result = run_swords("hub", "publish", "--org", "someorg", env={"HF_TOKEN": "", "HUGGING_FACE_HUB_TOKEN": ""})
    assert_one_line_error(result, "no Hugging Face token: set HF_TOKEN")
    assert result.stdout == ""


@pytest.mark.parametrize("org", ["bad..org", "-org", "org/sub", "a" * 97])
def test_an_org_the_hub_would_refuse_is_named(org):
    result = run_swords("hub", "publish", f"--org={org}", "--dry-run", env={"HF_TOKEN": SECRET})
    assert_one_line_error(result, "is not ORG/NAME as the Hub accepts it", f"{org[:40]}")


def test_an_unreachable_hub_is_one_line_naming_the_repository():
    port = free_port()  # nobody listens there
    result = run_swords(
        "hub",
        "publish",
        "--org",
        "someorg",
        env={"HF_TOKEN": SECRET, "HF_ENDPOINT": f"http://127.0.0.1:{port}", "HF_HUB_OFFLINE": "0"},
    )
    assert_one_line_error(result, f"dataset upload to someorg/swords at http://127.0.0.1:{port} failed")


def test_a_server_that_refuses_the_upload_is_one_line_naming_the_repository(tmp_path):
    """A real HTTP server on 127.0.0.1 (Python's http.server, which answers the Hub's POST with 501)."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):  # until it answers
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        started = time.perf_counter()
        result = run_swords(
            "hub",
            "publish",
            "--org",
            "someorg",
            env={"HF_TOKEN": SECRET, "HF_ENDPOINT": f"http://127.0.0.1:{port}", "HF_HUB_OFFLINE": "0"},
        )
        assert_one_line_error(result, f"dataset upload to someorg/swords at http://127.0.0.1:{port} failed", "501")
        assert time.perf_counter() - started < 120
    finally:
        server.terminate()
        server.wait(10)


def test_a_10_kb_org_or_one_with_escape_sequences_is_echoed_cut_and_escaped():
    result = run_swords("hub", "publish", "--org", "a" * 10_000, "--dry-run")
    assert_one_line_error(result, "repository id 'aaaa", "is not ORG/NAME")
    assert len(result.stderr) < 500
    result = run_swords("hub", "publish", "--org", "x\x1b[2J\u202ey", "--dry-run")
    assert_one_line_error(result, "repository id 'x\\x1b[2J\\u202ey/swords'")
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr


# -- a server that echoes secrets --


def publish_to(server: HubServer, tmp_path, *args: str, endpoint: str | None = None, **env: str):
    command = args or ("hub", "publish", "--org", "someorg")
    return publish(*command, env={"HF_ENDPOINT": endpoint or server.url, "HF_TOKEN": SECRET, **env}, tmp=tmp_path)


def test_a_commit_url_that_echoes_the_token_is_printed_without_it(tmp_path):
    suffix = "?" + "&".join(f"{name}={echo}" for name, echo in ECHOES.items()) + "&e=\x1b[2J\u202e"
    with HubServer(commit_url_suffix=suffix) as server:
        result = publish_to(server, tmp_path)
        data = publish_to(server, tmp_path, "data", "publish", "--repo-id", "someorg/data")
    assert result.returncode == 0, result.stderr
    assert f"Bearer {SECRET}" in server.authorization  # the server had the token to echo
    lines = result.stdout.splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == [
        "dataset someorg/swords",
        "space someorg/swords_metric",
        "space someorg/swords-demo",
    ]
    assert lines[0] == (
        f"dataset someorg/swords: {server.url}/datasets/someorg/swords/commit/{'c' * 40}"
        "?whole=***&upper=***&cut=***&piece=***&e=\\x1b[2J\\u202e"
    )
    assert data.returncode == 0 and data.stdout.startswith(f"{server.url}/datasets/someorg/data/commit/")
    for output in (result.stdout + result.stderr, data.stdout + data.stderr):
        assert token_pieces(output) == [] and "\x1b" not in output and "\u202e" not in output


@pytest.mark.parametrize("echo", ECHOES)
@pytest.mark.slow  # 10 s on two cores
def test_a_refusal_that_echoes_the_token_is_one_line_without_it(tmp_path, echo):
    refusal = Reply(403, json.dumps({"error": f"token {ECHOES[echo]} may not write here"}))
    with HubServer(faults={"commit": refusal}) as server:
        result = publish_to(server, tmp_path)
        data = publish_to(server, tmp_path, "data", "publish", "--repo-id", "someorg/data")
    assert_one_line_error(result, f"dataset upload to someorg/swords at {server.url} failed", "token *** may not")
    assert_one_line_error(data, f"upload to someorg/data at {server.url} failed", "token *** may not write here")


def test_a_password_in_hf_endpoint_is_never_printed(tmp_path):
    with HubServer(faults={"preupload": Reply(400, json.dumps({"error": f"no user admin:{PASSWORD} here"}))}) as server:
        endpoint = server.url.replace("http://", f"http://admin:{PASSWORD}@")
        listing = publish_to(server, tmp_path, "hub", "publish", "--dry-run", endpoint=endpoint)
        failed = publish_to(server, tmp_path, endpoint=endpoint)
    assert listing.returncode == 0, listing.stderr
    assert f"dataset swords-lexsub/swords {server.url}/datasets/swords-lexsub/swords: " in listing.stdout
    assert_one_line_error(failed, f"dataset upload to someorg/swords at {server.url} failed", "no user ***:*** here")
    assert server.steps()[-1] == "preupload"  # the server was reached with the password in the address
    for output in (listing.stdout + listing.stderr, failed.stdout + failed.stderr):
        assert PASSWORD not in output and "admin" not in output


# -- what the server says, as one line --


@pytest.mark.parametrize(
    "reply, expected",
    [
        # huggingface_hub puts the server's reason on a second line, after "Bad request for commit endpoint:"
        (
            Reply(400, json.dumps({"error": "the card's YAML is invalid"})),
            "Bad request for commit endpoint: the card's",
        ),
        (Reply(404, json.dumps({"error": "Repository not found"})), "Repository not found"),
        (Reply(403, "<html>\n<body><h1>403 Forbidden</h1>\n</body></html>", "text/html"), "403 Forbidden"),
        (Reply(400, json.dumps({"error": "red \x1b[31mtext\x1b[0m \u202eright-to-left"})), "red \\x1b[31mtext"),
    ],
)
@pytest.mark.slow  # 7 s on two cores
def test_a_refusal_is_one_line_with_its_reason_and_the_host(tmp_path, reply, expected):
    with HubServer(faults={"commit": reply}) as server:
        result = publish_to(server, tmp_path)
    assert_one_line_error(result, f"dataset upload to someorg/swords at {server.url} failed: ", expected)
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr


@pytest.mark.parametrize("step", ["preupload", "commit"])
@pytest.mark.slow  # 13 s on two cores
def test_retries_are_silent_and_the_failure_is_one_line(tmp_path, step):
    """huggingface_hub tries a request answered 503 six times (here a second apart, as Retry-After: 0 asks),
    logging two lines for each, and then tries a failed commit again in smaller parts, six times each: the
    publish stops after the first six, and only its final line is printed."""
    unavailable = Reply(503, json.dumps({"error": "try again"}), headers={"Retry-After": "0"})
    with HubServer(faults={step: unavailable}) as server:
        result = publish_to(server, tmp_path)
    assert server.steps().count(step) == 6
    assert_one_line_error(result, f"dataset upload to someorg/swords at {server.url} failed", "503")
