"""The SWORDS tasks in lm-evaluation-harness, for real and offline: lm-eval's own OpenAI-compatible completions
model (`local-completions`) against `swords llm serve` (llama.cpp serving SmolLM2-135M), beside `swords run
--system llm` against the same server. lm-eval's prompts, requests and parsed answers must be the runner's,
and its figures the SWORDS scorer's for the same targets. A small budget keeps it to about a minute."""

from __future__ import annotations

import json

import pytest

import swords_dataset
from swords_baselines.harness import TASKS
from swords_baselines.llm.engine import unavailable_reason
from swords_baselines.llm.parse import parse_completion, to_prediction
from swords_baselines.run.files import output_paths

from ..conftest import REPO_ROOT, run_swords
from . import lm_eval_engine
from .lm_eval_engine import PAPER_METRICS, TARGETS, lm_eval, runner_run, written

pytest.importorskip("lm_eval")
if unavailable_reason():
    pytest.skip(f"the local engine cannot run here: {unavailable_reason()}", allow_module_level=True)

server = lm_eval_engine.server  # the session's engine (a fixture)


def test_lm_eval_sends_the_runners_prompts_and_scores_as_the_swords_scorer(server, tmp_path):
    # The reference runner, its requests kept in its cache (which records each request body as sent).
    run_file, cache = tmp_path / "run.jsonl", tmp_path / "cache"
    run = runner_run(server, "swords", "dev", TARGETS, run_file, cache)
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
    done = lm_eval(server, "swords_gen", 1, tmp_path / "lm-eval")  # a target a task: the table is what counts
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
