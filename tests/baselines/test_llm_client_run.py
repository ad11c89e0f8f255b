"""`swords run` with the few-shot LLM baseline end to end, against a local OpenAI-compatible server that answers
with the paper's real GPT-3 completions: the run's report and files, none of which holds the key, and a rerun
served from the cache; the recorded GPT-3 system's run; no API-key-like string in the files we ship. Nothing here
reaches beyond 127.0.0.1."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

import swords_dataset
from swords_baselines.llm import GPT3Recorded
from swords_baselines.run.files import output_paths
from swords_lexsub.cli import main as swords_main
from swords_lexsub.errors import SwordsError

from ..llm_server import Fault
from . import llm_helpers

# This file's fixtures, shared with the other test_llm_client_*.py: `key`, a fresh fake API key in its own
# environment variable (in place of conftest.py's), and `server`, the local server answering with GPT-3's completions.
key, server = llm_helpers.key, llm_helpers.server


def test_swords_run_llm_end_to_end_never_writes_the_key(server, tmp_path, key, dev, capsys):
    output = tmp_path / "runs" / "llm.jsonl"
    server.inject(Fault("429", seconds=0.1), Fault("500"))
    argv = ["run", "--system", "llm", "--dataset", "swords", "--split", "dev", "--output", str(output)]
    argv += ["--no-progress", "--bootstrap", "0", "--base-url", server.base_url, "--model", "davinci"]
    argv += ["--api-key-env", "SWORDS_TEST_LLM_KEY", "--cache-dir", str(tmp_path / "cache"), "--limit", "6"]
    argv += ["--backoff", "0.01"]
    assert swords_main(argv) == 0
    printed = capsys.readouterr()
    assert "llm on swords dev (6 of the split's 370 targets: --limit 6, scored on those only)" in printed.out
    assert "retries: 2" in printed.out
    metrics = json.loads(output_paths(output)["metrics"].read_text())
    assert metrics["targets_scored"] == 6 and metrics["run"]["report"]["requests sent"] == 8
    assert set(json.loads(line)["id"] for line in output.read_text().splitlines()) == {r["id"] for r in dev[:6]}
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) > 6  # the outputs and the cache
    for path in files:
        assert key.encode() not in path.read_bytes(), path
    assert key not in printed.out + printed.err
    # A rerun is served from the cache.
    sent = len(server.requests)
    output.unlink()
    assert swords_main(argv) == 0 and len(server.requests) == sent
    assert "cache hits: 6" in capsys.readouterr().out


@pytest.mark.slow  # 6.9 s on two cores (the quick lane, 2026-11-28)
def test_swords_run_gpt3_recorded(tmp_path, capsys):
    output = tmp_path / "gpt3.jsonl"
    argv = ["run", "--system", "gpt3-recorded", "--dataset", "swords", "--split", "dev", "--output", str(output)]
    assert swords_main([*argv, "--no-progress", "--bootstrap", "0", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["targets_scored"] == 37 and result["run"]["targets"] == 37
    assert round(result["lenient_a_f@10"], 2) == 44.52 and round(result["strict_c_f@10"], 2) == 32.56
    with pytest.raises(SwordsError, match="none of these targets has a recorded completion"):
        GPT3Recorded().covers(swords_dataset.load("swords", split="test").to_list())


def test_key_pattern_is_not_in_the_bundled_data():
    # A guard for the files we ship: no API-key-like strings.
    folder = Path(__file__).resolve().parents[2] / "baselines" / "llm"
    texts = [path.read_text() for path in folder.glob("*.py")]
    texts.append(gzip.decompress((folder / "gpt3-davinci_swords-v0.8_dev.json.gz").read_bytes()).decode())
    for text in texts:
        assert not re.search(r"sk-[A-Za-z0-9]{20,}", text)
