"""Judgments in the Score tab, on real data: judgments files made by the Judge tab's handlers for the recorded
CoInCo-oracle run on SWORDS test extend the gold, and the extended figures equal an ordinary Scorer's over rows
extended by hand (each new substitute with its judges' labels); a judge who fails the controls is left out; the
signature says it is extended; CoInCo refuses judgments; a bad or too large file is one message naming it."""

from __future__ import annotations

import json
import shutil

import pytest

from swords_metric import Scorer

from .helpers import COINCO_ORACLE, import_space
from .test_space_judge import right_labels

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
import_space()
from swords_space import benchmarks, scoring  # noqa: E402  (after the import fallback)
from swords_space.errors import SpaceError  # noqa: E402
from swords_space.tabs import score_judgments  # noqa: E402
from swords_space.tabs.judge_session import save, start  # noqa: E402
from swords_space.tabs.score import score_predictions  # noqa: E402


def answers(judge: str, task, n: int) -> list[str]:
    """Ann accepts every candidate; Bob accepts those of every other task and rejects the rest; both answer the
    controls right. Cy rejects everything, the target control too: under 90%, left out."""
    if judge == "Cy":
        return ["reject"] * len(task.candidates)
    labels = right_labels(task)
    keep = judge == "Ann" or n % 2 == 0
    return [
        label if c.control else ("accept" if keep else "reject")
        for c, label in zip(task.candidates, labels, strict=True)
    ]


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Three judges' files for every task of the run, made in the Judge tab, and the tasks."""
    folder = tmp_path_factory.mktemp("judged")
    made = start(None, str(COINCO_ORACLE), "swords test", "Ann", folder=folder)
    tasks_file = folder / "tasks.jsonl"
    shutil.copy(made.tasks_file, tasks_file)
    files = {}
    for judge in ("Ann", "Bob", "Cy"):
        session = start(str(tasks_file), None, None, judge, folder=folder)
        for n, task in enumerate(list(session.tasks)):
            save(session, answers(judge, task, n))
        files[judge] = folder / f"{judge}.jsonl"
        shutil.copy(session.judgments, files[judge])
    return made.tasks, files, tasks_file


@pytest.mark.slow  # 7 s on two busy cores (load 4-6)
def test_the_extended_figures_equal_a_scorer_over_rows_extended_by_hand(judged, swords_test, coinco_predictions):
    tasks, files, tasks_file = judged
    result = score_predictions(
        str(COINCO_ORACLE), None, "swords test", bootstrap=0, judgments=list(map(str, [tasks_file, *files.values()]))
    )
    added: dict[str, list[dict]] = {}
    for n, task in enumerate(tasks):
        for c in task.candidates:
            if c.control is None:
                labels = ["TRUE", "TRUE" if n % 2 == 0 else "FALSE"]  # Ann's, Bob's; Cy's left out
                added.setdefault(task.id, []).append(
                    {"substitute": c.substitute, "score": labels.count("TRUE") / 2, "votes_positive":
                     labels.count("TRUE"), "votes_total": 2, "labels": labels, "sources": ["judged"]}
                )  # fmt: skip
    rows = [{**row, "substitutes": row["substitutes"] + added.get(row["id"], [])} for row in swords_test]
    expected = Scorer(rows, split="test").score(coinco_predictions, by_pos=False)
    official = Scorer(swords_test, split="test").score(coinco_predictions, by_pos=False)
    table = score_judgments.extended_table(result.result).set_index("key")
    for _, key in scoring.METRIC_ROWS:
        assert table.loc[key, "official"] == round(official[key], 2), key
        assert table.loc[key, "extended"] == round(expected[key], 2), key
    assert table.loc["strict_a_p@10", "extended"] > table.loc["strict_a_p@10", "official"]  # new hits now count
    new = sum(c.control is None for task in tasks for c in task.candidates)
    summary = score_judgments.extended_summary(result.result)
    assert f"{2 * new:,} judgements of {new:,} new substitutes by 2 judges," in summary
    assert f"**{new:,}** of" in summary and "**0** have none in the extended gold" in summary
    assert "1 judge under 90% control accuracy" in summary and f"2 judgements: {new:,}" in summary
    signature = result.result["extended"]["signature"]
    assert signature.startswith(result.result["signature"] + "|judgments:") and "|judges:2" in signature
    block, _, _, shown_signature = score_judgments.shown(result.result)
    assert block.visible and shown_signature == signature


@pytest.mark.slow  # 3.6 s on two cores (the quick lane, 2026-11-28)
def test_without_judgments_nothing_changes(swords_test, coinco_predictions):
    result = score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=0)
    assert "extended" not in result.result and score_judgments.extended_summary(result.result) == ""
    assert result.result["signature"] == Scorer(swords_test, split="test").score(coinco_predictions)["signature"]
    assert not score_judgments.shown(result.result)[0].visible


def test_bad_judgments_files_are_one_message_naming_them(judged, tmp_path):
    _, files, tasks_file = judged
    lines = files["Ann"].read_text().splitlines(keepends=True)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + '{"task": 1}\n')
    with pytest.raises(SpaceError) as found:
        score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=0, judgments=[str(tasks_file), str(bad)])
    assert str(found.value).startswith("bad.jsonl:2: ") and str(tmp_path) not in str(found.value)
    coinco = tmp_path / "coinco.jsonl"  # a run on CoInCo test: its gold was recalled, not judged
    coinco.write_text(json.dumps({"id": benchmarks.load_rows("coinco", "test")[0]["id"], "substitutes": [["x", 1]]}))
    with pytest.raises(SpaceError, match="judgments: coinco's gold was recalled"):
        score_predictions(str(coinco), None, "coinco test", bootstrap=0, judgments=[str(files["Ann"])])
    halves = []
    for name in ("a.jsonl", "b.jsonl"):  # sparse: 11 MB each on paper, refused before reading
        halves.append(tmp_path / name)
        with open(halves[-1], "wb") as file:
            file.write(lines[0].encode())
            file.truncate(11 * 2**20)
    with pytest.raises(SpaceError, match=r"The judgments files have 22.0 MB in all; at most 20 MB"):
        score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=0, judgments=list(map(str, halves)))


@pytest.mark.parametrize("time", ["9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+01:00"])
def test_a_time_at_the_calendars_ends_is_one_message_naming_its_line(judged, tmp_path, time):
    """Issue 47: a valid time outside the years 1 to 9999 once in UTC was an OverflowError in the tab."""
    _, files, tasks_file = judged
    records = [json.loads(line) for line in files["Bob"].read_text().splitlines()]
    records[1]["time"] = time
    ends = tmp_path / "ends.jsonl"
    ends.write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(SpaceError) as found:
        score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=0, judgments=[str(tasks_file), str(ends)])
    assert (
        str(found.value)
        == f"ends.jsonl:2: 'time' {time!r} is past the years 1 to 9999 in UTC, where times are compared"
    )


def test_a_record_timed_after_the_merges_clock_is_noted_under_its_uploads_name(judged, tmp_path):
    """Issue 47: a record dated years ahead still wins; the summary says so, naming the file as it was uploaded."""
    _, files, tasks_file = judged
    records = [json.loads(line) for line in files["Bob"].read_text().splitlines()]
    records[1]["time"] = "2099-01-01T00:00:00+00:00"
    ahead = tmp_path / "ahead.jsonl"
    ahead.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = score_predictions(
        str(COINCO_ORACLE), None, "swords test", bootstrap=0, judgments=[str(tasks_file), str(ahead)]
    ).result
    (note,) = [line for line in score_judgments.extended_summary(result).split("\n\n") if line.startswith("Note:")]
    assert note.startswith("Note: 1 record is timed after this merge") and "at ahead.jsonl:2 \\(2099" in note
    assert str(tmp_path) not in note


def test_an_llm_judges_agreement_from_its_records_is_shown_as_text_not_markup():
    """Issue 41: the judge's name and claimed agreement come from a judgments file, so a `<script>` or a Markdown
    link in them is shown as the characters it is."""
    hostile = {
        "llm:<script>alert(1)</script>": "[0.9](https://example.com) <img src=x onerror=alert(1)>",
        "llm:judge*": None,
    }
    judged = {
        "judgements": 3,
        "substitutes": 1,
        "judges": 1,
        "files": ["a.jsonl"],
        "records": 3,
        "unjudged_top_k": {"k": 10, "before": 5, "after": 4, "substitutes": 10},
        "tasks_dropped_control": 0,
        "judges_dropped": 1,
        "tasks_dropped_judge": 1,
        "tasks_without_controls": 0,
        "tasks_lacking_control": 0,
        "duplicates": 0,
        "folded": 0,
        "notes": [],
        "already_judged": 0,
        "judgements_per_substitute": {"new": {"1": 1}},
        "agreement": hostile,
    }
    summary = score_judgments.extended_summary({"judgments": judged})
    assert "by 1 judge, from 1 file (3 records)" in summary and "1 judge under 90% control accuracy (1 task)" in summary
    lines = [line for line in summary.split("\n\n") if line.startswith("LLM judge")]
    assert lines == [
        r"LLM judge llm:&lt;script&gt;alert\(1\)&lt;/script&gt;: agreement with SWORDS's annotators "
        r"\[0.9\]\(https://example.com\) &lt;img src=x onerror=alert\(1\)&gt;.",
        r"LLM judge llm:judge\*: agreement with SWORDS's annotators never measured.",
    ]
