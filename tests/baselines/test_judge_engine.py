"""The LLM judge on the real embedded engine (llama.cpp serving SmolLM2-135M, `--local`, its answers constrained by a
grammar): a small tasks file judged whole (every item a label), killed with -9 mid-run and rerun without asking
twice; another GGUF file of the shipped model's name and size is another judge, never answered from the shipped
model's cache; and `swords judge validate --local` (on 10 candidates; the manual's 200 were measured by hand)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time

import pytest

from swords_baselines.llm.engine import unavailable_reason

from ..conftest import REPO_ROOT, free_port
from .judge_helpers import dev_tasks_file, records
from .run_helpers import SWORDS

if unavailable_reason():
    pytest.skip(f"the local engine cannot run here: {unavailable_reason()}", allow_module_level=True)

OFFLINE = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "OPENAI_API_KEY": ""}
# A proxy variable that names a port nobody listens on: the engine, on this machine, is asked directly (issue 47:
# its health check went through the proxy, and the requests too).
DEAD_PROXY = f"http://127.0.0.1:{free_port()}"
OFFLINE.update(HTTP_PROXY=DEAD_PROXY, http_proxy=DEAD_PROXY, NO_PROXY="", no_proxy="")
LABELS = {"accept", "reject", "abstain"}


def judge(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    command = [*SWORDS, "judge", *args]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout, env=OFFLINE)


@pytest.mark.slow
@pytest.mark.engine
def test_judge_llm_local_killed_with_9_and_rerun_asks_nothing_twice(tmp_path, dev):
    tasks = dev_tasks_file(tmp_path / "tasks.jsonl", dev)  # 10 candidates with the controls
    output, cache = tmp_path / "j.jsonl", tmp_path / "cache"
    args = ["llm", "--tasks", str(tasks), "--output", str(output), "--local", "--cache-dir", str(cache)]
    args += ["--timeout", "600"]  # two shared cores: a slow answer is waited for, not asked again
    process = subprocess.Popen([*SWORDS, "judge", *args], cwd=REPO_ROOT, env=OFFLINE, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 600
    while len(list(cache.rglob("*.json"))) < 2:  # two answers received (the engine has two slots)
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.2)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(30)
    assert not output.exists() and output.with_name(output.name + ".partial").exists()
    received = {path: path.stat().st_ino for path in cache.rglob("*.json")}
    assert len(received) < 10, "the run finished before it was killed"
    done = judge(*args)
    assert done.returncode == 0, done.stderr
    # the rerun took what the first run received from its journal or the cache (a request it sent again would be
    # stored again, as a new file), and asked for the rest (more requests than candidates only if one was retried)
    assert {path: path.stat().st_ino for path in received} == received
    sent = re.search(r"\((\d+) requests, (\d+) cached\)", done.stdout)
    assert sent and int(sent.group(2)) <= len(received) and int(sent.group(1)) >= 10 - len(received), done.stdout
    answers = [
        json.loads(path.read_text())["response"]["choices"][0]["message"]["content"] for path in cache.rglob("*.json")
    ]
    # the grammar: every answer is a bare label (free text gave 0 of 26 items a label), so every item is judged
    assert len(answers) == 10 and set(answers) <= LABELS, answers
    written = records(output)
    assert len(written) == 10 and all(r["label"] in LABELS and r["constraint"] == "grammar" for r in written)
    assert all(0.0 <= r["p_accept"] <= 1.0 for r in written)  # llama.cpp gave its log-probabilities
    assert "failed items: 0 (0 not a label, 0 no answer)" in done.stdout


@pytest.mark.slow
@pytest.mark.engine
def test_a_look_alike_model_file_is_not_answered_from_the_shipped_model_s_cache(tmp_path, dev):
    from swords_baselines.llm.engine import model_path

    tasks = dev_tasks_file(tmp_path / "tasks.jsonl", dev, targets=1, per_target=1)  # 3 items with the controls
    shipped = model_path()
    other = tmp_path / "custom" / "smollm2-135m.gguf"  # the shipped model's name and size, one weight byte changed
    other.parent.mkdir()
    data = bytearray(shipped.read_bytes())
    data[-1] ^= 0xFF
    other.write_bytes(data)
    cache = tmp_path / "cache"
    common = ["--tasks", str(tasks), "--local", "--cache-dir", str(cache), "--timeout", "600"]
    first = judge("llm", *common, "--output", str(tmp_path / "shipped.jsonl"))
    assert first.returncode == 0, first.stderr
    second = judge("llm", *common, "--output", str(tmp_path / "other.jsonl"), "--model", str(other))
    assert second.returncode == 0, second.stderr
    assert re.search(r"\(\d+ requests, 0 cached\)", second.stdout), second.stdout  # its own answers, asked
    assert len(list(cache.rglob("*.json"))) == 6
    (shipped_id,), (other_id,) = ({r["judge"] for r in records(tmp_path / f"{n}.jsonl")} for n in ("shipped", "other"))
    assert shipped_id.startswith("llm:smollm2-135m@") and other_id != shipped_id


@pytest.mark.slow
@pytest.mark.engine
def test_judge_validate_local_on_dev_candidates(tmp_path):
    """The command the manual's 200-candidate figures come from (docs/baselines/judge.md, run by hand), on 10
    candidates: one SWORDS-sized task, so that the test command stays within its budget (the validation's arithmetic
    over many tasks is test_judge_validate.py's, against a test server)."""
    done = judge("validate", "--dataset", "swords", "--split", "dev", "--sample", "10", "--local",
                 "--cache-dir", str(tmp_path / "cache"), timeout=1800)  # fmt: skip
    assert done.returncode == 0, done.stderr
    # 10 candidates (of one target or more), each task with its two controls: every item labelled under the grammar
    labelled = (
        r"(llm:smollm2-135m@[0-9a-f]{12}:[0-9a-f]{8}) on swords dev: 10 of 10 candidates labelled "
        r"\(0 failed items; controls \d+/\d+ right; answers constrained: grammar;"
    )
    found = re.search(labelled, done.stdout)
    assert found, done.stdout
    assert "one person (" in done.stdout and "humans: two pools (5,369)" in done.stdout
    assert "LLM judge ranked by its probability of accept: Spearman" in done.stdout
    # 10 candidates are no measurement: shown, and said so (with --output, refused before the engine starts)
    assert "not a measurement: 10 labelled candidates" in done.stderr
