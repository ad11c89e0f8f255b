"""The LLM judge on the real embedded engine (llama.cpp serving SmolLM2-135M, `--local`): a small tasks file judged,
killed with -9 mid-run and rerun without asking twice; and `swords judge validate --local` (on 20 candidates; the
manual's 200 were measured by hand)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time

import pytest

from swords_baselines.llm.engine import unavailable_reason

from ..conftest import REPO_ROOT
from .judge_helpers import dev_tasks_file, records
from .run_helpers import SWORDS

if unavailable_reason():
    pytest.skip(f"the local engine cannot run here: {unavailable_reason()}", allow_module_level=True)

OFFLINE = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "OPENAI_API_KEY": ""}
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
    # the rerun took what the first run received from the cache (a request it sent again would be stored again, as
    # a new file), and asked for the rest (more requests than candidates only if one was retried on a timeout)
    assert {path: path.stat().st_ino for path in received} == received
    sent = re.search(rf"\((\d+) requests, {len(received)} cached\)", done.stdout)
    assert sent and int(sent.group(1)) >= 10 - len(received), done.stdout
    answers = [
        json.loads(path.read_text())["response"]["choices"][0]["message"]["content"] for path in cache.rglob("*.json")
    ]
    assert len(answers) == 10
    written = records(output)
    labelled = sum(answer.strip().lower() in LABELS for answer in answers)
    assert len(written) == labelled and all(r["label"] in LABELS for r in written)  # the others: failed items
    assert f"failed items: {10 - labelled} ({10 - labelled} not a label" in done.stdout


@pytest.mark.slow
@pytest.mark.engine
def test_judge_validate_local_on_dev_candidates(tmp_path):
    """The command the manual's 200-candidate figures come from (docs/baselines/judge.md: 52 min on two busy cores,
    run by hand), on 10 candidates: one SWORDS-sized task, so that the test command stays within its budget (the
    validation's arithmetic over many tasks is test_judge_validate.py's, against a test server)."""
    output = tmp_path / "validation.json"
    done = judge("validate", "--dataset", "swords", "--split", "dev", "--sample", "10", "--local",
                 "--cache-dir", str(tmp_path / "cache"), "--output", str(output), timeout=1800)  # fmt: skip
    assert done.returncode == 0, done.stderr
    ((judge_id, entry),) = json.loads(output.read_text()).items()
    assert judge_id.startswith("llm:smollm2-135m:") and entry["sample"] == 10
    # 10 candidates (10 of a target, more targets where one has fewer), each task with its two controls: every item
    # labelled or a failed item
    assert (
        entry["tasks"] >= 1
        and entry["candidates"] + entry["controls"]["judged"] + entry["failed"] == 10 + 2 * entry["tasks"]
    )
    assert entry["human_ceiling"]["candidates"] > 5000
    assert "humans (" in done.stdout and judge_id in done.stdout
