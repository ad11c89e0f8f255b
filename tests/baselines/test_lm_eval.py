"""The SWORDS tasks in lm-evaluation-harness, for real and offline: lm-eval's own OpenAI-compatible completions
model (`local-completions`) against `swords llm serve` (llama.cpp serving SmolLM2-135M), beside `swords run
--system llm` against the same server. lm-eval's prompts, requests and parsed answers must be the runner's,
and its figures the SWORDS scorer's for the same targets. A small budget keeps it to about a minute."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import swords_dataset
from swords_baselines.harness import TASKS
from swords_baselines.llm.engine import unavailable_reason
from swords_baselines.llm.parse import parse_completion, to_prediction
from swords_baselines.run.files import output_paths

from ..conftest import REPO_ROOT, free_port, run_swords
from .conftest import ENGINE_CONTEXT

pytest.importorskip("lm_eval")
if unavailable_reason():
    pytest.skip(f"the local engine cannot run here: {unavailable_reason()}", allow_module_level=True)

BUDGET, MAX_TOKENS, TARGETS = 640, 48, 8  # SmolLM2 finds an acceptable substitute for the eighth dev target
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
    """`swords llm serve` on a free port, one slot of BUDGET tokens: the session's (tests/baselines/conftest.py)."""
    assert BUDGET == ENGINE_CONTEXT
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


def written(output: Path, pattern: str) -> list[Path]:
    return sorted(output.rglob(pattern))


def test_lm_eval_sends_the_runners_prompts_and_scores_as_the_swords_scorer(server, tmp_path):
    # The reference runner, its requests kept in its cache (which records each request body as sent).
    run_file, cache = tmp_path / "run.jsonl", tmp_path / "cache"
    run = run_swords(
        "run",
        "--system",
        "llm",
        "--base-url",
        server,
        "--model",
        MODEL,
        "--dataset",
        "swords",
        "--split",
        "dev",
        "--limit",
        str(TARGETS),
        "--budget",
        str(BUDGET),
        "--max-tokens",
        str(MAX_TOKENS),
        "--cache-dir",
        str(cache),
        "--output",
        str(run_file),
        "--bootstrap",
        "0",
        "--no-progress",
        env=OFFLINE,
    )
    assert run.returncode == 0, run.stderr
    runner_requests = {}
    for record in (json.loads(p.read_text()) for p in cache.rglob("*.json")):
        runner_requests[record["request"]["prompt"]] = record["request"]
    runner_answers = {}
    for line in run_file.read_text().splitlines():
        record = json.loads(line)
        runner_answers[record["id"]] = [list(item) for item in record["substitutes"]]
    runner_metrics = json.loads(output_paths(run_file)["metrics"].read_text())

    done = lm_eval(server, "swords_dev_gen", TARGETS, tmp_path / "lm-eval")
    assert done.returncode == 0, done.stderr[-3000:]
    samples = [
        json.loads(line)
        for path in written(tmp_path / "lm-eval", "samples_swords_dev_gen_*.jsonl")
        for line in path.read_text().splitlines()
    ]
    rows = swords_dataset.rows("swords", "dev")[:TARGETS]
    assert sorted(sample["doc"]["id"] for sample in samples) == sorted(row["id"] for row in rows)
    for sample in samples:
        prompt, arguments = sample["arguments"]["gen_args_0"]["arg_0"], sample["arguments"]["gen_args_0"]["arg_1"]
        # The same prompt, byte for byte, and the same request settings as the runner's request for that target.
        sent = runner_requests[prompt]
        assert sent["prompt"].endswith(f"**{sample['doc']['target']}** in the above text?\nA:")
        assert (arguments["until"], arguments["max_gen_toks"], arguments["temperature"]) == (
            sent["stop"],
            sent["max_tokens"],
            sent["temperature"],
        )
        assert (arguments["presence_penalty"], arguments["frequency_penalty"], arguments["logit_bias"]) == (
            sent["presence_penalty"],
            sent["frequency_penalty"],
            sent["logit_bias"],
        )
        # The same completion, parsed the same way (duplicates, the cut item and the target dropped).
        answer = sample["lenient_a_f@10"]
        assert answer[0] == sample["doc"]["id"] and answer[1] == runner_answers[answer[0]]
        text = sample["resps"][0][0]
        assert answer[1] == [
            list(item) for item in to_prediction(parse_completion(text, sample["doc"]["target"], "length"))
        ]
    results = json.loads(written(tmp_path / "lm-eval", "results_*.json")[0].read_text())["results"]["swords_dev_gen"]
    for metric in PAPER_METRICS:
        assert results[f"{metric},none"] == runner_metrics[metric], metric
    assert results["signature,none"] == runner_metrics["signature"]
    assert runner_metrics["signature"].endswith(f"|targets:{TARGETS}")
    # The same figures from `swords evaluate` on the runner's file, scoring the targets it answers.
    evaluated = run_swords(
        "evaluate",
        "--dataset",
        "swords",
        "--split",
        "dev",
        "--predictions",
        str(run_file),
        "--bootstrap",
        "0",
        "--given-only",
        "--json",
    )
    assert evaluated.returncode == 0, evaluated.stderr
    evaluated = json.loads(evaluated.stdout)
    assert all(results[f"{metric},none"] == evaluated[metric] for metric in PAPER_METRICS)
    assert results["signature,none"] == evaluated["signature"]
    assert any(results[f"{metric},none"] > 0 for metric in PAPER_METRICS)  # figures that could have differed


def test_the_group_prints_our_metrics_and_signature(server, tmp_path):
    done = lm_eval(server, "swords_gen", 2, tmp_path / "lm-eval")
    assert done.returncode == 0, done.stderr[-3000:]
    table = done.stdout
    for task in ("swords_test_gen", "coinco_test_gen", "semeval07_test_gen"):
        assert task in table
    for metric in (*PAPER_METRICS, "signature"):
        assert f"|{metric}" in table.replace(" ", "")
    for benchmark, split in (("swords-v1.1", "test"), ("coinco", "test"), ("semeval07", "test")):
        assert f"swords-metric:1.2\\|bench:{benchmark}\\|split:{split}\\|setting:generative" in table
    shipped = {path.stem for path in (REPO_ROOT / "baselines" / "harness" / "tasks").glob("*.yaml")}
    assert shipped == {*TASKS, "swords_gen", "prolex_tsar2022_gen"}


TSAR_METRICS = (
    "acc@1",
    "acc@1@top1",
    "acc@2@top1",
    "acc@3@top1",
    "map@3",
    "map@5",
    "map@10",
    "potential@3",
    "potential@5",
    "potential@10",
)


def test_a_tsar2022_task_primes_from_its_trial_and_prints_the_ten_official_metrics_of_swords_evaluate(server, tmp_path):
    """tsar2022_es_test_gen on three targets: the runner's prompts (Spanish trial examples), its parsed answers, and
    TSAR-2022's ten metrics (fractions) and signature exactly as `swords evaluate --given-only` gives them on the
    runner's file for the same targets."""
    run_file, cache, targets = tmp_path / "run.jsonl", tmp_path / "cache", 3
    run = run_swords(
        "run",
        "--system",
        "llm",
        "--base-url",
        server,
        "--model",
        MODEL,
        "--dataset",
        "tsar2022_es",
        "--split",
        "test",
        "--limit",
        str(targets),
        "--budget",
        str(BUDGET),
        "--max-tokens",
        str(MAX_TOKENS),
        "--cache-dir",
        str(cache),
        "--output",
        str(run_file),
        "--bootstrap",
        "0",
        "--no-progress",
        "--timeout",
        "300",
        env=OFFLINE,
    )  # lm-eval's own wait; changes no answer
    assert run.returncode == 0, run.stderr
    runner_prompts = {json.loads(p.read_text())["request"]["prompt"] for p in cache.rglob("*.json")}
    runner_answers = {
        record["id"]: record["substitutes"] for record in map(json.loads, run_file.read_text().splitlines())
    }
    done = lm_eval(server, "tsar2022_es_test_gen", targets, tmp_path / "lm-eval")
    assert done.returncode == 0, done.stderr[-3000:]
    samples = [
        json.loads(line)
        for path in written(tmp_path / "lm-eval", "samples_tsar2022_es_test_gen_*.jsonl")
        for line in path.read_text().splitlines()
    ]
    trial_targets = {f"**{row['target']}**" for row in swords_dataset.rows("tsar2022_es", "trial")}
    assert sorted(s["doc"]["id"] for s in samples) == [f"tsar2022_es:test:000{i}" for i in range(1, targets + 1)]
    for sample in samples:
        prompt = sample["arguments"]["gen_args_0"]["arg_0"]
        assert prompt in runner_prompts and any(target in prompt for target in trial_targets)
        answer = sample["acc@1"]
        assert answer[0] == sample["doc"]["id"] and answer[1] == runner_answers[answer[0]]
    results = json.loads(written(tmp_path / "lm-eval", "results_*.json")[0].read_text())["results"]
    results = results["tsar2022_es_test_gen"]
    evaluated = run_swords(
        "evaluate",
        "--dataset",
        "tsar2022_es",
        "--split",
        "test",
        "--predictions",
        str(run_file),
        "--given-only",
        "--json",
    )
    assert evaluated.returncode == 0, evaluated.stderr
    evaluated = json.loads(evaluated.stdout)
    assert {metric: results[f"{metric},none"] for metric in TSAR_METRICS} == {m: evaluated[m] for m in TSAR_METRICS}
    assert results["signature,none"] == evaluated["signature"]
    assert evaluated["signature"].startswith("tsar2022-metric:1.0|bench:tsar2022_es|split:test|family:tsar2022|")
    assert evaluated["signature"].endswith(f"|targets:{targets}") and evaluated["targets_in_split"] == 368
    assert not any(f"{metric}," in key for key in results for metric in PAPER_METRICS)  # not the SWORDS figures


def test_what_cannot_run_is_one_line(server, tmp_path):
    # A task file naming a split the benchmark does not have.
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "coinco_train_gen.yaml").write_text(
        "task: coinco_train_gen\nclass: !function swords_baselines.harness.task.SwordsGeneration\n"
        "dataset_name: coinco\ntest_split: train\n"
    )
    command = [
        str(Path(sys.executable).with_name("lm_eval")),
        "--model",
        "dummy",
        "--include_path",
        str(tasks),
        "--tasks",
        "coinco_train_gen",
        "--limit",
        "1",
    ]
    done = subprocess.run(
        command, cwd=tmp_path, env={**os.environ, **OFFLINE}, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "lm_eval: error: coinco_train_gen: config 'coinco' has no split 'train'; it has dev, test"
    )
    # An option lm-eval itself decides, given as ours.
    done = lm_eval(server, "swords_dev_gen", 1, tmp_path / "out", "--metadata", '{"swords": {"concurrency": 4}}')
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .startswith("lm_eval: error: swords_dev_gen: --metadata swords.concurrency: lm-eval decides that")
    )
    # No server where lm-eval's base_url points: named when the first prompt is built, before any request.
    nobody = f"http://127.0.0.1:{free_port()}/v1"
    done = lm_eval(nobody, "swords_dev_gen", 1, tmp_path / "none")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        f"lm_eval: error: swords_dev_gen: the server at {nobody} does not answer (GET /models: Connection refused); "
        "lm-eval itself waits up to --model_args timeout (300 s) × max_retries (3) for each request"
    )
    # lm-eval not installed: `swords lm-eval path` says which extra in one line.
    hidden = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.modules['lm_eval'] = None; "
            "from swords_lexsub.cli import main; sys.exit(main(['lm-eval', 'path']))",
        ],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=120,
    )
    assert hidden.returncode == 2 and hidden.stderr.strip() == (
        "swords: error: the lm-eval tasks need lm-eval: pip install 'swords-lexsub[lm-eval]'"
    )
