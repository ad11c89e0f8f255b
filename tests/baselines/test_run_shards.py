"""`swords run --shard K/N` and the join, as a user runs them (real processes) against an OpenAI-compatible server on
127.0.0.1 that counts requests (tests/llm_server.py): shards one after another and two at once join with no request
into the files a run on one machine writes; a missing shard is answered by the join alone; shards of another run,
of two partitions, or a file renamed to another part are refused in one line naming the file."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess

import pytest

from ..llm_server import LLMServer
from .run_helpers import SWORDS, llm_args, one_line, swords

LIMIT = 12
FILES = (".jsonl", ".json", ".metrics.json")


def part(target_id: str, n: int) -> int:
    """The 1-based shard a target falls in, as the manual states the rule: sha256 of the id, first 8 bytes, mod N."""
    return int.from_bytes(hashlib.sha256(target_id.encode()).digest()[:8], "big") % n + 1


@pytest.fixture(scope="module")
def server():
    with LLMServer(varied=True) as running:  # each target its own words: a mixed-up id shows
        yield running


@pytest.fixture(scope="module")
def one_machine(server, tmp_path_factory):
    """The run on one machine: its three files' bytes and its target ids, in order."""
    folder = tmp_path_factory.mktemp("one")
    done = swords(*llm_args(server.base_url, folder / "run.jsonl", limit=LIMIT), env=KEY)
    assert done.returncode == 0, done.stderr
    ids = [json.loads(line)["id"] for line in (folder / "run.jsonl").read_text().splitlines()]
    return {suffix: (folder / f"run{suffix}").read_bytes() for suffix in FILES}, ids


KEY = {"SWORDS_FAULT_KEY": "sk-shards-test"}


def shard(server, output, spec: str, *extra: str):
    return swords(*llm_args(server.base_url, output, "--shard", spec, *extra, limit=LIMIT), env=KEY)


def assert_joined_as_one(server, tmp_path, one_machine, sent_by_join: int) -> None:
    before = len(server.requests)
    done = swords(*llm_args(server.base_url, tmp_path / "run.jsonl", limit=LIMIT), env=KEY)
    assert done.returncode == 0, done.stderr
    assert len(server.requests) - before == sent_by_join
    files, _ = one_machine
    for suffix in FILES:
        assert (tmp_path / f"run{suffix}").read_bytes() == files[suffix], suffix
    assert not list(tmp_path.glob("*shard*")), "the joined shard files go"


@pytest.mark.slow  # 25 s on two cores
def test_three_shards_one_after_another_join_with_no_request_into_the_one_machine_run(server, one_machine, tmp_path):
    _, ids = one_machine
    for k in (1, 2, 3):
        before = len(server.requests)
        done = shard(server, tmp_path / "run.jsonl", f"{k}/3")
        assert done.returncode == 0, done.stderr
        path = tmp_path / f"run.jsonl.shard-{k}-of-3"
        answered = [json.loads(line)["id"] for line in path.read_text().splitlines()[1:] if '"id"' in line]
        assert sorted(answered) == sorted(tid for tid in ids if part(tid, 3) == k)  # its part, as they came
        assert len(server.requests) - before == len(answered)
        assert not (tmp_path / "run.jsonl").exists()  # a shard writes only its file
    again = len(server.requests)
    assert shard(server, tmp_path / "run.jsonl", "2/3").returncode == 0  # a finished shard: nothing asked again
    assert len(server.requests) == again
    assert_joined_as_one(server, tmp_path, one_machine, sent_by_join=0)


@pytest.mark.slow  # 25 s on two cores
def test_two_shards_at_once_then_the_third_join_into_the_one_machine_run(server, one_machine, tmp_path):
    started = [
        subprocess.Popen(
            [*SWORDS, *llm_args(server.base_url, tmp_path / "run.jsonl", "--shard", f"{k}/3", limit=LIMIT)],
            env={**os.environ, **KEY},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in (1, 2)
    ]
    for process in started:
        _, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
    assert shard(server, tmp_path / "run.jsonl", "3/3").returncode == 0
    assert_joined_as_one(server, tmp_path, one_machine, sent_by_join=0)


@pytest.mark.slow  # 12 s on two cores
def test_a_missing_shard_is_answered_by_the_join_alone(server, one_machine, tmp_path):
    _, ids = one_machine
    for k in (1, 3):
        assert shard(server, tmp_path / "run.jsonl", f"{k}/3").returncode == 0
    missing = sum(part(tid, 3) == 2 for tid in ids)
    assert missing > 0
    assert_joined_as_one(server, tmp_path, one_machine, sent_by_join=missing)


@pytest.mark.slow  # 12 s on two cores
def test_a_shard_of_another_run_is_refused_naming_it(server, tmp_path):
    assert shard(server, tmp_path / "run.jsonl", "1/2", "--temperature", "0.5").returncode == 0
    assert shard(server, tmp_path / "run.jsonl", "2/2").returncode == 0
    before = len(server.requests)
    line = one_line(swords(*llm_args(server.base_url, tmp_path / "run.jsonl", limit=LIMIT), env=KEY))
    assert line.startswith(f"swords: error: {tmp_path / 'run.jsonl.shard-1-of-2'}: shard 1 of 2 of another run (")
    assert "temperature: 0.5 then, 0.0 now" in line
    assert len(server.requests) == before and not (tmp_path / "run.jsonl").exists()
    assert (tmp_path / "run.jsonl.shard-1-of-2").exists()  # refused, never removed


@pytest.mark.slow  # 12 s on two cores
def test_overlapping_parts_are_refused_naming_the_file(server, tmp_path):
    output = tmp_path / "run.jsonl"
    assert shard(server, output, "1/2").returncode == 0
    assert shard(server, output, "1/3").returncode == 0
    line = one_line(swords(*llm_args(server.base_url, output, limit=LIMIT), env=KEY))
    assert "shards of two partitions (of 3 and of 2 parts): the parts overlap" in line
    (tmp_path / "run.jsonl.shard-1-of-3").unlink()
    shutil.copy(tmp_path / "run.jsonl.shard-1-of-2", tmp_path / "run.jsonl.shard-2-of-2")  # part 1 posing as 2
    line = one_line(swords(*llm_args(server.base_url, output, limit=LIMIT), env=KEY))
    assert f"{tmp_path / 'run.jsonl.shard-2-of-2'}: its header says" in line and "its name shard 2 of 2" in line
    assert not output.exists()


@pytest.mark.parametrize("spec", ["0/3", "4/3", "1/0", "2", "a/b", "-1/3"])
def test_a_shard_not_k_of_n_is_one_line_naming_the_option(spec, tmp_path):
    done = swords("run", "--system", "wordnet", "--shard", spec, "--output", str(tmp_path / "r.jsonl"))
    assert "--shard" in one_line(done) and not list(tmp_path.iterdir())


@pytest.fixture(scope="module")
def embedding_run(tmp_path_factory):
    """wordnet+embedding on SWORDS test's first 24 targets, on one machine: its three files' bytes."""
    folder = tmp_path_factory.mktemp("embedding")
    done = swords(*EMBEDDING, "--output", str(folder / "run.jsonl"))
    assert done.returncode == 0, done.stderr
    return {suffix: (folder / f"run{suffix}").read_bytes() for suffix in FILES}


EMBEDDING = ["run", "--system", "wordnet+embedding", "--limit", "24", "--bootstrap", "0", "--no-progress"]


@pytest.mark.slow  # 110 s on two busy cores (three processes load the encoder; the join loads none)
def test_wordnet_embedding_shards_join_into_the_one_machine_run(embedding_run, tmp_path):
    output = tmp_path / "run.jsonl"
    for k in (1, 2, 3):
        done = swords(*EMBEDDING, "--output", str(output), "--shard", f"{k}/3")
        assert done.returncode == 0, done.stderr
    done = swords(*EMBEDDING, "--output", str(output), env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert done.returncode == 0, done.stderr
    assert "24 of 24 targets answered there, 0 to answer" in done.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time")}
    assert "swords_baselines.neural.encoder" in imported and "torch" not in imported  # nothing left to encode
    for suffix in FILES:
        assert (tmp_path / f"run{suffix}").read_bytes() == embedding_run[suffix], suffix
