"""Every snippet of the README, the manual and the package cards runs as written: each Python block, and each shell
command in reading order (the README, then the manual in its navigation order, then the cards), from one folder
laid out like the repository root (its `runs/` is the session's own), so a page may use what an earlier one
wrote. A command or block that appears in several places runs once. Commands that install packages, start
servers that run until stopped, upload, or call a remote API are listed in NOT_RUN (tests/doc_commands.py) with the
reason and where else they are tested; a command that is neither run nor listed fails, so a new snippet cannot go
untested by accident. Commands that take long (SLOW), and those that read what one of them wrote, are marked slow;
those that serve the embedded engine run in tests/baselines/test_docs_engine_commands.py. The tests run on one
pytest-xdist worker (a file's tests always do: tests/conftest.py), in reading order: later commands read what
earlier ones wrote."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import made_once
from .doc_blocks import blocks, documents
from .doc_commands import (
    DEFAULT_RUN,
    TIMEOUT,
    default_run,
    environment,
    make_sandbox,
    not_run_reason,
    run_with_needs,
    shell_commands,
)

# Python blocks that need what a test cannot give them here, and where else they run.
NOT_RUN_PYTHON = {
    r"swords-lexsub/": "reads the published Hub repositories: the release tests make the same calls against the "
    "exported repositories on a local Hub-compatible server (test_hub_server.py)",
    r"Client\(\"http://127\.0\.0\.1:7860/\"\)": "needs the running app: test_space_api_snippet.py runs this block "
    "against one",
    r"client\.batches\.create\(": "uploads to OpenAI's Batch API (a paid account): test_run_batch.py answers the "
    "exported file with a stand-in that writes the Batch API's output format",
}

# Python blocks that take more than ~20 s: `evaluate`'s own start (it imports transformers and torch).
SLOW_PYTHON = (r"swords_metric\.load\(", r"^import evaluate", r"evaluate\.load\(")


def python_blocks() -> list:
    seen, params = set(), []
    for path in documents():
        for block in (block for block in blocks(path) if block.language == "python"):
            if block.code not in seen:
                seen.add(block.code)
                slow = any(re.search(pattern, block.code) for pattern in SLOW_PYTHON)
                params.append(pytest.param(block, id=block.where, marks=[pytest.mark.slow] if slow else []))
    return params


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory) -> Path:
    """One folder for the session: a page may score what an earlier page's run wrote."""
    return make_sandbox(tmp_path_factory.mktemp("docs-sandbox"))


def test_the_documents_hold_commands_and_blocks():
    assert len(shell_commands()) >= 30 and len(python_blocks()) >= 10
    assert any(param.marks for param in shell_commands()), "the long commands are marked slow"


@pytest.mark.parametrize(("where", "command", "needs"), shell_commands())
def test_command_runs(where, command, needs, sandbox, tmp_path_factory):
    reason = not_run_reason(command)
    if reason:
        pytest.skip(f"{where}, not run here: {reason}")
    if re.search(DEFAULT_RUN, command):  # run as written once a test run, shared with the metric's tests
        ran = default_run(lambda name, make: made_once(tmp_path_factory, name, make))
        shutil.copytree(ran / "runs", sandbox / "runs", dirs_exist_ok=True)
        return
    run_with_needs(where, command, needs, sandbox)


@pytest.mark.parametrize("block", python_blocks())
def test_python_block_runs(block, sandbox):
    reason = next((reason for pattern, reason in NOT_RUN_PYTHON.items() if re.search(pattern, block.code)), None)
    if reason:
        pytest.skip(f"{block.where}, not run here: {reason}")
    done = subprocess.run(
        [sys.executable, "-c", block.code],
        cwd=sandbox,
        env=environment(sandbox),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, f"{block.where}:\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), "every Python snippet prints what it shows"
