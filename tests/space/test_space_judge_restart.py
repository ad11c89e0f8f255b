"""The Judge tab's Start pressed again in one page (handlers on real data, as test_space_judge.py): the earlier
session's records carried into the new file, its folder (and download link) kept, the last MAX_EARLIER of them; a
Start on another split refused while the page holds judgments, so one file holds one split's records."""

from __future__ import annotations

import json
import shutil

import pytest

from .helpers import COINCO_ORACLE
from .test_space_judge import records_of, right_labels

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
from swords_space.errors import SpaceError  # noqa: E402  (after the import fallback)
from swords_space.tabs import judge_session  # noqa: E402
from swords_space.tabs.judge_session import discard, save, start  # noqa: E402


@pytest.fixture(scope="module")
def made_tasks(tmp_path_factory):
    """The tasks the tab makes from the recorded run on SWORDS test (the file it offers for download)."""
    return start(None, str(COINCO_ORACLE), "swords test", "Ann", folder=tmp_path_factory.mktemp("judge")).tasks_file


@pytest.fixture
def tasks_file(made_tasks, tmp_path):
    return shutil.copy(made_tasks, tmp_path / "tasks.jsonl")


@pytest.fixture(scope="module")
def swords_dev() -> list[dict]:
    from swords_space import benchmarks

    return benchmarks.load_rows("swords", "dev")


def test_start_again_carries_the_page_s_earlier_sessions_and_keeps_their_last_folders(tasks_file, tmp_path):
    session = start(str(tasks_file), None, None, "Ann", folder=tmp_path)
    save(session, right_labels(session.current))
    first = records_of(session.judgments)
    sessions = [session]
    for _ in range(judge_session.MAX_EARLIER + 2):  # Start pressed again and again in one page
        sessions.append(start(str(tasks_file), None, None, "Ann", folder=tmp_path, previous=sessions[-1]))
    last = sessions[-1]
    assert records_of(last.judgments) == first and last.resumed == 1  # nothing lost, nothing doubled
    assert last.earlier == [s.folder for s in sessions[-1 - judge_session.MAX_EARLIER : -1]]
    assert all(s.judgments.is_file() for s in sessions[-1 - judge_session.MAX_EARLIER :])  # their links answer
    assert not sessions[0].folder.exists() and not sessions[1].folder.exists()  # their records are in the last
    discard(last)
    assert not any(s.folder.exists() for s in sessions)


def test_start_again_on_another_split_is_refused_while_the_page_holds_judgments(tasks_file, tmp_path, swords_dev):
    session = start(str(tasks_file), None, None, "Ann", folder=tmp_path)
    save(session, right_labels(session.current))
    header = json.loads(tasks_file.read_text(encoding="utf-8").splitlines()[0])
    row = swords_dev[0]
    task = {"task": f"{row['id']}#1", "id": row["id"], "context": row["context"], "target": row["target"],
            "offset": row["offset"], "candidates": [{"substitute": row["target"], "control": "target"},
                                                    {"substitute": "zebra", "control": "random"}]}  # fmt: skip
    dev = tmp_path / "dev-tasks.jsonl"
    dev.write_text(json.dumps({**header, "split": "dev"}) + "\n" + json.dumps(task) + "\n", encoding="utf-8")
    with pytest.raises(SpaceError, match="holds judgments for swords test, and these tasks are for swords dev"):
        start(str(dev), None, None, "Ann", folder=tmp_path, previous=session)
    assert session.judgments.is_file()  # the page keeps its session and its link
    assert start(str(dev), None, None, "Ann", folder=tmp_path).current.id == row["id"]  # a new page: judged


def test_start_again_with_the_page_s_own_download_doubles_no_record(tasks_file, tmp_path):
    session = start(str(tasks_file), None, None, "Ann", folder=tmp_path)
    for task in session.tasks[:2]:
        save(session, right_labels(task))
    download = tmp_path / "judgments-Ann.jsonl"
    download.write_bytes(session.judgments.read_bytes())
    again = start(str(tasks_file), None, None, "Ann", partial=str(download), folder=tmp_path, previous=session)
    assert records_of(again.judgments) == records_of(download) and again.resumed == 2


def test_a_file_whose_names_are_decomposed_resumes_where_it_stopped(tasks_file, tmp_path):
    """Issue 47: 'José' typed in the tab (NFC) finds the tasks of a file a tool wrote with 'José' decomposed (NFD)
    and a trailing space: the tab resumes after them, where it used to ask them again."""
    import unicodedata

    session = start(str(tasks_file), None, None, "Jos\u00e9", folder=tmp_path)
    for task in session.tasks[:2]:
        save(session, right_labels(task))
    nfd = tmp_path / "nfd.jsonl"
    records = [{**r, "judge": unicodedata.normalize("NFD", r["judge"]) + " "} for r in records_of(session.judgments)]
    nfd.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    assert records[0]["judge"] != "Jos\u00e9"
    again = start(str(tasks_file), None, None, "Jos\u00e9", partial=str(nfd), folder=tmp_path)
    assert again.resumed == 2 and again.current.task == session.tasks[2].task
