"""One judge's judgement counts once, and only tasks with both controls count (issue 47), on the hand-made case of
judgment_cases.py: ann, who judged the case's tasks, judges the same substitutes again in another run's tasks, in
another sample of them, and in a version 1 tasks file of them; her answers fold into one per substitute (the later),
so the extended figures are those of the case alone. A task lacking its target or its random control is dropped and
counted; a tasks file edited since it was written is refused in one line."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from swords_metric import (
    MetricInputError,
    Scorer,
    TaskSet,
    extended_scores,
    make_tasks,
    merge_judgments,
    tasks_for,
    write_tasks,
)

from ..conftest import run_swords
from .judgment_cases import TIME, Case, by_hand, make_case

LATER = "2026-11-27T09:00:00+00:00"  # after the case's records (TIME)
EARLIER = "2026-11-20T09:00:00+00:00"
FLIP = {"accept": "reject", "reject": "accept", "abstain": "accept"}


@pytest.fixture(scope="module")
def scorer() -> Scorer:
    return Scorer.from_dataset("swords", "test")


@pytest.fixture(scope="module")
def case(tmp_path_factory) -> Case:
    return make_case(tmp_path_factory.mktemp("judgments"))


@pytest.fixture(scope="module")
def alone(scorer, case):
    return merge_judgments(scorer, case.inputs)


def _records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def _ann(case: Case) -> dict[tuple[str, str], str]:
    """ann's label of each candidate (not a control) she judged in the case, by (target id, substitute)."""
    records = _records(case.files[0])
    return {(r["id"], r["substitute"]): r["label"] for r in records if r["judge"] == "ann" and not r["control"]}


def _judged(tasks, labels: dict, time: str, flip: bool = False) -> list[dict]:
    """ann's records for `tasks`: her controls right, each candidate she judged in the case labelled as she did
    (turned around with `flip`), at `time`."""
    records = []
    for task in tasks:
        for c in task.candidates:
            label = {"target": "accept", "random": "reject"}.get(c.control) or labels.get((task.id, c.substitute))
            if label is None:
                continue  # not hers in the case (bob's known substitute)
            label = FLIP[label] if flip and c.control is None else label
            record = {"task": task.task, "id": task.id, "substitute": c.substitute, "judge": "ann", "label": label}
            records.append(record | {"control": c.control is not None, "time": time})
    return records


def _case_tasks(case: Case):
    from swords_metric import read_tasks

    return read_tasks(case.tasks).tasks


def _candidates(case: Case) -> dict[str, list[str]]:
    labels = _ann(case)
    return {t.id: [c.substitute for c in t.candidates if (t.id, c.substitute) in labels] for t in _case_tasks(case)}


def _folded_by_hand(case: Case) -> int:
    """ann's candidate answers in the case: each is judged again below, so each folds into one."""
    return sum(1 for r in _records(case.files[0]) if r["judge"] == "ann" and not r["control"])


@pytest.mark.slow  # 9 s on two cores (swords evaluate's own start)
def test_another_runs_tasks_judged_by_the_same_judge_count_once(scorer, case, alone, tmp_path):
    """Run B (other predictions: its own tasks ids) shows ann the case's candidates again; she answers as before, a
    day later. Her two answers to a substitute are one judgement: the labels, the counts of judgements and the
    extended figures are the case's alone; 36 answers folded, counted in the report and the JSON."""
    run_b = {target_id: [[word, 1.0 - n / 100] for n, word in enumerate(words)] for target_id, words in
             _candidates(case).items()}  # fmt: skip
    b = make_tasks(scorer, run_b)
    assert {t.task for t in b.tasks}.isdisjoint({t.task for t in _case_tasks(case)})
    write_tasks(tmp_path / "b-tasks.jsonl", b)
    _write(tmp_path / "b-ann.jsonl", _judged(b.tasks, _ann(case), LATER))
    inputs = [*case.inputs, tmp_path / "b-tasks.jsonl", tmp_path / "b-ann.jsonl"]
    merged = merge_judgments(scorer, inputs)
    assert merged.folded == _folded_by_hand(case) == 36
    assert {k: sorted(v) for k, v in merged.labels.items()} == {k: sorted(v) for k, v in alone.labels.items()}
    assert merged.judgements == alone.judgements and merged.judges == alone.judges
    both, one = extended_scores(scorer, case.run, inputs), extended_scores(scorer, case.run, case.inputs)
    assert both["extended"]["lenient_a_f@10"] == one["extended"]["lenient_a_f@10"]
    assert both["judgments"]["folded"] == 36 and one["judgments"]["folded"] == 0
    done = run_swords(
        "evaluate", "--predictions", "space/results/coinco-oracle.swords.test.jsonl", "--bootstrap", "0",
        "--no-analysis", "--judgments", *map(str, inputs),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "one judgement per judge and substitute: 36 answers to a substitute the same judge answered" in done.stdout


def test_another_sample_turned_around_later_keeps_the_later_answer(scorer, case, tmp_path):
    """Another sample of the same candidates (seed 1: other tasks, other ids), where ann changed her mind a day
    later: her later answers count, once each, as if the case had held them."""
    sample = tasks_for(scorer, _candidates(case), seed=1)
    write_tasks(tmp_path / "sample.jsonl", TaskSet({"format": "swords-judge-tasks", "version": 2}, sample))
    _write(tmp_path / "sample-ann.jsonl", _judged(sample, _ann(case), LATER, flip=True))
    merged = merge_judgments(scorer, [*case.inputs, tmp_path / "sample.jsonl", tmp_path / "sample-ann.jsonl"])
    assert merged.folded == 36
    flipped = [r for r in _records(case.files[0]) if r["judge"] == "ann" and not r["control"]]
    _write(tmp_path / "a.jsonl", [r for r in _records(case.files[0]) if r not in flipped] +
           [{**r, "label": FLIP[r["label"]]} for r in flipped])  # fmt: skip
    _write(tmp_path / "b.jsonl", [r for r in _records(case.files[1]) if r["judge"] != "ann"])  # copies of A's
    by_hand = merge_judgments(scorer, [case.tasks, tmp_path / "a.jsonl", tmp_path / "b.jsonl"])
    assert {k: sorted(v) for k, v in merged.labels.items()} == {k: sorted(v) for k, v in by_hand.labels.items()}


def test_a_version_1_file_and_a_version_2_file_of_one_run_count_once(scorer, case, alone, tmp_path):
    """The case's tasks as a version 1 file wrote them (ids <id>#<n>), judged by ann a week earlier the other way:
    her version 2 answers, the later, count; the version 1 ones are folded."""
    header, *tasks = [json.loads(line) for line in case.tasks.read_text().splitlines()]
    v1 = [{**t, "task": t["task"].split("@")[0]} for t in tasks]
    _write(tmp_path / "v1.jsonl", [{**by_hand(header), "version": 1}, *v1])
    from swords_metric import read_tasks

    _write(tmp_path / "v1-ann.jsonl", _judged(read_tasks(tmp_path / "v1.jsonl").tasks, _ann(case), EARLIER, flip=True))
    merged = merge_judgments(scorer, [tmp_path / "v1.jsonl", tmp_path / "v1-ann.jsonl", *case.inputs])
    assert merged.folded == 36
    assert {k: sorted(v) for k, v in merged.labels.items()} == {k: sorted(v) for k, v in alone.labels.items()}


def test_two_tasks_answered_at_one_time_two_ways_are_refused(scorer, case, tmp_path):
    sample = tasks_for(scorer, _candidates(case), seed=1)
    write_tasks(tmp_path / "sample.jsonl", TaskSet({"format": "swords-judge-tasks", "version": 2}, sample))
    _write(tmp_path / "sample-ann.jsonl", _judged(sample, _ann(case), TIME, flip=True))
    with pytest.raises(MetricInputError) as error:
        merge_judgments(scorer, [*case.inputs, tmp_path / "sample.jsonl", tmp_path / "sample-ann.jsonl"])
    message = str(error.value)
    assert message.startswith(f"{case.files[0]}:") and f" and {tmp_path / 'sample-ann.jsonl'}:" in message
    assert "in two tasks" in message and "one judgement per judge and substitute counts: keep one" in message


def test_two_forms_of_one_lemma_are_one_substitute(scorer, case, alone, tmp_path):
    """ann judges a plural ('cars') of a candidate ('car') in another sample: the metric counts both as one lemma,
    so her two answers are one judgement, the later one's form kept."""
    tasks = _case_tasks(case)
    labels, found = _ann(case), None
    for task in tasks:
        for c in task.candidates:
            if c.control is None and (task.id, c.substitute) in labels and c.substitute.isalpha():
                plural = c.substitute + "s"
                one, other = scorer.judge(task.id, [c.substitute, plural])
                if one.lemma == other.lemma and plural not in {x.substitute for x in task.candidates}:
                    found = (task, c.substitute, plural)
                    break
        if found:
            break
    assert found is not None
    task, word, plural = found
    sample = tasks_for(scorer, {task.id: [plural]}, seed=1)
    write_tasks(tmp_path / "plural.jsonl", TaskSet({"format": "swords-judge-tasks", "version": 2}, sample))
    _write(tmp_path / "plural-ann.jsonl", _judged(sample, {(task.id, plural): labels[task.id, word]}, LATER))
    merged = merge_judgments(scorer, [*case.inputs, tmp_path / "plural.jsonl", tmp_path / "plural-ann.jsonl"])
    assert merged.folded == 1 and merged.judgements == alone.judgements
    lemma = Counter()
    for (target_id, substitute), held in merged.labels.items():
        lemma[target_id, scorer.judge(target_id, [substitute])[0].lemma] += len(held)
    assert lemma == Counter({(t, scorer.judge(t, [s])[0].lemma): len(held) for (t, s), held in alone.labels.items()})
    assert labels[task.id, word] in merged.labels[task.id, plural]  # her later answer, in its form


def test_a_task_lacking_a_control_is_dropped_and_counted(scorer, case, tmp_path):
    """A tasks file made by hand: task 1's random control marked `target`, task 2's random control gone. spam
    accepts everything, so it is right on every control these two tasks hold: both are dropped all the same (they
    cannot tell spam from a judge), counted, and nothing of spam's joins the gold."""
    header, *tasks = [json.loads(line) for line in case.tasks.read_text().splitlines()]
    tasks = tasks[:2]
    random_word = next(c["substitute"] for c in tasks[1]["candidates"] if c["control"] == "random")
    for c in tasks[0]["candidates"]:
        c["control"] = "target" if c["control"] == "random" else c["control"]
    tasks[1]["candidates"] = [c for c in tasks[1]["candidates"] if c["control"] != "random"]
    _write(tmp_path / "tasks.jsonl", [by_hand(header), *tasks])
    spam = [r for r in _records(case.files[0]) if r["judge"] == "spam" and r["task"] in {t["task"] for t in tasks}]
    spam = [r for r in spam if r["substitute"] != random_word or r["task"] != tasks[1]["task"]]
    _write(tmp_path / "spam.jsonl", spam)
    merged = merge_judgments(scorer, [tmp_path / "tasks.jsonl", tmp_path / "spam.jsonl"])
    assert merged.control_accuracy == {"spam": 1.0} and merged.judges == ["spam"]
    assert merged.tasks == 2 and merged.tasks_lacking_control == 2 and not merged.labels
    assert merged.counts()["tasks_lacking_control"] == 2


def test_a_tasks_file_edited_since_it_was_written_is_refused(case, tmp_path):
    """One candidate of the case's tasks file changed by hand, its header (and digest) kept: one line, from the
    Python API and from swords evaluate."""
    header, first, *rest = case.tasks.read_text().splitlines()
    task = json.loads(first)
    candidate = next(c for c in task["candidates"] if c["control"] is None)
    candidate["substitute"] = "zzword"
    edited = tmp_path / "tasks.jsonl"
    edited.write_text("\n".join([header, json.dumps(task), *rest]) + "\n")
    message = (
        f"{edited}:1: the tasks file was changed since it was written (its content_sha256 no longer holds); "
        "judgments are checked against the tasks as made: give that file, or make the tasks again"
    )
    with pytest.raises(MetricInputError) as error:
        merge_judgments(Scorer.from_dataset("swords", "test"), [edited, *case.files])
    assert str(error.value) == message
    done = run_swords("evaluate", "--predictions", "space/results/coinco-oracle.swords.test.jsonl",
                      "--judgments", str(edited), *map(str, case.files))  # fmt: skip
    assert done.returncode == 2 and done.stderr == f"swords: error: {message}\n" and done.stdout == ""
