"""Nothing in a merge depends on the order of files or lines (issue 47): ties are decided on the whole set of
answers, every count is order-free, and the judgments digest does not depend on how a number was written. On the
hand-made case of judgment_cases.py and files made from it, over many permutations."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from swords_metric import MetricInputError, Scorer, merge_judgments
from swords_metric.judgments.extended import signature_settings

from .judgment_cases import Case, make_case

T1, T2 = "2026-11-26T12:00:00+00:00", "2026-11-27T12:00:00+00:00"  # T1: the case's time


@pytest.fixture(scope="module")
def scorer() -> Scorer:
    return Scorer.from_dataset("swords", "test")


@pytest.fixture(scope="module")
def case(tmp_path_factory) -> Case:
    return make_case(tmp_path_factory.mktemp("judgments"))


def _records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def _ann_candidates(case: Case) -> list[dict]:
    return [r for r in _records(case.files[0]) if r["judge"] == "ann" and not r["control"]]


def test_a_tie_superseded_by_a_later_answer_is_scored_in_every_order(scorer, case, tmp_path):
    """The issue's case: ann accepts at t1 (file A), rejects at t2 > t1 (B), rejects at t1 (C). The later answer
    supersedes both: every one of the six orders is scored, alike; before, `A C B` was refused and `A B C` scored."""
    first = _ann_candidates(case)[0]
    files = {
        "A": {**first, "label": "accept", "time": T1},
        "B": {**first, "label": "reject", "time": T2},
        "C": {**first, "label": "reject", "time": T1},
    }
    for name, record in files.items():
        _write(tmp_path / name, [record])
    outcomes = set()
    for order in itertools.permutations(files):
        merged = merge_judgments(scorer, [case.tasks, *case.files, *(tmp_path / name for name in order)])
        outcomes.add((json.dumps(merged.counts(), sort_keys=True), merged.sha256, repr(sorted(merged.labels.items()))))
    assert len(outcomes) == 1
    counts = json.loads(next(iter(outcomes))[0])
    assert first["label"] == "accept"  # so A is the case's own record again: a duplicate, beside B's three copies
    assert counts["replaced"] == 2 and counts["duplicates"] == 3 + 1


def test_a_tie_at_the_latest_time_is_refused_in_every_order_in_one_line(scorer, case, tmp_path):
    """ann accepts and rejects one candidate at t2, the latest time (her t1 answer before both): refused in all six
    orders, with one and the same line naming both records."""
    first = _ann_candidates(case)[0]
    files = {
        "A": {**first, "label": "accept", "time": T2},
        "B": {**first, "label": "reject", "time": T2},
        "C": {**first, "label": "reject", "time": T1},
    }
    for name, record in files.items():
        _write(tmp_path / name, [record])
    messages = set()
    for order in itertools.permutations(files):
        with pytest.raises(MetricInputError) as error:
            merge_judgments(scorer, [case.tasks, *(tmp_path / name for name in order)])
        messages.add(str(error.value))
    assert messages == {
        f"{tmp_path / 'A'}:1 and {tmp_path / 'B'}:1: judge 'ann' answered {first['substitute']!r} in task "
        f"{first['task']!r} both accept and reject at its latest time (2026-11-27T12:00:00+00:00); keep one"
    }


def test_every_count_and_figure_is_the_same_in_any_order_of_files_and_lines(scorer, case, tmp_path):
    """The case's files, a copy of A, A's ann turned around later, and half of B again, each file's lines shuffled
    and the files in 24 random orders: one set of counts, one digest, one set of labels (before, `duplicates`
    took seven values over 12 orders)."""
    a, b = _records(case.files[0]), _records(case.files[1])
    later = [
        {**r, "label": "reject" if r["label"] == "accept" else "accept", "time": T2} for r in _ann_candidates(case)
    ]
    pieces = {"a": a, "b": b, "copy": list(a), "later": later, "half": b[: len(b) // 2]}
    rng = random.Random(47)
    outcomes = set()
    for n in range(24):
        paths = []
        for name, records in pieces.items():
            shuffled = list(records)
            rng.shuffle(shuffled)
            paths.append(tmp_path / f"{n}-{name}.jsonl")
            _write(paths[-1], shuffled)
        paths.append(case.tasks)
        rng.shuffle(paths)
        merged = merge_judgments(scorer, paths)
        labels = sorted((key, sorted(held)) for key, held in merged.labels.items())
        outcomes.add((json.dumps(merged.counts(), sort_keys=True), merged.sha256, repr(labels)))
    assert len(outcomes) == 1
    counts = json.loads(next(iter(outcomes))[0])
    assert counts["replaced"] == len(later) == 36
    assert counts["duplicates"] == len(a) + len(b) // 2 + 3  # the copy, half of B, and B's three copies of A's


def _llm(case: Case, agreement) -> list[dict]:
    return [
        {**r, "judge": "llm:m:0123abcd", "agreement": agreement} for r in _records(case.files[0]) if r["judge"] == "ann"
    ]


def test_a_claimed_agreement_written_1_or_1_0_signs_alike_in_both_orders(scorer, case, tmp_path):
    """The same claimed agreement written `1` in one file and `1.0` in another: one judgments digest and one
    signature, in both orders; two validations that differ only in their time are one agreement (not refused)."""
    records = _llm(case, None)
    half = len(records) // 2
    one = [{**r, "agreement": {"kappa_acceptable": 1, "candidates": 200, "time": T1}} for r in records[:half]]
    other = [{**r, "agreement": {"kappa_acceptable": 1.0, "candidates": 200, "time": T2}} for r in records[half:]]
    _write(tmp_path / "one.jsonl", one)
    _write(tmp_path / "other.jsonl", other)
    assert '"kappa_acceptable": 1,' in (tmp_path / "one.jsonl").read_text()
    assert '"kappa_acceptable": 1.0,' in (tmp_path / "other.jsonl").read_text()
    merged = [
        merge_judgments(scorer, [case.tasks, tmp_path / "one.jsonl", tmp_path / "other.jsonl"]),
        merge_judgments(scorer, [tmp_path / "other.jsonl", case.tasks, tmp_path / "one.jsonl"]),
    ]
    assert merged[0].sha256 == merged[1].sha256
    assert signature_settings(merged[0]) == signature_settings(merged[1])
    assert dict(signature_settings(merged[0]))["agreement"] == "claimed:kappa_a=1.00,n=200"
