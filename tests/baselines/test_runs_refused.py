"""Repeated and concurrent runs on one output, against the run journal: a start that failed, a run whose settings
changed since it was killed, a second run while the first is going, a finished output run again with the same or
other settings, and mistakes that can be found before any work. Each is run as the user runs it (an LLM server on
127.0.0.1; every wait bounded) and gets one clear line naming what differs, or reuses what is there; nothing is
left that blocks the corrected command."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from swords_baselines.run.files import output_paths
from swords_metric import read_predictions

from ..llm_server import LLMServer
from .run_helpers import llm_args, one_line, start_and_wait, swords


@pytest.mark.slow  # 4 s on two cores
def test_a_failed_start_leaves_nothing_that_blocks_the_corrected_command(tmp_path, sources_dir):
    output = tmp_path / "thesaurus.jsonl"

    def thesaurus_run(thesaurus: Path):
        return swords(
            *("run", "--system", "thesaurus-oracle", "--dataset", "swords", "--split", "test"),
            *("--output", str(output), "--thesaurus", str(thesaurus), "--bootstrap", "0"),
        )

    done = thesaurus_run(tmp_path / "missing.json.gz")
    assert "needs Roget's thesaurus data" in one_line(done) and "--thesaurus PATH" in one_line(done)
    assert list(tmp_path.iterdir()) == []  # checked before any work: no journal, no output
    # A start killed before its first answer leaves a header-only journal, from whatever settings.
    paths = output_paths(output)
    paths["journal"].write_text(json.dumps({"system": "thesaurus-oracle", "options": {"thesaurus": "x"}}) + "\n")
    done = thesaurus_run(sources_dir / "thesaurus" / "rogets.json.gz")
    assert done.returncode == 0, done.stderr
    assert len(read_predictions(output)[0]) == 762


@pytest.mark.slow  # 8 s on two cores
def test_a_settings_change_names_the_options_that_differ(tmp_path, key):
    with LLMServer(latency=0.05) as server:
        output = tmp_path / "out.jsonl"
        command = llm_args(server.base_url, output, "--concurrency", "1", limit=200)
        process = start_and_wait(command, key, output_paths(output)["journal"], 5)
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        changed = swords(
            *llm_args(server.base_url, output, "--temperature", "0.7", "--max-tokens", "64", limit=200), env=key
        )
    line = one_line(changed)
    assert "answers of a run with other settings" in line
    assert "max_tokens: 128 then, 64 now" in line and "temperature: 0.0 then, 0.7 now" in line
    assert "--force" in line


@pytest.mark.slow  # 10 s on two cores
def test_a_second_run_on_the_same_output_is_refused_at_once(tmp_path, key):
    with LLMServer(latency=0.2) as server:
        output = tmp_path / "out.jsonl"
        command = llm_args(server.base_url, output, "--concurrency", "2", limit=40)
        first = start_and_wait(command, key, output_paths(output)["journal"], 1)
        second = swords(*llm_args(server.base_url, output, "--concurrency", "2", limit=40), env=key)
        _, first_err = first.communicate(timeout=120)
    line = one_line(second)
    assert "another `swords run`" in line and f"process {first.pid}" in line and second.seconds < 15
    assert first.returncode == 0, first_err
    assert len(read_predictions(output)[0]) == 40


@pytest.mark.slow  # 11 s on two cores
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


@pytest.mark.slow  # 5 s on two cores
def test_what_can_be_checked_first_is_checked_before_any_work(tmp_path, key):
    with LLMServer() as server:
        folder = tmp_path / "a-folder.jsonl"
        folder.mkdir()
        assert "is a folder" in one_line(swords(*llm_args(server.base_url, folder), env=key))
        assert "--bootstrap must be between 0 and" in one_line(
            swords(*llm_args(server.base_url, tmp_path / "x.jsonl")[:-3], "--bootstrap", "-3", env=key)
        )
        assert "--stop '\\\\x'" in one_line(
            swords(*llm_args(server.base_url, tmp_path / "y.jsonl"), "--stop", "\\x", env=key)
        )
        assert server.requests == []  # every mistake found before the first request
        done = swords(*llm_args(server.base_url, tmp_path / "z.jsonl", limit=1), "--stop", "é", env=key)
        assert done.returncode == 0, done.stderr
        assert server.requests[-1]["body"]["stop"] == ["é"]
