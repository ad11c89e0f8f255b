"""Each extra alone (issue 40): in a fresh environment holding the built wheel and that one extra (extras_envs.py),
the extra's own feature runs end to end, from a folder outside the clone, opening no file of it.

- llm: `swords run --system llm` and `swords judge llm` against a real server on 127.0.0.1 (llama.cpp serving the
  shipped SmolLM2, started by the local-llm environment's `swords llm serve`);
- local-llm: that server, and `swords run --system llm --local` (the engine's own start and first request);
- baselines: the default system on SWORDS's 89-target test subset, and the LLM baseline against the server;
- space: `swords demo`'s first page;
- lm-eval: `lm_eval` on the SWORDS task's first targets against the server;
- docs: `mkdocs build --strict` of the manual.

Before issue 40 the llm extra alone failed: the LLM client imports httpx, which no extra declared (openai 3 and
huggingface_hub 2 bring httpx2), and the line blamed openai, which was installed."""

from __future__ import annotations

import json
import shutil
import time
import urllib.request
from pathlib import Path

import pytest

from ..conftest import free_port
from .conftest import user_env
from .installed import assert_nothing_opened_in_the_clone, run_installed
from .processes import start, stop

pytestmark = pytest.mark.release

MODEL = "smollm2-135m"
BUDGET, MAX_TOKENS = 384, 48  # as the engine tests prompt SmolLM2 (tests/baselines/engine_helpers.py)
NO_KEY = {"OPENAI_API_KEY": ""}
# One request at a time to the one slot, each given minutes: a busy machine (the other worker's tests) makes a
# 384-token prompt take far longer than its 6 s alone, and the queue counts against a request's time.
PATIENT = ("--concurrency", "1", "--timeout", "600")
# What must not be in an environment holding one extra: the other extras' heavy modules.
OTHERS = {
    "llm": ("torch", "gradio", "lm_eval", "xllamacpp", "mkdocs"),
    "local-llm": ("torch", "gradio", "lm_eval", "mkdocs"),
    "baselines": ("gradio", "lm_eval", "xllamacpp", "mkdocs"),
    "space": ("torch", "openai", "lm_eval", "xllamacpp", "mkdocs"),
    "lm-eval": ("torch", "gradio", "openai", "xllamacpp", "mkdocs"),
    "docs": ("torch", "gradio", "openai", "lm_eval", "xllamacpp"),
}


def ok(done) -> str:
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.stdout


def alone(env: dict, extra: str, tmp_path: Path) -> None:
    """The environment holds that extra, not the others (else it would prove nothing)."""
    modules = OTHERS[extra]
    code = f"import importlib.util as u; print([m for m in {modules!r} if u.find_spec(m)])"
    assert ok(run_installed(env, "python", "-c", code, log=tmp_path / "alone.txt")).strip() == "[]"


def wait_for_health(root: str, process, log: Path, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while True:
        assert process.poll() is None, log.read_text(errors="replace")[-3000:]
        assert time.monotonic() < deadline, f"swords llm serve did not answer at {root} within {seconds:g} s"
        try:
            with urllib.request.urlopen(f"{root}/health", timeout=5) as response:
                if json.loads(response.read()).get("status") == "ok":
                    return
        except (OSError, ValueError):
            time.sleep(0.5)


@pytest.fixture(scope="module")
def engine(extra_envs, tmp_path_factory) -> str:
    """`swords llm serve` of the local-llm environment (llama.cpp, the shipped SmolLM2): its OpenAI base URL."""
    env = extra_envs.get("local-llm")
    port, log = free_port(), tmp_path_factory.mktemp("engine") / "serve.log"
    command = [str(env["bin"] / "swords"), "llm", "serve", "--port", str(port), "--context", "640"]
    process = start(command, env["home"], user_env(env["venv"], **NO_KEY), log)
    try:
        wait_for_health(f"http://127.0.0.1:{port}", process, log)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        stop(process)


def llm_run(env: dict, base_url: str, output: Path, log: Path):
    return run_installed(
        env,
        *("swords", "run", "--system", "llm", "--base-url", base_url, "--model", MODEL, "--tokenizer", "cl100k_base"),
        *("--dataset", "swords", "--split", "test", "--limit", "2", "--budget", str(BUDGET)),
        *("--max-tokens", str(MAX_TOKENS), "--output", str(output), "--bootstrap", "0", "--no-progress", "--json"),
        *PATIENT,
        log=log,
        **NO_KEY,
    )


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_llm_extra_alone_runs_the_llm_baseline_and_the_llm_judge(extra_envs, engine, tmp_path):
    env = extra_envs.get("llm")
    alone(env, "llm", tmp_path)
    output = tmp_path / "llm.jsonl"
    scored = json.loads(ok(llm_run(env, engine, output, tmp_path / "run.txt")))
    assert len(records(output)) == 2 and "lenient_a_f@10" in scored
    assert_nothing_opened_in_the_clone(tmp_path / "run.txt")
    # The judge: tasks from the WordNet baseline's substitutes (new to the benchmark), judged by the same server.
    tasks, judgments, predictions = tmp_path / "tasks.jsonl", tmp_path / "judgments.jsonl", tmp_path / "wordnet.jsonl"
    ok(
        run_installed(
            env,
            *("swords", "run", "--system", "wordnet", "--dataset", "swords", "--split", "test", "--limit", "5"),
            *("--output", str(predictions), "--bootstrap", "0", "--no-progress"),
            log=tmp_path / "wordnet.txt",
        )
    )
    ok(
        run_installed(
            env,
            *("swords", "judge", "tasks", "--dataset", "swords", "--split", "test", "--predictions", str(predictions)),
            *("--targets", "1", "--k", "3", "--output", str(tasks)),
            log=tmp_path / "tasks.txt",
        )
    )
    judged = run_installed(
        env,
        *("swords", "judge", "llm", "--tasks", str(tasks), "--base-url", engine, "--model", MODEL),
        *("--output", str(judgments), "--cache-dir", "off", *PATIENT),
        log=tmp_path / "judge.txt",
        **NO_KEY,
    )
    assert "judgments: 5" in ok(judged).splitlines()  # three candidates and the task's two controls
    assert len(records(judgments)) == 5
    assert_nothing_opened_in_the_clone(tmp_path / "judge.txt")


def test_the_local_llm_extra_alone_serves_and_answers_a_first_request(extra_envs, engine, tmp_path):
    """The `engine` fixture is this environment's `swords llm serve`: it answered /health. Here the engine's other
    door, `swords run --system llm --local`, starts its own and sends its first request."""
    env = extra_envs.get("local-llm")
    alone(env, "local-llm", tmp_path)
    request = urllib.request.Request(
        f"{engine}/completions",
        data=json.dumps({"prompt": "A word like bright:", "max_tokens": 4}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        assert json.loads(response.read())["usage"]["completion_tokens"] > 0
    output = tmp_path / "local.jsonl"
    done = run_installed(
        env,
        *("swords", "run", "--system", "llm", "--local", "--dataset", "swords", "--split", "test", "--limit", "1"),
        *("--budget", str(BUDGET), "--max-tokens", str(MAX_TOKENS)),
        *("--output", str(output), "--bootstrap", "0", "--no-progress", "--json"),
        log=tmp_path / "local.txt",
        **NO_KEY,
    )
    assert "lenient_a_f@10" in json.loads(ok(done)) and len(records(output)) == 1
    assert_nothing_opened_in_the_clone(tmp_path / "local.txt")


def test_the_baselines_extra_alone_runs_the_default_system_and_the_llm(extra_envs, engine, tmp_path):
    env = extra_envs.get("baselines")
    alone(env, "baselines", tmp_path)
    output = tmp_path / "default.jsonl"
    done = run_installed(
        env,
        *("swords", "run", "--system", "wordnet+embedding", "--dataset", "swords_test_subset", "--split", "test"),
        *("--output", str(output), "--bootstrap", "0", "--no-progress", "--json"),
        log=tmp_path / "default.txt",
    )
    scored = json.loads(ok(done))
    assert len(records(output)) == 89 and scored["lenient_a_f@10"] > 10  # a real system, not empty answers
    assert_nothing_opened_in_the_clone(tmp_path / "default.txt")
    output = tmp_path / "llm.jsonl"
    ok(llm_run(env, engine, output, tmp_path / "llm.txt"))
    assert len(records(output)) == 2


def test_the_space_extra_alone_serves_the_demo_first_page(extra_envs, tmp_path):
    env = extra_envs.get("space")
    alone(env, "space", tmp_path)
    port, log = free_port(), tmp_path / "demo.log"
    demo = start(
        [str(env["bin"] / "swords"), "demo", "--port", str(port)],
        env["home"],
        user_env(env["venv"], GRADIO_TEMP_DIR=str(tmp_path / "uploads")),
        log,
    )
    try:
        from .processes import wait_for_http

        wait_for_http(f"http://127.0.0.1:{port}/", demo, log, line=f"The demo is running at http://127.0.0.1:{port}/")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/config", timeout=30) as response:
            config = json.loads(response.read())
        labels = {c.get("props", {}).get("label") for c in config["components"]}
        assert {"Substitute", "Explore", "Score", "Leaderboard"} <= labels, sorted(str(x) for x in labels)
    finally:
        stop(demo)
    assert "Traceback" not in log.read_text(errors="replace")


def test_the_lm_eval_extra_alone_runs_the_swords_task(extra_envs, engine, tmp_path):
    env = extra_envs.get("lm-eval")
    alone(env, "lm-eval", tmp_path)
    path = ok(run_installed(env, "swords", "lm-eval", "path", log=tmp_path / "path.txt")).strip()
    done = run_installed(
        env,
        *("lm_eval", "--model", "local-completions", "--model_args"),
        f"model={MODEL},base_url={engine}/completions,tokenizer_backend=none,tokenized_requests=False",
        *("--include_path", path, "--tasks", "swords_test_gen", "--limit", "2"),
        *("--output_path", str(tmp_path / "lm-eval"), "--metadata"),
        json.dumps({"swords": {"budget": BUDGET, "max_tokens": MAX_TOKENS}}),
        log=tmp_path / "lm_eval.txt",
        **NO_KEY,
    )
    ok(done)
    (results,) = (tmp_path / "lm-eval").rglob("results_*.json")
    figures = json.loads(results.read_text())["results"]["swords_test_gen"]
    assert "lenient_a_f@10,none" in figures, sorted(figures)
    assert_nothing_opened_in_the_clone(tmp_path / "lm_eval.txt")


def test_the_docs_extra_alone_builds_the_manual_strict(extra_envs, dist, tmp_path):
    """The manual from the release's sources (a copy of the clone's files), with the wheel and [docs] alone."""
    env = extra_envs.get("docs")
    alone(env, "docs", tmp_path)
    source = tmp_path / "source"
    shutil.copytree(dist["source"], source)
    site = tmp_path / "site"
    done = run_installed(
        {**env, "home": source}, "mkdocs", "build", "--strict", "--site-dir", str(site), log=tmp_path / "docs.txt"
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert (site / "index.html").is_file() and (site / "reference" / "cli" / "index.html").is_file()
