"""Judged figures anyone can trust (issue 41), each fault reproduced with real files: the hand-made case of
judgment_cases.py (the wordnet baseline's tasks on SWORDS test) and files made from it. The same judgments in
any order give one figure and one signature; the later answer wins and a tie that disagrees is refused; a
record's control is what its task says; two runs' tasks never share an id; only offered candidates count; a
claimed agreement is checked, and signed as claimed."""

from __future__ import annotations

import json
import random

import pytest

from swords_metric import MetricInputError, Scorer, extended_scores, merge_judgments

from ..conftest import run_swords
from .judgment_cases import Case, by_hand, make_case

LATER = "2026-11-27T09:00:00+00:00"  # the case's records are timed 2026-11-26T12:00:00+00:00


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


def _flipped(records: list[dict], time: str) -> list[dict]:
    """ann's candidate answers turned around (accept <-> reject), at `time`; her controls as they were."""
    turn = {"accept": "reject", "reject": "accept", "abstain": "accept"}
    return [{**r, "label": turn[r["label"]], "time": time} for r in records if r["judge"] == "ann" and not r["control"]]


@pytest.mark.slow  # 7 s on two cores
def test_the_later_answer_wins_in_any_order(scorer, case, tmp_path):
    """ann's candidates answered one way in file A and the other way in file B: the later-timed answer wins whether
    B is given before or after A, and whether its lines come first or last; one figure, one signature. With B's
    time the older one, A's answers stand (the time decides, not the order)."""
    a, b = _records(case.files[0]), _records(case.files[1])
    later = tmp_path / "later.jsonl"
    _write(later, _flipped(a, LATER))
    shuffled = tmp_path / "shuffled.jsonl"  # the same records as A, B and `later` in one file, lines shuffled
    lines = a + b + _records(later)
    random.Random(0).shuffle(lines)
    _write(shuffled, lines)
    orders = [
        [case.tasks, *case.files, later],
        [later, case.files[1], case.tasks, case.files[0]],
        [shuffled, case.tasks],
    ]
    results = [extended_scores(scorer, case.run, order) for order in orders]
    figures = {(r["extended"]["lenient_a_f@10"], r["extended"]["signature"]) for r in results}
    assert len(figures) == 1
    merged = merge_judgments(scorer, orders[0])
    assert merged.replaced == len(_records(later)) == 36
    for record in _records(later):
        key = (record["id"], record["substitute"])
        if key in merged.labels:
            assert record["label"] in merged.labels[key]  # the later answer
    older = tmp_path / "older.jsonl"
    _write(older, _flipped(a, "2025-11-26T12:00:00+00:00"))  # a year older: A's answers stand
    plain = merge_judgments(scorer, case.inputs)
    assert merge_judgments(scorer, [older, *case.inputs]).labels == plain.labels
    assert merge_judgments(scorer, [*case.inputs, older]).sha256 == plain.sha256
    # The time moved the figure: a rule that ignored it would give one of these for both.
    assert (
        results[0]["extended"]["lenient_a_f@10"]
        != extended_scores(scorer, case.run, case.inputs)["extended"]["lenient_a_f@10"]
    )


def test_a_tie_that_disagrees_is_refused_naming_both_records(scorer, case, tmp_path):
    """ann's candidates answered the other way at the very time of file A: refused in one line naming a record of
    each, the same line whichever file comes first."""
    a = _records(case.files[0])
    tie = tmp_path / "tie.jsonl"
    _write(tie, _flipped(a, a[0]["time"]))
    messages = set()
    for paths in ([case.tasks, case.files[0], tie], [case.tasks, tie, case.files[0]]):
        with pytest.raises(MetricInputError) as error:
            merge_judgments(scorer, paths)
        messages.add(str(error.value))
    (message,) = messages
    assert message.startswith(f"{case.files[0]}:") and f" and {tie}:" in message
    assert " judge 'ann' answered " in message
    assert "at its latest time (2026-11-26T12:00:00+00:00); keep one" in message


def test_the_signature_identifies_the_judgments_not_the_files(scorer, case, tmp_path):
    """The same records split into other files (and an exact copy added) sign the same; a changed label does not."""
    everything = tmp_path / "all.jsonl"
    _write(everything, _records(case.files[1]) + _records(case.files[0]) + _records(case.files[0])[:7])
    assert merge_judgments(scorer, [case.tasks, everything]).sha256 == merge_judgments(scorer, case.inputs).sha256
    changed = _records(case.files[1])
    changed[0]["label"] = "accept" if changed[0]["label"] != "accept" else "reject"
    _write(tmp_path / "b.jsonl", changed)
    other = merge_judgments(scorer, [case.tasks, case.files[0], tmp_path / "b.jsonl"])
    assert other.sha256 != merge_judgments(scorer, case.inputs).sha256


def test_a_records_control_flag_is_not_believed(scorer, case, tmp_path):
    """An accept-everything judge whose random-control records say "control": false (no control_kind): the task
    says those are controls, so the judge is right on 6 of 12 controls and dropped; nothing of theirs joins."""
    liar = [
        {**r, "judge": "liar", "label": "accept"} | ({"control": False} if r.get("control_kind") == "random" else {})
        for r in _records(case.files[0])
        if r["judge"] == "ann"
    ]
    for r in liar:
        r.pop("control_kind", None) if not r["control"] else None
    path = tmp_path / "liar.jsonl"
    _write(path, liar)
    merged = merge_judgments(scorer, [*case.inputs, path])
    assert merged.control_accuracy["liar"] == 0.5 and "liar" in merged.judges_dropped
    assert merged.labels == merge_judgments(scorer, case.inputs).labels


def test_a_task_with_a_control_unanswered_is_dropped(scorer, case, tmp_path):
    """bob's answers without his random-control records: every task of his misses a control, so none is kept."""
    records = [r for r in _records(case.files[1]) if r["judge"] == "bob" and r.get("control_kind") != "random"]
    _write(tmp_path / "b.jsonl", records)
    merged = merge_judgments(scorer, [case.tasks, tmp_path / "b.jsonl"])
    assert merged.tasks == 6 and merged.tasks_without_controls == 6 and not merged.labels


def test_two_runs_tasks_never_share_an_id(scorer, case, tmp_path):
    """Tasks of two runs for one target get different ids; tasks files made before (version 1, ids <id>#<n>) still
    read, alone, and two of them giving one id to different tasks are refused in one line naming both."""
    from swords_metric import make_tasks

    first = json.loads(case.tasks.read_text().splitlines()[1])
    other = make_tasks(scorer, {first["id"]: ["gazette", "tabloid", "newsletter"]})
    assert other.tasks[0].task.split("@")[0] == first["task"].split("@")[0] and other.tasks[0].task != first["task"]
    old = tmp_path / "v1.jsonl"  # the case's tasks, as a version 1 file wrote them
    header, *tasks = [json.loads(line) for line in case.tasks.read_text().splitlines()]
    header = {k: v for k, v in by_hand(header).items() if k != "tasks_id"} | {"version": 1}
    tasks = [{**t, "task": t["task"].split("@")[0]} for t in tasks]
    _write(old, [header, *tasks])
    judgments = tmp_path / "v1-judgments.jsonl"
    _write(judgments, [{**r, "task": r["task"].split("@")[0]} for f in case.files for r in _records(f)])
    assert merge_judgments(scorer, [old, judgments]).labels == merge_judgments(scorer, case.inputs).labels
    another = tmp_path / "v1-another.jsonl"  # another run's version 1 tasks: the same ids, other candidates
    _write(another, [header, {**tasks[0], "candidates": tasks[0]["candidates"][::-1]}])
    with pytest.raises(MetricInputError) as error:
        merge_judgments(scorer, [old, another, judgments])
    assert str(error.value) == (
        f"{old}:2 and {another}:2: task {tasks[0]['task']!r} is two different tasks (tasks files made before "
        "version 2 share ids); give one run's tasks file at a time"
    )


def test_only_a_candidate_its_task_offered_counts(scorer, case, tmp_path):
    """A judge right on every control who also 'accepts' made-up substitutes of a task: refused in one line."""
    records = _records(case.files[1])
    made_up = {**records[0], "substitute": "zzword0", "control": False, "label": "accept"}
    made_up.pop("control_kind", None)
    _write(tmp_path / "b.jsonl", [*records, made_up])
    with pytest.raises(MetricInputError) as error:
        merge_judgments(scorer, [case.tasks, case.files[0], tmp_path / "b.jsonl"])
    assert str(error.value) == (
        f"{tmp_path / 'b.jsonl'}:{len(records) + 1}: 'zzword0' is not a candidate of task {records[0]['task']!r}; "
        "a judgment counts only for a candidate its task offered"
    )
    elsewhere = {**records[0], "task": records[-1]["task"]} if records[0]["task"] != records[-1]["task"] else None
    unknown = {**records[0], "task": records[0]["task"].split("@")[0] + "@000000000000"}
    for bad, message in ((unknown, "is in none of the tasks files given"), (elsewhere, "is not task")):
        if bad is None:
            continue
        _write(tmp_path / "c.jsonl", [bad])
        with pytest.raises(MetricInputError, match=message):
            merge_judgments(scorer, [case.tasks, tmp_path / "c.jsonl"])


def _llm(case: Case, agreement) -> list[dict]:
    return [
        {**r, "judge": "llm:m:0123abcd", "agreement": agreement} for r in _records(case.files[0]) if r["judge"] == "ann"
    ]


@pytest.mark.parametrize(
    ("agreement", "message"),
    [
        ('{"spearman": NaN}', "spearman must be a number within -1..1, got nan"),
        ('{"kappa_acceptable": 1e999}', "kappa_acceptable must be a number within -1..1, got inf"),
        ('{"spearman": 5.0}', "spearman must be a number within -1..1, got 5.0"),
        ('{"accuracy_acceptable": -0.1}', "accuracy_acceptable must be a number within 0..1, got -0.1"),
        ('{"candidates": 1.5}', "candidates must be a whole number, got 1.5"),
        ('{"kappa_acceptable": 0.4, "candidates": 10}', "candidates 10 is no measurement: a validation compares 50"),
        ('{"spearman": 0.4, "candidates": 1000000000000000000000000000000}', "candidates 100000000000000"),
        ('{"spearman": 0.4}', "its figures name no candidates"),
        ('"kappa_a=0.99\\u001b[2J"', "'agreement' must be an object of figures or null, got "),
    ],
)
def test_an_impossible_agreement_is_one_line_from_evaluate_json(case, tmp_path, agreement, message):
    path = tmp_path / "llm.jsonl"
    line = json.dumps(_llm(case, None)[0]).replace('"agreement": null', f'"agreement": {agreement}')
    path.write_text(line + "\n")
    done = run_swords(
        "evaluate", "--predictions", "space/results/coinco-oracle.swords.test.jsonl", "--json", "--bootstrap", "0",
        "--judgments", str(case.tasks), str(path),
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"swords: error: {path}:1: 'agreement'") and message in done.stderr
    assert done.stderr.count("\n") == 1 and "\x1b" not in done.stderr


@pytest.mark.slow  # 4 s on two cores
def test_a_claimed_agreement_is_signed_as_claimed_and_its_text_never_shown(scorer, case, tmp_path):
    """Figures in range are signed as claimed; the claim's other text (an escape sequence, a note) never reaches
    the signature or the report; one judge claiming two agreements is refused naming both records."""
    claim = {"kappa_acceptable": 0.99, "spearman": 0.5, "candidates": 40000, "note": "\x1b[2J<script>x</script>"}
    path = tmp_path / "llm.jsonl"
    _write(path, _llm(case, claim))
    done = run_swords(
        "evaluate", "--predictions", "space/results/coinco-oracle.swords.test.jsonl", "--bootstrap", "0",
        "--no-analysis", "--judgments", str(case.tasks), str(path),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "<script>" not in done.stdout
    assert "|agreement:claimed:kappa_a=0.99,rho=0.50,n=40000\n" in done.stdout
    assert "agreement claimed:kappa_a=0.99,rho=0.50,n=40000 (as its records claim; not checked)" in done.stdout
    records = _llm(case, claim)
    records[5]["agreement"] = {**claim, "spearman": 0.6}
    _write(path, records)
    with pytest.raises(MetricInputError) as error:
        merge_judgments(scorer, [case.tasks, path])
    assert str(error.value) == (
        f"{path}:1 and {path}:6: judge 'llm:m:0123abcd' claims two different agreements (they differ in spearman); "
        "judge with one validation"
    )


def test_substitutes_only_abstained_on_do_not_join_the_gold(scorer, case, tmp_path):
    """abe gets every control right and abstains on every candidate: nothing joins the gold, and the counts and
    the signature say so (abstentions are left out, as the benchmark's own are)."""
    from swords_metric.judgments.extended import signature_settings

    abe = [{**r, "judge": "abe"} | ({} if r["control"] else {"label": "abstain"}) for r in _records(case.files[1])]
    abe = [r for r in abe if r["substitute"] != case.already_judged[1]]
    _write(tmp_path / "abe.jsonl", abe)
    merged = merge_judgments(scorer, [case.tasks, tmp_path / "abe.jsonl"])
    counts = merged.counts()
    assert counts["abstained_only"] == len(merged.labels) == 36 and counts["abstentions"] == 36
    assert counts["judgements"] == counts["substitutes"] == 0
    assert dict(signature_settings(merged))["substitutes"] == 0


def test_given_only_signs_the_scored_targets_judgements(case, tmp_path):
    """--given-only on three of the six judged targets: the extended signature counts their judgements alone."""
    kept = case.rows[:3]
    run = tmp_path / "three.jsonl"
    _write(run, [{"id": row["id"], "substitutes": [p[0] for p in case.run[row["upstream_id"]]]} for row in kept])
    done = run_swords(
        "evaluate", "--predictions", str(run), "--given-only", "--json", "--bootstrap", "0", "--no-analysis",
        "--judgments", *map(str, case.inputs),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    ids = {row["id"] for row in kept}
    expected = sum(label != "UNSURE" for (tid, _), labels in case.expected.items() if tid in ids for label in labels)
    substitutes = sum(tid in ids for tid, _ in case.expected)
    assert result["judgments"]["judgements"] == expected and result["judgments"]["substitutes"] == substitutes
    assert result["extended"]["signature"].endswith(f"|judgements:{expected}|substitutes:{substitutes}|judges:3")
    outside = sum(len(labels) for (tid, _), labels in case.expected.items() if tid not in ids)
    assert result["judgments"]["outside_scored"] == outside > 0  # counted, not signed


def test_a_candidate_equal_to_its_target_control_keeps_both_records(scorer, case, tmp_path):
    """A task (made before, by hand) showing the target word as a candidate and as its target control: the
    record of each is kept; the control decides the task, and the candidate is the target word itself (left out)."""
    header, first, *_ = [json.loads(line) for line in case.tasks.read_text().splitlines()]
    target = next(c["substitute"] for c in first["candidates"] if c["control"] == "target")
    first["candidates"].insert(0, {"substitute": target, "control": None})
    _write(tmp_path / "tasks.jsonl", [by_hand(header), first])
    records = [r for r in _records(case.files[1]) if r["task"] == first["task"] and r["judge"] == "bob"]
    control = next(r for r in records if r.get("control_kind") == "target")
    records.append({**control, "control": False, "label": "reject"})
    records.remove(control)
    records.append(control)  # the control's record after the candidate's: neither replaces the other
    records = [r for r in records if r["substitute"] != case.already_judged[1]]
    _write(tmp_path / "bob.jsonl", records)
    merged = merge_judgments(scorer, [tmp_path / "tasks.jsonl", tmp_path / "bob.jsonl"])
    assert merged.tasks == 1 and merged.tasks_without_controls == merged.tasks_dropped_control == 0
    assert merged.target_copies == 1 and merged.replaced == merged.duplicates == 0
