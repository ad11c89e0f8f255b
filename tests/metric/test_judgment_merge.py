"""Merging judgments files with SWORDS's quality filter (B.3), on the hand-made case of judgment_cases.py: a task
with a wrong control answer dropped, a judge under 90% control accuracy dropped, duplicates counted once, the
benchmark's own judgements left alone, a judgments file for another split refused in one line naming the line."""

from __future__ import annotations

import json

import pytest

from swords_metric import MetricInputError, Scorer, merge_judgments

from ..conftest import run_swords
from .judgment_cases import Case, by_hand, make_case

TO_LABEL = {"TRUE": "accept", "FALSE": "reject", "UNSURE": "abstain"}


@pytest.fixture(scope="module")
def scorer() -> Scorer:
    return Scorer.from_dataset("swords", "test")


@pytest.fixture(scope="module")
def case(tmp_path_factory) -> Case:
    return make_case(tmp_path_factory.mktemp("judgments"))


@pytest.fixture(scope="module")
def merged(scorer, case):
    return merge_judgments(scorer, case.inputs)


def test_the_filter_keeps_what_was_worked_out_by_hand(merged, case):
    assert {key: sorted(labels) for key, labels in merged.labels.items()} == {
        key: sorted(TO_LABEL[label] for label in labels) for key, labels in case.expected.items()
    }


def test_the_counts(merged, case):
    counts = merged.counts()
    assert counts["records"] == case.records == 196
    assert counts["duplicates"] == 3
    assert merged.judges == ["ann", "bob", "cyd"] and merged.judges_dropped == ["spam"]
    assert counts["tasks"] == 24  # four judges, six tasks
    assert counts["tasks_dropped_judge"] == 6 and counts["tasks_dropped_control"] == 1
    assert counts["already_judged"] == 1
    assert merged.control_accuracy == {"ann": 1.0, "bob": 1.0, "cyd": 11 / 12, "spam": 0.5}


def test_the_benchmarks_own_judgement_is_left_alone(merged, case):
    target_id, known = case.already_judged
    assert (target_id, known) not in merged.labels


def _records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_a_judge_under_90_percent_is_dropped(scorer, case, tmp_path):
    """cyd again, with one more wrong random control in another task: 10 of 12 (83%) is under 90%: dropped."""
    records = _records(case.files[0])
    cyd_random = [r for r in records if r["judge"] == "cyd" and r.get("control_kind") == "random"]
    next(r for r in cyd_random if r["label"] == "reject")["label"] = "accept"
    _write(tmp_path / "a.jsonl", records)
    merged = merge_judgments(scorer, [case.tasks, tmp_path / "a.jsonl", case.files[1]])
    assert merged.judges_dropped == ["cyd", "spam"] and merged.control_accuracy["cyd"] == 10 / 12


def test_a_judge_at_exactly_90_percent_is_kept(scorer, case, tmp_path):
    """eve answers ann's first five tasks as ann did, but accepts one random word: 9 of 10 controls right (90%):
    kept, that one task dropped, the other four kept."""
    records = [r for r in _records(case.files[0]) if r["judge"] == "ann"]
    tasks = list(dict.fromkeys(r["task"] for r in records))[:5]
    eve = [{**r, "judge": "eve"} for r in records if r["task"] in tasks]
    next(r for r in eve if r.get("control_kind") == "random")["label"] = "accept"
    _write(tmp_path / "eve.jsonl", eve)
    merged = merge_judgments(scorer, [case.tasks, tmp_path / "eve.jsonl"])
    assert merged.judges == ["eve"] and merged.control_accuracy["eve"] == 0.9
    assert merged.tasks == 5 and merged.tasks_dropped_control == 1
    assert len({target_id for target_id, _ in merged.labels}) == 4


def test_the_same_file_twice_counts_once(scorer, case):
    once = merge_judgments(scorer, case.inputs)
    twice = merge_judgments(scorer, [*case.inputs, case.files[0]])
    assert twice.labels == once.labels
    assert twice.duplicates == once.duplicates + len(_records(case.files[0]))


def test_a_judge_answering_again_replaces_the_earlier_answer(scorer, case, tmp_path):
    records = [json.loads(line) for line in case.files[1].read_text().splitlines()]
    changed = next(r for r in records if not r["control"] and r["judge"] == "bob")
    again = {**changed, "label": "accept" if changed["label"] != "accept" else "reject", "time": "2026-11-27T09:00:00Z"}
    path = tmp_path / "again.jsonl"
    path.write_text(json.dumps(again) + "\n")
    merged = merge_judgments(scorer, [*case.inputs, path])
    once = merge_judgments(scorer, case.inputs)
    assert merged.replaced == 1 and merged.judgements == once.judgements
    expected = list(once.labels[changed["id"], changed["substitute"]])
    expected.remove(changed["label"])
    assert sorted(merged.labels[changed["id"], changed["substitute"]]) == sorted([*expected, again["label"]])


def test_a_judgments_file_for_another_split_is_one_line_naming_the_line(case, tmp_path):
    """The case's files are for SWORDS test; scored against SWORDS dev, the tasks file's header says test: refused
    in one line naming it (a record of a target not in the split is refused too, naming its line)."""
    dev = Scorer.from_dataset("swords", "dev")
    with pytest.raises(MetricInputError) as error:
        merge_judgments(dev, case.inputs)
    assert str(error.value) == f"{case.tasks}:1: a tasks file for split 'test', not dev (swords dev is scored)"
    run = tmp_path / "run.jsonl"
    run.write_text("")
    done = run_swords("evaluate", "--split", "dev", "--predictions", str(run), "--judgments", *map(str, case.inputs))
    assert done.returncode == 2 and done.stderr.startswith(f"swords: error: {case.tasks}:1: a tasks file for split")
    assert done.stderr.count("\n") == 1
    header, *tasks = case.tasks.read_text().splitlines()
    undated = tmp_path / "tasks.jsonl"  # a header naming no split: each record's target is checked
    undated.write_text("\n".join([json.dumps({**by_hand(header), "split": None}), *tasks]) + "\n")
    with pytest.raises(MetricInputError) as error:
        merge_judgments(dev, [undated, *case.files])
    first = _records(case.files[0])[0]["id"]
    assert str(error.value) == f"{case.files[0]}:1: target {first!r} is not in swords dev"


@pytest.mark.parametrize(("key", "value"), [("split", "dev"), ("dataset", "swords_reannotated")])
def test_a_record_naming_another_split_or_dataset_is_refused(scorer, case, tmp_path, key, value):
    records = _records(case.files[1])
    records[4][key] = value
    _write(tmp_path / "b.jsonl", records)
    with pytest.raises(MetricInputError) as error:
        merge_judgments(scorer, [case.tasks, case.files[0], tmp_path / "b.jsonl"])
    assert str(error.value) == (
        f"{tmp_path / 'b.jsonl'}:5: a record for {key} {value!r}, not {'test' if key == 'split' else 'swords'} "
        "(swords test is scored)"
    )


@pytest.mark.parametrize("text", ["", "\n", "  \n\t\n"])
def test_an_empty_judgments_file_is_refused(scorer, case, tmp_path, text):
    empty = tmp_path / "empty.jsonl"
    empty.write_text(text)
    with pytest.raises(MetricInputError) as error:
        merge_judgments(scorer, [*case.inputs, empty])
    assert str(error.value) == f"{empty}: holds no judgment record (empty, or blank lines only)"


def test_judgments_without_their_tasks_are_refused(scorer, case):
    """Without the tasks file no record can be checked against its task: no figure, one line."""
    with pytest.raises(MetricInputError) as error:
        merge_judgments(scorer, case.files)
    assert str(error.value).startswith("judgments: give the tasks file(s) the judgments answer beside them")
    done = run_swords("evaluate", "--predictions", "space/results/coinco-oracle.swords.test.jsonl",
                      "--judgments", *map(str, case.files), "--bootstrap", "0")  # fmt: skip
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1


def test_tasks_without_controls_are_dropped_and_counted(scorer, case, tmp_path):
    records = [json.loads(line) for line in case.files[1].read_text().splitlines()]
    bare = [r for r in records if not r["control"] and r["judge"] == "bob"]
    path = tmp_path / "bare.jsonl"
    path.write_text("".join(json.dumps({**r, "judge": "dan"}) + "\n" for r in bare))
    merged = merge_judgments(scorer, [case.tasks, path])
    assert merged.tasks_without_controls == 6 and not merged.labels
