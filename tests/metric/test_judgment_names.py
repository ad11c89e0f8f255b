"""Judges are compared by name as people read names (issue 47): 'José' composed (NFC) or decomposed (NFD) and 'alice'
with a trailing space are one judge each, in the merge and in the Judge tab's resume rule; a name mixing scripts
(a Cyrillic 'а' in 'аlice') is refused in one line, shown escaped; an `LLM:` prefix in any case is an LLM judge's,
in the merge, the report, the signature and the resume rule. On the hand-made case of judgment_cases.py."""

from __future__ import annotations

import json
import unicodedata

import pytest

from swords_metric import MetricInputError, Scorer, judged_by, llm_judge, merge_judgments, read_judgments, read_tasks
from swords_metric.judgments.extended import signature_settings

from ..conftest import run_swords
from .judgment_cases import Case, make_case

JOSE = "Jos\u00e9"  # NFC: é one character


@pytest.fixture(scope="module")
def scorer() -> Scorer:
    return Scorer.from_dataset("swords", "test")


@pytest.fixture(scope="module")
def case(tmp_path_factory) -> Case:
    return make_case(tmp_path_factory.mktemp("judgments"))


def _records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path, records) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")


def _ann(case: Case) -> list[dict]:
    return [r for r in _records(case.files[0]) if r["judge"] == "ann"]


@pytest.mark.parametrize(
    ("one", "other"),
    [(JOSE, unicodedata.normalize("NFD", JOSE)), ("alice", "alice "), ("alice", " alice\t")],
    ids=["nfc-nfd", "trailing-space", "spaces-around"],
)
def test_one_name_written_two_ways_is_one_judge(scorer, case, tmp_path, one, other):
    """ann's tasks split in two files under two spellings of one name: one judge, their tasks together, the labels
    as under one spelling; the judge is named in NFC, trimmed."""
    records = _ann(case)
    tasks = sorted({r["task"] for r in records})
    first = [{**r, "judge": one if r["task"] in tasks[:3] else other} for r in records]
    assert one != other and {r["judge"] for r in first} == {one, other}
    _write(tmp_path / "two.jsonl", first)
    _write(tmp_path / "one.jsonl", [{**r, "judge": one} for r in records])
    two, single = (merge_judgments(scorer, [case.tasks, tmp_path / name]) for name in ("two.jsonl", "one.jsonl"))
    assert two.judges == single.judges == [unicodedata.normalize("NFC", one.strip())]
    assert two.labels == single.labels and two.sha256 == single.sha256
    # One judge's answer to one candidate under either spelling: the later answer replaces the earlier one.
    again = {**records[0], "judge": other, "time": "2026-11-27T09:00:00+00:00"}
    _write(tmp_path / "again.jsonl", [again])
    assert merge_judgments(scorer, [case.tasks, tmp_path / "one.jsonl", tmp_path / "again.jsonl"]).replaced == 1


def test_a_name_mixing_scripts_is_refused_in_one_line_shown_escaped(scorer, case, tmp_path):
    records = _ann(case)
    records[4]["judge"] = "\u0430lice"  # a Cyrillic 'а', then Latin letters: it would pass for 'alice'
    _write(tmp_path / "mixed.jsonl", records)
    message = (
        f"{tmp_path / 'mixed.jsonl'}:5: the judge's name '\\u0430lice' mixes Cyrillic and Latin letters, so it would "
        "pass for another name; write it in one script"
    )
    with pytest.raises(MetricInputError) as error:
        merge_judgments(scorer, [case.tasks, tmp_path / "mixed.jsonl"])
    assert str(error.value) == message
    done = run_swords("evaluate", "--predictions", "space/results/coinco-oracle.swords.test.jsonl",
                      "--judgments", str(case.tasks), str(tmp_path / "mixed.jsonl"))  # fmt: skip
    assert done.returncode == 2 and done.stderr == f"swords: error: {message}\n"
    # One script, any script, is a name; Japanese mixes Han and kana, as its names do.
    for name in ("\u0410\u043b\u0438\u0441\u0430", "\u5c71\u7530\u306f\u306a\u3053", "Zoë O'Neil-2"):
        _write(tmp_path / "fine.jsonl", [{**r, "judge": name} for r in _ann(case)])
        assert merge_judgments(scorer, [case.tasks, tmp_path / "fine.jsonl"]).judges == [name]


def test_the_resume_rule_finds_a_judges_tasks_under_another_spelling(case, tmp_path):
    """The Judge tab's resume rule: a file whose names a tool wrote in NFD (or with a space) resumes for the name
    typed in NFC; another person's name does not."""
    taskset = read_tasks(case.tasks)
    records = [{**r, "judge": unicodedata.normalize("NFD", JOSE) + " "} for r in _ann(case)]
    _write(tmp_path / "nfd.jsonl", records)
    read = read_judgments(tmp_path / "nfd.jsonl")
    finished = judged_by(read, taskset, JOSE)
    # Every task but the first, which also offers the benchmark's substitute only bob judged (judgment_cases.py).
    assert finished == {task.task for task in taskset.tasks[1:]} and len(finished) == 5
    assert judged_by(read, taskset, "Jose") == set()


def test_an_llm_prefix_in_another_case_is_an_llm_judge_everywhere(scorer, case, tmp_path):
    """`LLM:m:0123abcd` and `llm:m:0123abcd` are one LLM judge: its claimed agreement reaches the signature and the
    report (before, the upper-case one signed nothing), and the resume rule and the Judge tab call it an LLM's."""
    claim = {"kappa_acceptable": 0.5, "spearman": 0.25, "candidates": 300}
    records = [{**r, "judge": "LLM:m:0123abcd", "agreement": claim} for r in _ann(case)]
    for r in records[::2]:
        r["judge"] = "llm:m:0123abcd"
    _write(tmp_path / "llm.jsonl", records)
    merged = merge_judgments(scorer, [case.tasks, tmp_path / "llm.jsonl"])
    assert merged.judges == ["llm:m:0123abcd"] and merged.agreement == {"llm:m:0123abcd": {**claim, "spearman": 0.25}}
    assert dict(signature_settings(merged))["agreement"] == "claimed:kappa_a=0.50,rho=0.25,n=300"
    assert llm_judge("LLM:m:0123abcd") and llm_judge(" Llm:x") and not llm_judge("ellm:x")
