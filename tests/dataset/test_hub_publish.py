"""`swords hub publish --org ORG [--dry-run]` as a user runs it: what it would upload, and each way it fails in one
line (exit 2) without ever showing the token."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request

import pytest

from swords_dataset.hub import DEFAULT_ORG, hub_repos, repo_url

from ..conftest import free_port, run_swords

SECRET = "hf_" + "s3cr3t" * 6


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
        files = {p.relative_to(hub_export / repo.folder).as_posix(): p.stat().st_size
                 for p in (hub_export / repo.folder).rglob("*") if p.is_file()}
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
    assert SECRET not in result.stdout + result.stderr


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
    result = run_swords("hub", "publish", "--org", "someorg",
                        env={"HF_TOKEN": SECRET, "HF_ENDPOINT": f"http://127.0.0.1:{port}", "HF_HUB_OFFLINE": "0"})
    assert_one_line_error(result, "dataset upload to someorg/swords failed")


def test_a_server_that_refuses_the_upload_is_one_line_naming_the_repository(tmp_path):
    """A real HTTP server on 127.0.0.1 (Python's http.server, which answers the Hub's POST with 501)."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=tmp_path,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):  # until it answers
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        started = time.perf_counter()
        result = run_swords("hub", "publish", "--org", "someorg",
                            env={"HF_TOKEN": SECRET, "HF_ENDPOINT": f"http://127.0.0.1:{port}", "HF_HUB_OFFLINE": "0"})
        assert_one_line_error(result, "dataset upload to someorg/swords failed", "501")
        assert time.perf_counter() - started < 120
    finally:
        server.terminate()
        server.wait(10)

