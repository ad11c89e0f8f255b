"""The SWORDS tasks run through lm-evaluation-harness two ways, shared by test_lm_eval_faults.py (the `lm_eval`
command) and test_lm_eval_in_process.py (`lm_eval.simple_evaluate` in the test's process): the same task files (the
folder `swords lm-eval path` prints), model arguments and `--metadata`."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..conftest import run_swords
from ..llm_server import LLMServer

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "OPENAI_API_KEY": ""}
METADATA = {"swords": {"budget": 640, "max_tokens": 48}}
TASK = "swords_dev_gen"


@functools.cache
def tasks_path() -> str:
    """The folder `swords lm-eval path` prints, as the manual gives it to `--include_path` (asked once a process)."""
    done = run_swords("lm-eval", "path")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def model_arguments(base_url: str, extra: str = "") -> str:
    """`--model_args` for lm-eval's local-completions model, as the manual gives them."""
    arguments = f"model=davinci-002,base_url={base_url}/completions,tokenizer_backend=none,tokenized_requests=False"
    return arguments + (f",{extra}" if extra else "")


def lm_eval(
    base_url: str, tmp_path: Path, *extra: str, metadata: str | None = None, model_args: str = "", limit: int = 1
) -> tuple[subprocess.CompletedProcess, float]:
    """(result, seconds) of the `lm_eval` command on one SWORDS dev target, as the manual gives it."""
    command = [
        str(Path(sys.executable).with_name("lm_eval")),
        "--model",
        "local-completions",
        "--model_args",
        model_arguments(base_url, model_args),
        "--include_path",
        tasks_path(),
        "--tasks",
        TASK,
        "--limit",
        str(limit),
        "--metadata",
        metadata or json.dumps(METADATA),
        *extra,
    ]
    started = time.monotonic()
    done = subprocess.run(
        command, cwd=tmp_path, env={**os.environ, **OFFLINE}, capture_output=True, text=True, timeout=900
    )
    return done, time.monotonic() - started


def one_line(done: subprocess.CompletedProcess) -> str:
    """The last line of a run refused as a swords command refuses (exit 2, no traceback)."""
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.stderr.strip().splitlines()[-1]


def completions(server: LLMServer) -> list[dict]:
    return [request for request in server.requests if request["path"].endswith("/completions")]


def simple_evaluate(base_url: str, metadata: str | None = None, limit: float = 1, **options) -> dict:
    """lm-eval's results of `lm_eval.simple_evaluate` on one SWORDS dev target, in this process: the command's model,
    model arguments, task folder, `--metadata` (read by json.loads, as the command reads it) and limit; `options`
    are simple_evaluate's own (num_fewshot=3, apply_chat_template=True, ...), otherwise lm-eval's defaults. The task
    manager is the command's (the task folder, the metadata merged over the model arguments) without lm-eval's own
    few thousand task files, whose index takes it 10 s to build and holds none of these tasks."""
    import lm_eval
    from lm_eval.tasks import TaskManager
    from lm_eval.utils import simple_parse_args_string

    arguments = model_arguments(base_url)
    given = json.loads(metadata or json.dumps(METADATA))
    tasks = TaskManager(
        include_path=tasks_path(), include_defaults=False, metadata=simple_parse_args_string(arguments) | given
    )
    with pytest.MonkeyPatch.context() as patch:
        for name, value in OFFLINE.items():
            patch.setenv(name, value)
        return lm_eval.simple_evaluate(
            model="local-completions",
            model_args=arguments,
            tasks=[TASK],
            limit=limit,
            task_manager=tasks,
            metadata=given,
            # This process's random generators are not lm-eval's to seed (the task draws its own priming examples).
            random_seed=None,
            numpy_random_seed=None,
            torch_random_seed=None,
            **options,
        )


def refusal(base_url: str, metadata: str | None = None, limit: float = 1, **options) -> str:
    """The TaskError `simple_evaluate` raises for a task that cannot run: under the command, the same text after
    `lm_eval: error: `."""
    from swords_baselines.harness.task import TaskError

    with pytest.raises(TaskError) as error:
        simple_evaluate(base_url, metadata, limit, **options)
    return str(error.value)


# --metadata of the wrong JSON type, refused as the task is built: (the command's --metadata, the line after "TASK: ").
WRONG_TYPES = {
    "text budget": (
        '{"swords": {"budget": "640"}}',
        '--metadata swords.budget: "640" is text; give a whole number (without quotes)',
    ),
    "NaN": (
        '{"swords": {"temperature": NaN}}',
        "--metadata swords.temperature: NaN is not a number JSON allows; give a finite number",
    ),
    "text seed": (
        '{"swords": {"seed": "zero"}}',
        '--metadata swords.seed: "zero" is text; give a whole number (without quotes)',
    ),
}
# lm-eval's options that would change the prompt, refused as lm-eval asks the task for its requests: the command's
# options, and simple_evaluate's.
PROMPT_CHANGES = {
    "--num_fewshot": (("--num_fewshot", "3"), {"num_fewshot": 3}),
    "--apply_chat_template": (("--apply_chat_template",), {"apply_chat_template": True}),
    "--system_instruction": (("--system_instruction", "Answer briefly."), {"system_instruction": "Answer briefly."}),
}


def changes_the_prompt(flag: str) -> str:
    return (
        f"{TASK}: {flag} would change the prompt: the priming examples are in the prompt itself, which the task "
        "sends as a completion, as the paper did (`swords run --mode chat` is the way for chat models)"
    )
