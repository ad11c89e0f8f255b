"""Golden test of the Python API (cases_python.py): the `evaluate` module's compute() for every family and option,
the Scorer API as the CLI and the Space call it, and the lm-eval tasks' figures (their process_results and
aggregation, as lm-eval calls them, on completions made from the gold: no model, no `lm_eval` run), each result
as JSON (keys sorted) or its error's text, against its recording in tests/golden/recorded/{compute,scorer,lm-eval}/,
byte for byte.

Record again: SWORDS_GOLDEN_RECORD=1 pytest tests/golden (see test_golden_evaluate.py)."""

from __future__ import annotations

import pytest

from .cases_python import SLOW_COMPUTE, Python, compute_cases, outcome, scorer_cases
from .recording import check, check_recorded_set, json_text

COMPUTE, SCORER = compute_cases(), scorer_cases()
# The lm-eval tasks (baselines/harness/tasks) of each family, each on its split's first targets (CoInCo's and
# SemEval-2007's tasks are SWORDS's with a larger split to load: left out, for time).
LM_EVAL_TASKS = ("swords_dev_gen", "swords_test_gen", "prolex_test_gen", "tsar2022_en_test_gen", "tsar2022_es_test_gen")
LM_EVAL_TARGETS = 24
# The task's own settings as lm-eval passes them (`--model_args model=davinci-002`, `--metadata`): davinci-002's
# tokenizer, offline (cl100k_base), so that no server is asked for one.
LM_EVAL_METADATA = {"model": "davinci-002", "swords": {"budget": 640, "max_tokens": 48, "tokenizer": "cl100k_base"}}


@pytest.fixture
def python(inputs, request) -> Python:
    return Python(inputs, lambda: request.getfixturevalue("judged"))


def produced(python: Python, case, volatile) -> str:
    """The case's outcome, the folders it names as placeholders (the judgments' too, when it used them)."""
    text = outcome(lambda: case(python))
    return volatile.with_folders({"<judged>": python.judged} if "judged" in vars(python) else {})(text)


@pytest.mark.parametrize("case", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_COMPUTE else n for n in COMPUTE])
def test_compute(case, python, volatile):
    pytest.importorskip("evaluate")
    check("compute", case, produced(python, COMPUTE[case], volatile))


@pytest.mark.parametrize("case", list(SCORER))
def test_scorer(case, python, volatile):
    check("scorer", case, produced(python, SCORER[case], volatile))


def completion(doc: dict, number: int) -> str:
    """A completion as a model might write it, from the target's gold: its first five substitutes reversed, joined
    by commas; on every fourth target a numbered list, on every seventh nothing."""
    words = [s["substitute"] for s in doc["substitutes"][:5]][::-1]
    if number % 7 == 3:
        return ""
    if number % 4 == 1:
        return "\n".join(f"{i}. {word}" for i, word in enumerate(words, 1))
    return ", ".join(words)


@pytest.fixture(scope="module")
def lm_eval_tasks() -> dict:
    """The tasks as lm-eval builds them from the task files (`--include_path "$(swords lm-eval path)"`), without
    lm-eval's own task files."""
    pytest.importorskip("lm_eval")
    from lm_eval.tasks import TaskManager

    from swords_baselines.harness import TASKS_DIR

    manager = TaskManager(include_path=str(TASKS_DIR), include_defaults=False, metadata=LM_EVAL_METADATA)
    return manager.load(list(LM_EVAL_TASKS))["tasks"]


@pytest.mark.slow  # 9 s on two cores: lm-eval's import and the tasks' datasets, then 0.1 to 0.5 s a task
@pytest.mark.parametrize("task", LM_EVAL_TASKS)
def test_lm_eval(task, lm_eval_tasks, volatile):
    built = lm_eval_tasks[task]
    docs = list(built.eval_docs)[:LM_EVAL_TARGETS]
    answers = [built.process_results(doc, [completion(doc, n)]) for n, doc in enumerate(docs)]
    aggregation = built.aggregation()
    figures = {metric: aggregation[metric]([answer[metric] for answer in answers]) for metric in answers[0]}
    recorded = {
        "metrics": [{key: item[key] for key in ("metric", "higher_is_better")} for item in built.config.metric_list],
        "metadata": built.config.metadata,
        "first answers": [answer[next(iter(answer))] for answer in answers[:3]],
        "figures": figures,
    }
    check("lm-eval", task, volatile(json_text(recorded)))


def test_every_case_is_recorded():
    check_recorded_set("compute", COMPUTE)
    check_recorded_set("scorer", SCORER)
    check_recorded_set("lm-eval", LM_EVAL_TASKS)
