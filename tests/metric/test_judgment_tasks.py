"""Tasks in SWORDS's form (Appendix B) from a run: the candidates are the run's top-k substitutes the benchmark has
no judgement for, as the metric matches them; at most 10 a task, split as numpy.array_split splits; two controls a
task (the target word; a random dictionary word outside the target's gold); seeded; the target highlighted."""

from __future__ import annotations

import collections

import numpy as np
import pytest

import swords_dataset
from swords_metric import MAX_CANDIDATES, MetricInputError, Scorer, load_wordnet_graph, make_tasks, tasks_for

from .judgment_cases import wordnet_run

PRESS = "t:288b94f02f153614ee0dc6474368f2e15ddff00c"  # "press" (NOUN): journalist, reporter, … are its gold


@pytest.fixture(scope="module")
def scorer() -> Scorer:
    return Scorer.from_dataset("swords", "test")


@pytest.fixture(scope="module")
def rows() -> dict[str, dict]:
    return {row["id"]: row for row in swords_dataset.rows("swords", "test")}


@pytest.fixture(scope="module")
def run_tasks(scorer):
    run = wordnet_run()
    return run, make_tasks(scorer, run)


def _candidates(task) -> list[str]:
    return [c.substitute for c in task.candidates if c.control is None]


def test_candidates_are_what_the_metric_has_no_judgement_for(scorer):
    """By hand: 'journalists' is the gold's journalist, 'presses' the target, 'newsmen' a second form of newsman:
    only newsman (as first given) and gazette are new."""
    tasks = make_tasks(scorer, {PRESS: ["journalists", "newsman", "presses", "newsmen", "gazette", "reporter"]}).tasks
    assert [sorted(_candidates(task)) for task in tasks] == [["gazette", "newsman"]]
    # k counts the metric's top-k after target removal and merging: journalist, newsman
    tasks = make_tasks(scorer, {PRESS: ["journalists", "presses", "newsman", "newsmen", "gazette"]}, k=2).tasks
    assert [_candidates(task) for task in tasks] == [["newsman"]]


def test_a_target_with_nothing_new_gets_no_task_and_is_counted(scorer):
    taskset = make_tasks(
        scorer, {PRESS: ["journalist", "reporter"], "t:903b731500e20dcfbdab21a501e8721e28f9b15f": ["x"]}
    )
    assert taskset.header["targets"] == 2 and taskset.header["targets_without_new"] == 1
    assert taskset.header["targets_with_tasks"] == 1 and [task.id for task in taskset.tasks] == [
        "t:903b731500e20dcfbdab21a501e8721e28f9b15f"
    ]


def test_every_task_of_a_real_run(run_tasks, rows):
    """The wordnet baseline on SWORDS test: every task shows at most 10 candidates from the run's top 10, none a
    gold substitute's text, and the two controls; the target is highlighted at its offset."""
    run, taskset = run_tasks
    by_id = {row["id"]: row for row in rows.values()}
    upstream = {row["id"]: row["upstream_id"] for row in rows.values()}
    assert taskset.header["tasks"] == len(taskset.tasks) > 500
    assert taskset.header["candidates"] == sum(len(_candidates(task)) for task in taskset.tasks)
    for task in taskset.tasks:
        row = by_id[task.id]
        candidates = _candidates(task)
        assert 1 <= len(candidates) <= MAX_CANDIDATES
        assert set(candidates) <= {pair[0] for pair in run[upstream[task.id]][:20]}
        gold = {s["substitute"].lower() for s in row["substitutes"]} | {c.lower() for c in row["candidates"]}
        assert not {c.lower() for c in candidates} & gold
        controls = collections.Counter(c.control for c in task.candidates if c.control)
        assert controls == {"target": 1, "random": 1}
        assert [c.substitute for c in task.candidates if c.control == "target"] == [row["target"]]
        assert task.context[task.offset : task.offset + len(task.target)] == task.target == row["target"]
        assert task.task.startswith(task.id + "#")


def test_the_random_control_is_a_dictionary_word_outside_the_gold(run_tasks, rows):
    _, taskset = run_tasks
    graph = load_wordnet_graph()
    letters = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
    words = set()
    for task in taskset.tasks:
        row = rows[task.id]
        (word,) = [c.substitute for c in task.candidates if c.control == "random"]
        assert word.isalpha() and word.islower() and graph.has_lemma(word, letters[row["pos"]])
        gold = {s["substitute"].lower() for s in row["substitutes"]} | {c.lower() for c in row["candidates"]}
        assert word not in gold and word != row["target"].lower() and word not in map(str.lower, _candidates(task))
        words.add(word)
    assert len(words) > 0.9 * len(taskset.tasks)  # random: hardly ever the same word twice


def test_candidates_split_as_numpy_array_split(scorer):
    words = [f"word{i}" for i in range(23)]
    tasks = tasks_for(scorer, {PRESS: words}, seed=1)
    expected = [len(part) for part in np.array_split(np.arange(23), 3)]
    assert [len(_candidates(task)) for task in tasks] == expected == [8, 8, 7]
    fingerprint = tasks[0].task.rsplit("@", 1)[1]
    assert [task.task for task in tasks] == [f"{PRESS}#{n}@{fingerprint}" for n in (1, 2, 3)]
    assert sorted(c for task in tasks for c in _candidates(task)) == sorted(words)
    assert all(len(task.candidates) == len(_candidates(task)) + 2 for task in tasks)


def test_seeded(scorer):
    words = [f"word{i}" for i in range(9)]
    order = lambda seed: [c.substitute for c in tasks_for(scorer, {PRESS: words}, seed=seed)[0].candidates]  # noqa: E731
    assert order(0) == order(0)
    assert order(0) != order(1)
    assert order(0) != words  # shuffled, controls among the candidates


def test_targets_samples_that_many(scorer, run_tasks):
    run, _ = run_tasks
    taskset = make_tasks(scorer, run, targets=25, seed=3)
    assert taskset.header["targets"] == 25 and len({task.id for task in taskset.tasks}) <= 25
    assert make_tasks(scorer, run, targets=25, seed=3).tasks == taskset.tasks
    assert {task.id for task in make_tasks(scorer, run, targets=25, seed=4).tasks} != {
        task.id for task in taskset.tasks
    }


def test_a_recalled_benchmark_and_an_unknown_target_are_refused(scorer):
    with pytest.raises(MetricInputError, match="coinco's gold was recalled"):
        make_tasks(Scorer.from_dataset("coinco", "test"), {})
    with pytest.raises(MetricInputError, match="no target 't:nope' in swords test"):
        tasks_for(scorer, {"t:nope": ["word"]})


@pytest.mark.parametrize("bad", [None, 1, b"bytes"])
def test_tasks_for_refuses_what_is_not_a_word(scorer, bad):
    with pytest.raises(MetricInputError) as error:
        tasks_for(scorer, {PRESS: ["newsman", bad]})
    assert str(error.value) == f"candidates of {PRESS!r}: {bad!r} is not a word (a string)"
    with pytest.raises(MetricInputError, match="must be a list of words"):
        tasks_for(scorer, {PRESS: "newsman"})


def test_tasks_for_shows_the_target_word_once_as_its_control(scorer):
    target = scorer.rows[scorer.index.position[PRESS]]["target"]
    (task,) = tasks_for(scorer, {PRESS: ["newsman", target]})
    assert [c.control for c in task.candidates if c.substitute == target] == ["target"]
    assert _candidates(task) == ["newsman"]
