"""The user's literal calls against a real Hub-compatible server: the exported repositories (`swords hub export`)
served by olah (PyPI `olah`, a Hugging Face Hub mirror) from local git repositories on 127.0.0.1, and, with
`HF_ENDPOINT` at it and empty caches, `load_dataset("ORG/swords", ...)` and `evaluate.load("ORG/swords_metric")`.

olah serves `{mirrors-path}/{datasets|spaces}/{org}/{repo}` git repositories through the Hub's API (repository
info, revision, tree, resolve), offline. One difference from the Hub: asked for a revision a repository lacks,
it answers 401 (RepoNotFound) where the Hub answers 404, and evaluate, which first asks for the tag of its own
version (v0.4.6) and falls back to `main` only on a 404, would stop there; so the calls run with
`HF_SCRIPTS_VERSION=main` (evaluate's own setting for the revision it asks for)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import pytest

import swords_dataset
from swords_lexsub.hub.repos import hub_repos

from .conftest import REPO_ROOT, free_port, run_swords
from .space_server import stop_process

ORG = "swords-test-org"
ORACLE = REPO_ROOT / "space" / "results" / "coinco-oracle.swords.test.jsonl"  # a real system's recorded output
OLAH = Path(sys.executable).parent / "olah-cli"
START_TIMEOUT = 60  # seconds; olah answers in about 3


def git_repository(source: Path, destination: Path) -> None:
    """`destination` as a git repository whose one commit on `main` holds the files of `source`."""
    subprocess.run(["cp", "-r", str(source), str(destination)], check=True)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@127.0.0.1",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@127.0.0.1",
    }
    for command in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "swords hub export"]):
        subprocess.run(["git", *command], cwd=destination, env=env, check=True, timeout=60)


@pytest.fixture(scope="module")
def hub_server(hub_export, tmp_path_factory):
    """olah on a free 127.0.0.1 port, serving every exported repository under ORG; its URL and log."""
    if not OLAH.is_file():
        pytest.fail(f"olah is not installed ({OLAH}); it is in the test extra: pip install -e '.[test]'")
    root = tmp_path_factory.mktemp("olah")
    for repo in hub_repos():
        (root / "mirrors" / f"{repo.repo_type}s" / ORG).mkdir(parents=True, exist_ok=True)
        git_repository(hub_export / repo.folder, root / "mirrors" / f"{repo.repo_type}s" / ORG / repo.name)
    port = free_port()
    (root / "olah.toml").write_text(
        textwrap.dedent(f"""
        [basic]
        host = "127.0.0.1"
        port = {port}
        repos-path = "{root / "repos"}"
        mirrors-path = ["{root / "mirrors"}"]
        hf-scheme = "http"
        hf-netloc = "127.0.0.1:{free_port()}"
        hf-lfs-netloc = "127.0.0.1:{free_port()}"
        [accessibility]
        offline = true
        """)
    )
    log_path = root / "olah.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen([str(OLAH), "-c", "olah.toml"], cwd=root, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        started = time.perf_counter()
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/datasets/{ORG}/swords/revision/main", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.perf_counter() - started > START_TIMEOUT:
                raise AssertionError(f"olah did not answer at {url}:\n{log_path.read_text(errors='replace')[-3000:]}")
            time.sleep(0.3)
        yield {"url": url, "log": log_path}
    finally:
        stop_process(server)


USER_CALLS = textwrap.dedent(
    """
    import json, sys
    from datasets import load_dataset
    import evaluate
    from swords_metric import read_predictions

    org, oracle, out = sys.argv[1:4]
    test = load_dataset(f"{org}/swords", "swords", split="test")
    metric = evaluate.load(f"{org}/swords_metric")
    predictions, _ = read_predictions(oracle)
    result = metric.compute(predictions=predictions, references=test)
    with open(out, "w") as f:
        json.dump({"rows": test.to_list(), "result": result, "module": type(metric).__module__}, f)
    """
)


def test_load_dataset_and_evaluate_load_from_the_server_give_the_shipped_rows_and_swords_evaluate(hub_server, tmp_path):
    out = tmp_path / "out.json"
    env = {
        **os.environ,
        "HF_ENDPOINT": hub_server["url"],
        "HF_HOME": str(tmp_path / "hf"),
        "HF_HUB_OFFLINE": "0",
        "HF_DATASETS_OFFLINE": "0",
        "HF_SCRIPTS_VERSION": "main",
        "HF_HUB_DISABLE_TELEMETRY": "1",
    }
    for variable in ("HF_DATASETS_CACHE", "HF_MODULES_CACHE", "HF_HUB_CACHE", "HF_EVALUATE_CACHE"):
        env.pop(variable, None)
    done = subprocess.run(
        [sys.executable, "-c", USER_CALLS, ORG, str(ORACLE), str(out)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    loaded = json.loads(out.read_text())
    assert loaded["rows"] == json.loads(json.dumps(swords_dataset.load("swords", split="test").to_list()))

    cli = run_swords(
        "evaluate", "--dataset", "swords", "--split", "test", "--predictions", str(ORACLE), "--json", "--bootstrap", "0"
    )
    assert cli.returncode == 0, cli.stderr
    expected = {
        name: value for name, value in json.loads(cli.stdout).items() if name not in ("analysis", "id_scheme")
    }  # id_scheme: see tests/metric/test_hub_metric.py
    assert {name: value for name, value in loaded["result"].items() if name != "id_scheme"} == expected
    assert loaded["module"] == "swords_metric.swords_metric"  # the installed package's, as the module file pins

    log = hub_server["log"].read_text(errors="replace")  # both came from the server, not from a local copy
    assert f"GET /datasets/{ORG}/swords/resolve/" in log and "data/swords/test.parquet" in log
    assert f"GET /spaces/{ORG}/swords_metric/resolve/main/swords_metric.py" in log
