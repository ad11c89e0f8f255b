"""`swords judge llm --shard K/N` and its join against an OpenAI-compatible server on 127.0.0.1 (tests/llm_server.py)
answering each candidate by its content: the shards' labels joined with no request are the labels online; a shard
of another tasks file is refused naming it."""

from __future__ import annotations

import hashlib
import json

import pytest

from swords_lexsub.cli import main as swords_main

from ..llm_server import Canned, LLMServer
from .judge_helpers import dev_tasks_file, items, records, user_message
from .test_judge_llm import judge_args

ANSWERS = ["accept", "reject", "abstain"]


def part(task_id: str, substitute: str, n: int) -> int:
    """The 1-based shard of a candidate, as the manual states it: sha256 of "TASK\\nSUBSTITUTE", 8 bytes, mod N."""
    digest = hashlib.sha256(f"{task_id}\n{substitute}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % n + 1


def labels_of(lines: list[str]) -> list:
    return [((r["task"], r["substitute"]), r["label"]) for r in map(json.loads, lines)]


def labels(path) -> dict:
    return {(r["task"], r["substitute"]): r["label"] for r in records(path)}


@pytest.fixture
def tasks(tmp_path, dev):
    return dev_tasks_file(tmp_path / "tasks.jsonl", dev, targets=3)  # 15 candidates


@pytest.fixture
def server(tasks):
    with LLMServer() as running:
        for n, (task, candidate) in enumerate(items(tasks)):
            running.canned[user_message(task, candidate.substitute)] = Canned(ANSWERS[n % 3])
        yield running


def test_shards_join_with_no_request_into_the_labels_online(tasks, server, tmp_path):
    assert swords_main(judge_args(server, tasks, tmp_path / "online.jsonl")) == 0
    online = labels(tmp_path / "online.jsonl")
    assert len(online) == 15 and len(server.requests) == 15
    for k in (1, 2):
        before = len(server.requests)
        assert swords_main(judge_args(server, tasks, tmp_path / "j.jsonl", "--shard", f"{k}/2")) == 0
        mine = {key for key in online if part(*key, 2) == k}
        shard_file = (tmp_path / f"j.jsonl.shard-{k}-of-2").read_text().splitlines()[1:]  # after its header
        assert {key for key, _ in labels_of(shard_file)} == mine
        assert len(server.requests) - before == len(mine)
        assert not (tmp_path / "j.jsonl").exists()
    before = len(server.requests)
    assert swords_main(judge_args(server, tasks, tmp_path / "j.jsonl")) == 0
    assert len(server.requests) == before  # every label from the shards
    assert labels(tmp_path / "j.jsonl") == online
    assert not list(tmp_path.glob("j.jsonl.shard-*"))


def test_a_shard_of_another_tasks_file_is_refused_naming_it(tasks, server, tmp_path, dev, capsys):
    other = dev_tasks_file(tmp_path / "other.jsonl", dev, targets=2)
    assert swords_main(judge_args(server, other, tmp_path / "j.jsonl", "--shard", "1/2")) == 0
    capsys.readouterr()
    before = len(server.requests)
    assert swords_main(judge_args(server, tasks, tmp_path / "j.jsonl")) == 2
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert f"{tmp_path / 'j.jsonl.shard-1-of-2'}: shard 1 of 2 of another run (tasks_sha256: " in line
    assert len(server.requests) == before and not (tmp_path / "j.jsonl").exists()
