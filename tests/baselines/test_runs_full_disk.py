"""A full disk, made for real (the `small_disk` fixture: a 16 kB filesystem): mid-run, the run loses nothing,
says so in one line and resumes to exactly an uninterrupted run's predictions once there is room (an LLM server on
127.0.0.1); during `swords data build`, nothing is changed and nothing is left."""

from __future__ import annotations

import subprocess

import pytest

from swords_baselines.run.files import output_paths
from swords_metric import read_predictions

from ..llm_server import LLMServer
from .run_helpers import llm_args, one_line, swords


@pytest.mark.slow  # 17 s on two cores
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
    done = swords(
        "data",
        "build",
        "--sources",
        str(sources_dir),
        "--output",
        str(small_disk / "dataset"),
        "--nltk35",
        str(nltk35_path),
    )
    assert "no space left on the device" in one_line(done) and "nothing was changed" in one_line(done)
    assert not (small_disk / "dataset").exists()  # it did not exist before: the build leaves nothing, scratch included
