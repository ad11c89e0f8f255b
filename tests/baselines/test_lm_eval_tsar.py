"""The other lm-evaluation-harness tasks against `swords llm serve`: TSAR-2022's task primes from its trial split
and prints the ten official metrics exactly as `swords evaluate` gives them; a task that cannot run is one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import swords_dataset
from swords_baselines.llm.engine import unavailable_reason

from ..conftest import REPO_ROOT, free_port, run_swords
from . import lm_eval_engine
from .lm_eval_engine import OFFLINE, PAPER_METRICS, lm_eval, runner_run, written

pytest.importorskip("lm_eval")
if unavailable_reason():
    pytest.skip(f"the local engine cannot run here: {unavailable_reason()}", allow_module_level=True)

server = lm_eval_engine.server  # the session's engine (a fixture)


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
    run = runner_run(server, "tsar2022_es", "test", targets, run_file, cache, "--timeout", "300")  # lm-eval's wait
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
