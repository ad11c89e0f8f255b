"""What the lm-eval tests against the real engine share: the `lm_eval` command as the manual gives it, the budget
SmolLM2 is prompted with, and the session's served engine as `server` (test files import it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import run_swords
from .conftest import ENGINE_CONTEXT
from .engine_helpers import BUDGET, MAX_TOKENS

TARGETS = 8  # the first eight dev targets: SmolLM2 answers one acceptably (budgets 640 and 384), so figures are above 0
MODEL = "smollm2-135m"
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "OPENAI_API_KEY": ""}
PAPER_METRICS = (
    "lenient_a_f@10",
    "lenient_c_f@10",
    "strict_a_f@10",
    "strict_c_f@10",
    "strict_c_p@1",
    "best_r",
    "best_mode_r",
    "oot_r",
    "oot_mode_r",
)


@pytest.fixture
def server(served_engine) -> str:
    """`swords llm serve` on a free port, one slot of ENGINE_CONTEXT tokens: the session's (conftest.py)."""
    assert BUDGET <= ENGINE_CONTEXT  # the budget counts the completion too
    return served_engine


def lm_eval(base_url: str, tasks: str, limit: int, output: Path, *extra: str) -> subprocess.CompletedProcess:
    """The `lm_eval` command as the manual gives it."""
    path = run_swords("lm-eval", "path").stdout.strip()
    command = [
        str(Path(sys.executable).with_name("lm_eval")),
        "--model",
        "local-completions",
        "--model_args",
        f"model={MODEL},base_url={base_url}/completions,tokenizer_backend=none,tokenized_requests=False",
        "--include_path",
        path,
        "--tasks",
        tasks,
        "--limit",
        str(limit),
        "--output_path",
        str(output),
        "--log_samples",
        "--metadata",
        json.dumps({"swords": {"budget": BUDGET, "max_tokens": MAX_TOKENS}}),
        *extra,
    ]
    return subprocess.run(
        command, cwd=output.parent, env={**os.environ, **OFFLINE}, capture_output=True, text=True, timeout=900
    )


def runner_run(
    base_url: str, dataset: str, split: str, limit: int, output: Path, cache: Path, *extra: str
) -> subprocess.CompletedProcess:
    """The reference `swords run --system llm` against the served engine, with the budget lm-eval is given, its
    requests kept in `cache` (which records each request body as sent)."""
    return run_swords(
        *("run", "--system", "llm", "--base-url", base_url, "--model", MODEL, "--dataset", dataset, "--split", split),
        *("--limit", str(limit), "--budget", str(BUDGET), "--max-tokens", str(MAX_TOKENS)),
        *("--cache-dir", str(cache), "--output", str(output), "--bootstrap", "0", "--no-progress", *extra),
        env=OFFLINE,
    )


def written(output: Path, pattern: str) -> list[Path]:
    return sorted(output.rglob(pattern))
