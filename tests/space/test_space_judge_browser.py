"""The Judge tab in a real browser (headless Chromium through Playwright against the app in its own process, as
test_space_e2e_browser.py), as a person uses it: tasks made from a recorded run (the CoInCo oracle on SWORDS test),
one task judged with the keyboard and one with the mouse, the judgments file downloaded, the page reloaded (the
session gone), the tasks and the partial file uploaded, one more task judged, the file downloaded again, and that
file scored by `swords evaluate --judgments`. Screenshots go to artifacts/."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from swords_metric import read_judgments, read_tasks

from .browser import ARTIFACTS, table_rows, wait_for_upload
from .helpers import COINCO_ORACLE, REPO_ROOT
from .test_space_judge import right_labels

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
pytestmark = pytest.mark.browser  # a browser and the app in its own process (browser implies slow)
KEYS = {"accept": "a", "reject": "r", "abstain": "d"}


def progress(page) -> str:
    return page.inner_text("#judge-progress")


def wait_for_task(page, n: int) -> None:
    page.wait_for_function(
        "n => document.querySelector('#judge-progress').innerText.includes(`Task ${n} of`)", arg=n, timeout=60_000
    )


def shown_candidates(page) -> list[str]:
    """The labels of the candidates' radio groups the page shows, in order ("1. word")."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[id^=judge-candidate-]')].filter(g => g.offsetParent)
            .map(g => g.querySelector('[data-testid=block-info], .block-info, span').innerText.trim())"""
    )


def checked(page) -> list[str]:
    return page.evaluate(
        """() => [...document.querySelectorAll('[id^=judge-candidate-]')].filter(g => g.offsetParent)
            .map(g => ([...g.querySelectorAll('input')].find(i => i.checked) || {}).value || null)"""
    )


def saved(page, n: int) -> str:
    """The acknowledgement of the nth saved task, once the page shows it."""
    page.wait_for_function(
        "n => (document.querySelector('#judge-saved .swords-judge-saved') || {}).innerText?.includes(`task ${n} `)",
        arg=n,
    )
    return page.inner_text("#judge-saved .swords-judge-saved")


def font_sizes(page) -> dict[str, float]:
    """The font sizes (px) of a candidate's word, of its answers, of the task's target and of its context."""
    return page.evaluate(
        """() => {
            const size = selector => parseFloat(getComputedStyle(document.querySelector(selector)).fontSize);
            return {candidate: size('#judge-candidate-1 [data-testid=block-info]'),
                    answer: size('#judge-candidate-1 label span'), target: size('#judge-task .swords-judge-target'),
                    context: size('#judge-task .swords-context')};
        }"""
    )


def text_left(page, selector: str) -> float:
    """Where the text in `selector` starts on the page, in pixels from its left (its first line's first rectangle)."""
    return page.evaluate(
        """selector => {
            const range = document.createRange();
            range.selectNodeContents(document.querySelector(selector));
            return [...range.getClientRects()].filter(rect => rect.width > 0)[0].left;
        }""",
        selector,
    )


def download(page, button: str, path):
    with page.expect_download() as event:
        page.click(button)
    event.value.save_as(path)
    return path


def start(page, task: int) -> None:
    """Start as Ann; wait for the first task to judge (the `task`th)."""
    page.fill("#judge-name input, #judge-name textarea", "Ann")
    page.click("#judge-start")
    wait_for_task(page, task)


def judge_with_keys(page, task) -> None:
    page.click("#judge-progress")  # the focus out of the name's text field: the keys are the tab's
    for label in right_labels(task):
        page.keyboard.press(KEYS[label])
    assert checked(page) == right_labels(task)
    page.keyboard.press("Enter")  # saves the task


def judge_with_mouse(page, task) -> None:
    for n, label in enumerate(right_labels(task), 1):
        page.click(f"#judge-candidate-{n} input[value={label}]")
    assert checked(page) == right_labels(task)
    page.click("#judge-save")


def test_judge_two_tasks_download_reload_continue_and_score_the_file(page, tmp_path):
    ARTIFACTS.mkdir(exist_ok=True)
    page.get_by_role("tab", name="Judge").click()
    assert "would actually consider using this substitute as the author of the original sentence" in page.inner_text(
        "#judge-instructions"
    )
    page.get_by_text("…or make tasks from a run").click()
    page.set_input_files("#judge-run input[type=file]", str(COINCO_ORACLE))
    wait_for_upload(page, COINCO_ORACLE, "#judge-run")
    start(page, 1)
    tasks = read_tasks(download(page, "#judge-tasks-download", tmp_path / "tasks.jsonl")).tasks
    total = sum(len(task.candidates) for task in tasks)
    controls = 2 * len(tasks)
    assert progress(page).startswith(
        f"Task 1 of {len(tasks)} · 0 of {total} words judged ({total - controls} candidates and {controls} controls)"
        " · judge Ann"
    )
    assert page.inner_text("#judge-task mark.swords-target") == tasks[0].target
    assert shown_candidates(page) == [f"{n}. {c.substitute}" for n, c in enumerate(tasks[0].candidates, 1)]

    judge_with_keys(page, tasks[0])
    wait_for_task(page, 2)
    assert saved(page, 1).startswith(f"✓ Saved task 1 ({tasks[0].target}): ")  # the save, seen
    first = read_judgments(download(page, "#judge-download", tmp_path / "after-one.jsonl"))
    assert {r["task"] for r in first} == {tasks[0].task} and len(first) == len(tasks[0].candidates)
    assert checked(page) == [None] * len(tasks[1].candidates)  # the next task starts unjudged
    # Saved too soon: one message above the task, where the judge looks; no toast, the answer given stays.
    label = right_labels(tasks[1])[0]
    page.click(f"#judge-candidate-1 input[value={label}]")
    page.click("#judge-save")
    page.wait_for_selector("#judge-saved .swords-judge-error")
    assert page.inner_text("#judge-saved").startswith("Judge every substitute before saving; not yet: ")
    assert checked(page)[0] == label and page.locator(".toast-body").count() == 0
    judge_with_mouse(page, tasks[1])
    wait_for_task(page, 3)
    assert saved(page, 2).startswith(f"✓ Saved task 2 ({tasks[1].target}): ")
    two = len(tasks[0].candidates) + len(tasks[1].candidates)
    assert f"{two} of {total} words judged" in progress(page)
    page.set_viewport_size({"width": 1280, "height": 1000})
    sizes = font_sizes(page)  # the words being judged are the card's largest text, the target the task's
    assert sizes["candidate"] > sizes["answer"] and sizes["target"] > 1.5 * sizes["context"], sizes
    # Issue 50: the task's head and its context on one left edge, not ragged (render.context_html flows the context).
    assert abs(text_left(page, "#judge-task .swords-judge-head") - text_left(page, "#judge-task .swords-context")) < 1
    page.screenshot(path=str(ARTIFACTS / "space-judge.png"), full_page=True)
    partial = download(page, "#judge-download", tmp_path / "judgments-partial.jsonl")
    records = read_judgments(partial)
    assert [(r["task"], r["substitute"], r["label"]) for r in records] == [
        (task.task, c.substitute, label)
        for task in tasks[:2]
        for c, label in zip(task.candidates, right_labels(task), strict=True)
    ]

    page.reload()  # the session is gone with the page: the files carry it
    page.wait_for_selector("#run")
    page.get_by_role("tab", name="Judge").click()
    assert progress(page) == "Not started."
    page.set_input_files("#judge-tasks input[type=file]", str(tmp_path / "tasks.jsonl"))
    wait_for_upload(page, tmp_path / "tasks.jsonl", "#judge-tasks")
    page.set_input_files("#judge-partial input[type=file]", str(partial))
    wait_for_upload(page, partial, "#judge-partial")
    start(page, 3)
    assert "2 tasks were already judged in the uploaded judgments file" in progress(page)
    assert shown_candidates(page)[0] == f"1. {tasks[2].candidates[0].substitute}"
    judge_with_keys(page, tasks[2])
    wait_for_task(page, 4)
    merged = download(page, "#judge-download", tmp_path / "judgments.jsonl")
    records = read_judgments(merged)
    three = two + len(tasks[2].candidates)
    assert len(records) == three and {r["task"] for r in records} == {t.task for t in tasks[:3]}
    assert all(r["judge"] == "Ann" and r["split"] == "test" for r in records)

    scored = subprocess.run(
        [sys.executable, "-m", "swords_lexsub.cli", "evaluate", "--dataset", "swords", "--split", "test",
         "--predictions", str(COINCO_ORACLE), "--judgments", str(tmp_path / "tasks.jsonl"), str(merged),
         "--bootstrap", "0"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert scored.returncode == 0, scored.stderr
    new = three - 2 * 3  # the three tasks' candidates, every one accepted or rejected, without the controls
    found = re.search(r"no judgement in the gold: ([\d,]+) of [\d,]+ \S+ before, ([\d,]+) ", scored.stdout)
    assert found and int(found.group(1)) - int(found.group(2)) == new, scored.stdout
    assert re.search(
        rf"judgements kept: {new}, of {new} new substitutes, by 1 judge \(", scored.stdout
    )  # issue 50: not "1 judges"
    assert "|judges:1" in scored.stdout.split("extended signature: ")[1].splitlines()[0]

    # The same file in the Score tab, beside the run: the official and extended figures side by side.
    page.get_by_role("tab", name="Score").click()
    page.set_input_files("#score-file input[type=file]", str(COINCO_ORACLE))
    wait_for_upload(page, COINCO_ORACLE)
    page.set_input_files("#score-judgments input[type=file]", [str(tmp_path / "tasks.jsonl"), str(merged)])
    wait_for_upload(page, merged, "#score-judgments")
    page.click("#score")
    page.wait_for_selector("#score-extended-block", state="visible", timeout=90_000)
    page.wait_for_function(
        "() => document.querySelector('#score-extended-signature textarea').value.includes('|judges:1')"
    )
    assert f"{new} judgements of {new} new substitutes by 1 judge," in page.inner_text("#score-extended-summary")
    assert table_rows(page, "#score-extended")[0][:2] == ["lenient F@10, acceptable", "lenient_a_f@10"]
    page.locator("#score-extended-block").screenshot(path=str(ARTIFACTS / "space-score-extended.png"))
