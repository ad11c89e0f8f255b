"""The command line's own hygiene, as a user meets it in a fresh process: numbers out of range refused by the
parser, a suggestion for a mistyped choice, help that states every default and the valid splits, no default output
for `swords data build`, a closed pipe ending any command quietly, and retries shown live in the progress bar (an
LLM server on 127.0.0.1)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from ..conftest import REPO_ROOT
from ..llm_server import Fault, LLMServer
from .run_helpers import llm_args, one_line, swords


@pytest.mark.slow  # 5 s on two busy cores (load 4-6)
def test_a_negative_limit_and_other_out_of_range_numbers_are_refused_by_the_parser(tmp_path):
    for option, value in (
        ("--limit", "-1"),
        ("--timeout", "0"),
        ("--concurrency", "0"),
        ("--max-tokens", "-5"),
        ("--max-retries", "-1"),
        ("--presence-penalty", "9"),
    ):
        done = swords(
            "run",
            "--system",
            "llm",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--output",
            str(tmp_path / "x.jsonl"),
            option,
            value,
        )
        assert done.returncode == 2 and f"argument {option}: {value}" in done.stderr and "out of range" in done.stderr
        assert "Traceback" not in done.stderr and not list(tmp_path.iterdir())


def test_a_mistyped_choice_or_system_gets_a_suggestion():
    assert "did you mean 'swords'?" in swords("evaluate", "--dataset", "swrods", "--predictions", "x").stderr
    assert "did you mean 'wordnet'?" in one_line(swords("run", "--system", "wordnte"))
    assert "did you mean 'generative'?" in swords("evaluate", "--setting", "generativ", "--predictions", "x").stderr


def test_help_states_every_default_and_the_valid_splits():
    run_help = swords("run", "--help").stdout
    assert "coinco: dev, test; semeval07: trial, test" in run_help and "(default: 1000)" in run_help
    system_help = swords("run", "--system", "llm", "--help").stdout
    assert "--presence-penalty" in system_help and "(default: 0.5)" in system_help  # the system's own options
    for command in (["run"], ["evaluate"], ["demo"], ["llm", "serve"], ["data", "verify"], ["data", "build"]):
        text = swords(*command, "--help").stdout
        options = [line.split()[0] for line in text.splitlines() if line.strip().startswith("--")]
        assert options, command


def test_data_build_never_defaults_to_the_installed_package():
    done = swords("data", "build", "--sources", "/nonexistent")
    assert done.returncode == 2 and "--output" in done.stderr and "required" in done.stderr


@pytest.mark.slow  # 6 s on two cores
def test_a_closed_pipe_ends_any_command_quietly():
    for command in (["data", "verify"], ["run", "--list"], ["evaluate", "--help"]):
        shell = f"{sys.executable} -m swords_lexsub.cli {' '.join(command)} | head -1"
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", shell], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300
        )
        assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
        assert len(done.stdout.splitlines()) == 1


@pytest.mark.slow  # 3 s on two cores
def test_retries_show_live_in_the_progress_bar(tmp_path):
    key = {"SWORDS_FAULT_KEY": "sk-live-retries-0123456789"}
    with LLMServer(varied=True) as server:
        server.inject(*[Fault("429", seconds=0.2)] * 3)
        args = [
            a
            for a in llm_args(server.base_url, tmp_path / "out.jsonl", "--concurrency", "1", limit=4)
            if a != "--no-progress"
        ]
        done = swords(*args, env=key)
    assert done.returncode == 0, done.stderr
    progress_lines = done.stderr.replace("\r", "\n").splitlines()
    live = [line for line in progress_lines if "retr" in line and "target" in line]  # the bar itself, mid-run
    assert any("3 retries (last: HTTP 429" in line for line in live), done.stderr[-2000:]
    assert any(re.search(r"3 retries \(last: HTTP 429.*\), waiting 0\.2 s", line) for line in live)  # and the wait
    assert "retries: 3" in done.stdout  # and the report at the end
