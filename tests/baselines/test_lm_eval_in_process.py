"""The SWORDS tasks in lm-evaluation-harness given what they cannot use, in this process through lm-eval's Python
entry point (`lm_eval.simple_evaluate`, the `lm_eval` command's own evaluator, with the command's model arguments,
task folder and `--metadata`; tests/baselines/lm_eval_helpers.py) against a server on 127.0.0.1
(tests/llm_server.py), or the task as lm-eval builds it: `--metadata` of the wrong type or value (`"budget": "640"`,
`"temperature": NaN`, `"seed": "zero"`, `"budget": 1e12`), lm-eval's options that would change the prompt
(`num_fewshot`, `apply_chat_template`, `system_instruction`), a `--limit` of 0 or below, a priming split that is the
scored one. Each is a TaskError naming the task before any request, whose text is the line the `lm_eval` command
prints after `lm_eval: error: ` (exit 2): test_lm_eval_faults.py runs the command once for each place the task
refuses and compares its line with this process's TaskError, since each `lm_eval` takes 12-15 s to start. Beside
them, the same call with nothing wrong runs (lm-eval's defaults), and lm-eval's dump of a task's config does not
copy the task."""

from __future__ import annotations

import json
import math
import tracemalloc

import pytest

import swords_dataset
from swords_baselines.llm.prompt import question
from swords_lexsub.errors import SwordsError

from ..llm_server import LLMServer
from .lm_eval_helpers import (
    PROMPT_CHANGES,
    TASK,
    WRONG_TYPES,
    changes_the_prompt,
    completions,
    refusal,
    simple_evaluate,
)

pytest.importorskip("lm_eval")
pytest.importorskip("tiktoken")  # davinci-002's tokenizer, offline: the tasks ask no server for one


@pytest.mark.parametrize(("metadata", "expected"), WRONG_TYPES.values(), ids=WRONG_TYPES)
def test_metadata_of_the_wrong_type_is_refused_before_any_request(metadata, expected):
    with LLMServer() as server:
        assert refusal(server.base_url, metadata) == f"{TASK}: {expected}"
    assert server.requests == []


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"budget": 640.5}, "--metadata swords.budget: 640.5 is a number with a fraction; give a whole number"),
        ({"temperature": -math.inf}, "--metadata swords.temperature: -Infinity is not a number JSON allows"),
        ({"force_longer": "yes"}, '--metadata swords.force_longer: "yes" is text; give true or false'),
        ({"presence_penalty": 3}, "--metadata swords.presence_penalty: 3 is too large (at least -2, at most 2)"),
        # JSON's numbers as lm-eval's --metadata reads them (json.loads): 1e12 is a whole number, too large a budget.
        (
            json.loads('{"budget": 1e12}'),
            "--metadata swords.budget: 1e+12 is too large (at least 2, at most 2147483647)",
        ),
        (json.loads('{"budget": 1e400}'), "--metadata swords.budget: Infinity is not a number JSON allows"),
        (
            json.loads('{"seed": 1e300}'),
            "--metadata swords.seed: 1e+300 is too large to be read exactly (written with an "
            "exponent or a fraction, a whole number is exact up to 2**53); give its digits",
        ),
        ({"max_tokens": 0.0}, "--metadata swords.max_tokens: 0 is too small (at least 1)"),
        ({"preset": "papr"}, "--metadata swords.preset: \"papr\" (did you mean 'paper'?); choose none, paper"),
        (
            {"budgte": 640},
            "--metadata swords.budgte: not an option of `swords run --system llm` (did you mean 'budget'?)",
        ),
        (
            {"budget": None},
            "--metadata swords.budget: null; give a whole number or leave it out for its default (2048)",
        ),
        ({"max_tokens": [48]}, "--metadata swords.max_tokens: a list; give a whole number"),
        ({"stop": 5}, "--metadata swords.stop: 5 is a whole number; give text"),
        ({"budget": 40}, "--metadata swords: --budget 40 leaves no room for a prompt beside --max-tokens 128"),
        ({"priming": "wikipedia:dev"}, "--metadata swords: unknown config 'wikipedia'"),
        ({"timeout": 5}, "--metadata swords.timeout: lm-eval decides that"),
    ],
)
def test_every_metadata_mistake_is_named(options, expected):
    """What the task checks (baselines/harness/settings.py), one case at a time, as lm-eval hands it over."""
    from swords_baselines.harness.settings import settings_of

    with pytest.raises(SwordsError) as error:
        settings_of({"swords": options, "model": "davinci-002", "base_url": "http://127.0.0.1:1/v1/completions"})
    assert str(error.value).startswith(expected), str(error.value)


def test_a_whole_number_written_as_json_writes_it_is_that_number():
    """`2048.0` and `1e3` are whole numbers (JSON has one kind of number): taken as the int they are."""
    from swords_baselines.harness.settings import settings_of

    settings = settings_of({"swords": json.loads('{"budget": 1e3, "max_tokens": 48.0, "seed": 1e12}')})
    assert (settings.budget, settings.max_tokens, settings.seed) == (1000, 48, 10**12)
    assert all(type(value) is int for value in (settings.budget, settings.max_tokens, settings.seed))


def task(name: str, swords: dict | None = None):
    """The task as lm-eval builds it from its YAML file (dataset_name, test_split) and --metadata, in this process:
    the tokenizer named, so that no server is asked for one."""
    from swords_baselines.harness import TASKS
    from swords_baselines.harness.task import SwordsGeneration

    benchmark, split = TASKS[name]
    metadata = {"model": "davinci-002", "swords": {"budget": 640, "tokenizer": "cl100k_base", **(swords or {})}}
    return SwordsGeneration({"task": name, "dataset_name": benchmark, "test_split": split, "metadata": metadata})


@pytest.mark.slow  # 7 s on two busy cores (load 4-6)
def test_a_task_never_primes_from_the_split_it_scores():
    """swords_dev_gen primes from SWORDS test (auto), the test sets from SWORDS dev as the paper did, each recorded in
    the task's metadata; a --metadata priming of the scored split is one line naming it."""
    from swords_baselines.harness.task import TaskError

    assert task("swords_dev_gen").config.metadata["priming"] == "swords:test"
    assert task("swords_test_gen").config.metadata["priming"] == "swords:dev"
    assert task("tsar2022_es_test_gen").config.metadata["priming"] == "tsar2022_es:trial"
    with pytest.raises(TaskError) as error:
        task("swords_dev_gen", {"priming": "swords:dev"})
    assert str(error.value) == (
        "swords_dev_gen: --metadata swords.priming swords:dev is the split being scored (swords dev): every prompt "
        "would carry the other targets' gold answers; choose another (e.g. swords:test)"
    )
    with pytest.raises(
        TaskError,
        match=r"^coinco_test_gen: --metadata swords.priming swords:test holds the targets "
        r"of the split being scored \(coinco test\)",
    ):
        task("coinco_test_gen", {"priming": "swords:test"})


@pytest.mark.parametrize("flag", PROMPT_CHANGES)
def test_options_that_would_change_the_prompt_are_refused(flag):
    _, options = PROMPT_CHANGES[flag]
    with LLMServer() as server:
        assert refusal(server.base_url, **options) == changes_the_prompt(flag)
    assert server.requests == []


@pytest.mark.parametrize("limit", [0, -1, -0.5])
def test_a_limit_that_leaves_no_target_is_refused_before_any_request(limit):
    """lm-eval hands a task `--limit` as its get_sample_size makes it (a count, or below 1 a fraction of the split):
    0 became no document (lm-eval's "did not find any docs!" traceback), -1 an index islice cannot take."""
    with LLMServer() as server:
        assert refusal(server.base_url, limit=limit) == (
            "swords_dev_gen: --limit 0 or below leaves no target to ask; give a count of targets "
            "from 1 to 370, or a fraction of the split above 0 and below 1"
        )
    assert server.requests == []


@pytest.mark.slow  # 9.0 s on two cores (the quick lane, 2026-11-28)
def test_simple_evaluate_with_lm_evals_defaults_runs_a_fraction_of_the_split():
    """The same call with nothing wrong runs: lm-eval's defaults (fewshot_as_multiturn on, which acts only through a
    chat template) are not refused, and a fraction of the split, 0.001 of 370 targets, asks one (ceil(0.37))."""
    with LLMServer() as server:
        results = simple_evaluate(server.base_url, limit=0.001)
    (request,) = completions(server)
    first = swords_dataset.rows("swords", "dev")[0]
    assert request["body"]["prompt"].rsplit("\n\n", 1)[-1].startswith(question(first))
    (sample,) = results["samples"][TASK]
    assert sample["doc"]["id"] == first["id"] and "lenient_a_f@10,none" in results["results"][TASK]


def test_lm_evals_dump_of_a_task_config_does_not_copy_the_task():
    """lm-eval writes each task's config into its results (dataclasses.asdict, which deep-copies what it holds): the
    task's methods there are dumped as their source, without a copy of the task with its split, tokenizer and
    scorer (5-7 s and 140 MB a task)."""
    built = task("swords_dev_gen")
    built.build_all_requests(limit=2)
    tracemalloc.start()
    try:
        dump = built.dump_config()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert dump["doc_to_text"].lstrip().startswith("def _prompt(self, doc: dict) -> str:")
    assert dump["process_results"].lstrip().startswith("def _answer(self, doc: dict, results: list[str]) -> dict:")
    assert peak < 4 * 2**20, peak
