"""The Judge tab: people judge, in context, the substitutes a benchmark never judged, by SWORDS's own protocol
(the paper's Appendix B), one task at a time from a tasks file or a run and a SWORDS split: each candidate accepted,
rejected or abstained on (radio buttons, or the keys of KEYS_JS), each finished task appended to the judgments file
offered for download (judge_session.py; the files' checks: judge_files.py). For the API, /judge_start and /judge_save
also answer which candidate each of /judge_save's parameters candidate_1 … candidate_12 judges."""

from __future__ import annotations

import inspect
from html import escape
from pathlib import Path

import gradio as gr

from swords_metric import INSTRUCTIONS, LABELS
from swords_space import render
from swords_space.errors import SpaceError
from swords_space.inputs import Dropdown, File, Number, PredictionsFile, Radio, Textbox, refuse
from swords_space.tabs.judge_files import MAX_JUDGMENTS_BYTES, MAX_TASKS_BYTES, SLOTS, judgeable_splits
from swords_space.tabs.judge_session import JudgeSession, discard, save, seen, start
from swords_space.tabs.score_files import MAX_UPLOAD_BYTES

# What each choice says (the values are the metric's labels, in its order).
CHOICE_WORDS = {
    "accept": "accept",
    "reject": "reject",
    "abstain": "abstain (I do not know this word)",
}
CHOICES = [(CHOICE_WORDS[label], label) for label in LABELS]
JSONL = [".jsonl"]
KEYS_HELP = (
    "Keyboard: **a** (or 1) accept, **r** (2) reject, **d** (3) abstain — each key answers the candidate that has "
    "the focus (Tab moves it), else the first one without an answer; **Enter** saves the task."
)
# The keys above, in the page: installed once when it loads; they act only while the Judge tab is shown and the
# focus is not in a text field. A key clicks the radio button, so Gradio sees the same change as from a mouse.
KEYS_JS = """() => {
  if (window.swordsJudgeKeys) return;
  window.swordsJudgeKeys = true;
  const LABELS = {a: 'accept', r: 'reject', d: 'abstain', '1': 'accept', '2': 'reject', '3': 'abstain'};
  const shown = () => [...document.querySelectorAll('[id^="judge-candidate-"]')].filter(g => g.offsetParent);
  const answered = group => [...group.querySelectorAll('input[type=radio]')].some(input => input.checked);
  document.addEventListener('keydown', event => {
    const save = document.querySelector('#judge-save');
    if (!save || !save.offsetParent || event.ctrlKey || event.metaKey || event.altKey) return;
    const active = document.activeElement;
    if (active && (active.tagName === 'TEXTAREA' || (active.tagName === 'INPUT' && active.type !== 'radio'))) return;
    const groups = shown();
    if (!groups.length) return;
    if (event.key === 'Enter') {
      if (active && active.tagName === 'BUTTON') return;
      event.preventDefault();
      save.click();
      return;
    }
    const label = LABELS[event.key.toLowerCase()];
    if (!label) return;
    const focused = active && active.closest('[id^="judge-candidate-"]');
    const group = groups.includes(focused) ? focused : groups.find(g => !answered(g));
    if (!group) return;
    event.preventDefault();
    group.querySelector(`input[value="${label}"]`).click();
    const next = groups.slice(groups.indexOf(group) + 1).find(g => !answered(g)) || groups.find(g => !answered(g));
    (next ? next.querySelector('input') : save).focus();  // all answered: Enter saves
  });
}"""

# -- what the page shows of a session ---------------------------------------------------------------------------


def progress_text(session: JudgeSession | None) -> str:
    if session is None:
        return "Not started."
    judged, total = session.candidates_judged()
    count = len(session.tasks)
    where = f"Task **{session.finished + 1:,} of {count:,}**" if session.current else f"**All {count:,} tasks judged**"
    # The words a judge answers are the candidates and each task's two controls: the candidates counted as `swords
    # judge tasks` counts them, the controls apart, so that the two agree.
    controls = sum(c.control is not None for task in session.tasks for c in task.candidates)
    line = (
        f"{where} · {judged:,} of {total:,} words judged ({total - controls:,} candidates and {controls:,} controls) "
        f"· judge **{escape(seen(session.judge))}**"
    )
    if session.resumed:
        line += f" · {session.resumed:,} tasks were already judged in the uploaded judgments file or earlier here"
    if session.elsewhere:
        line += f" · {session.elsewhere:,} records of tasks not in this tasks file are kept in the file"
    return line


# Each candidate's word is what its card asks about: larger and darker than the answers under it (Gradio shows a
# group's label small and grey).
CANDIDATE_CSS = (
    '<style>[id^="judge-candidate-"] [data-testid="block-info"]{font-size:1.2rem;font-weight:700;color:#111827}</style>'
)
# A save's acknowledgement: green, beside the progress, where the eye is when the next task appears.
SAVED_STYLE = "background:#dcfce7;color:#14532d;border:1px solid #86efac;border-radius:6px;padding:4px 10px"
ERROR_STYLE = "background:#fee2e2;color:#7f1d1d;border:1px solid #fca5a5;border-radius:6px;padding:4px 10px"


def saved_html(session: JudgeSession | None) -> str:
    if session is None or not session.saved:
        return ""
    return f'<div class="swords-judge-saved" style="{SAVED_STYLE}">✓ {escape(session.saved)}</div>'


def task_html(session: JudgeSession | None) -> str:
    if session is None:
        return ""
    task = session.current
    if task is None:
        return (
            '<div class="swords-judge-done" style="padding:8px">Every task is judged: download the judgments file '
            "(below), and score it with the run in the Score tab or with <code>swords evaluate --judgments</code>."
            "</div>"
        )
    where = f"{session.header.get('dataset', '')} {session.header.get('split', '')}".strip()
    head = (
        # The context's own padding (render.context_html) on the left too: the head and the context share one edge.
        '<div class="swords-judge-head" style="display:flex;align-items:baseline;gap:12px;flex-wrap:wrap;'
        'margin-bottom:4px;padding:0 8px">'
        '<span style="color:#374151">Substitutes for</span>'
        f'<span class="swords-judge-target" style="font-size:1.9em;font-weight:700;color:#111827">'
        f"{escape(seen(task.target))}</span>"
        f'<span style="font-size:0.85em;color:#4b5563">{escape(where)} · <code>{escape(seen(task.id))}</code></span>'
        "</div>"
    )
    return head + render.context_html(task.context, task.offset, len(task.target))


def task_data(session: JudgeSession | None) -> dict | None:
    """The current task for the API: which candidate each of /judge_save's parameters judges."""
    task = session.current if session else None
    if task is None:
        return None
    return {
        "task": task.task,
        "id": task.id,
        "target": task.target,
        "candidates": {f"candidate_{n}": c.substitute for n, c in enumerate(task.candidates, 1)},
    }


def view(session: JudgeSession | None) -> tuple:
    """The updates of the tab's outputs for a session: progress, the task, a radio per candidate, the buttons."""
    task = session.current if session else None
    candidates = task.candidates if task else []
    radios = [
        gr.Radio(label=f"{i + 1}. {seen(candidates[i].substitute)}", value=None, visible=True)
        if i < len(candidates)
        else gr.Radio(label=f"candidate {i + 1}", value=None, visible=False)
        for i in range(SLOTS)
    ]
    has_file = session is not None
    tasks_file = session.tasks_file if session else None
    return (
        session,
        progress_text(session),
        task_html(session),
        *radios,
        gr.Button(interactive=task is not None),
        gr.DownloadButton(value=str(session.judgments) if has_file else None, visible=has_file),
        gr.DownloadButton(value=str(tasks_file) if tasks_file else None, visible=tasks_file is not None),
        saved_html(session),
        task_data(session),
    )


# -- events -------------------------------------------------------------------------------------------------


def _noted(notice: dict, act):
    """`act()`'s result; its SpaceError kept in `notice` (this page's gr.State) for on_failure to show above the task,
    and raised for the API without a toast: one message, no "Error" pill over the judge's answers."""
    try:
        result = act()
    except SpaceError as error:
        message = str(refuse(str(error)).message)  # as the API reads it (a lone surrogate written as its escape)
        notice["error"] = message
        raise gr.Error(message, visible=False, print_exception=False) from None
    notice.pop("error", None)
    return result


def on_start(
    old=None,
    notice=None,
    tasks_upload=None,
    run_upload=None,
    split_label="swords test",
    targets=0,
    seed=0,
    partial=None,
    judge="",
):
    folder = Path(gr.utils.get_upload_folder())  # Gradio serves files there as they are: no copy per download
    folder.mkdir(parents=True, exist_ok=True)

    def act() -> JudgeSession:  # the earlier session of this page, if any, is carried into the new one
        return start(tasks_upload, run_upload, split_label, judge, partial, targets, seed, folder, previous=old)

    return view(_noted({} if notice is None else notice, act))


def on_save(session, notice, *labels):
    return view(_noted({} if notice is None else notice, lambda: save(session, list(labels))))


def on_failure(notice: dict | None) -> str:
    """The message of the event that failed, in red above the task (it stays until the next Start or save)."""
    message = (notice or {}).get("error", "")
    return f'<div class="swords-judge-error" style="{ERROR_STYLE}">{escape(message)}</div>' if message else ""


# The API names each label after its candidate's place (/judge_save's candidate_1 … candidate_12), as the tab numbers
# them; Gradio reads the names from the signature, and a *labels function's would be param_1 … param_12.
on_save.__signature__ = inspect.Signature(
    [
        inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        for name in ("session", "notice", *(f"candidate_{i + 1}" for i in range(SLOTS)))
    ]
)


# -- layout -------------------------------------------------------------------------------------------------


def build(demo: gr.Blocks) -> None:
    """The tab's components (inside its gr.Tab) and events; the keyboard's keys installed when `demo` loads."""
    state = gr.State(None, delete_callback=discard)  # this browser session's JudgeSession; its files go with it
    tasks_mb, judgments_mb = MAX_TASKS_BYTES // 2**20, MAX_JUDGMENTS_BYTES // 2**20
    with gr.Row():
        with gr.Column(scale=1):
            tasks_upload = File(
                what="The tasks file",
                label=f"Tasks file (swords judge tasks, or downloaded here; JSONL, at most {tasks_mb} MB)",
                file_types=JSONL,
                type="filepath",
                elem_id="judge-tasks",
            )
            with gr.Accordion("…or make tasks from a run", open=False, elem_id="judge-from-run"):
                run_upload = PredictionsFile(
                    "The run",
                    f"Run (predictions file, at most {MAX_UPLOAD_BYTES // 2**20} MB): its substitutes the benchmark "
                    "never judged",
                    "judge-run",
                )
                split = Dropdown(judgeable_splits(), value="swords test", label="Benchmark", elem_id="judge-split")
                with gr.Row():
                    targets = Number(
                        0,
                        label="Targets to sample (0: every target)",
                        minimum=0,
                        maximum=100_000,
                        precision=0,
                        elem_id="judge-targets",
                    )
                    seed = Number(0, label="Seed", minimum=0, maximum=2**31 - 1, precision=0, elem_id="judge-seed")
            partial = File(
                what="The judgments file",
                label=f"To continue: your judgments file so far (JSONL, at most {judgments_mb} MB)",
                file_types=JSONL,
                type="filepath",
                elem_id="judge-partial",
            )
            judge = Textbox(label="Your name (the judge, as the file records it)", max_length=80, elem_id="judge-name")
            begin = gr.Button("Start", variant="primary", elem_id="judge-start")
            download = gr.DownloadButton("Download the judgments file", visible=False, elem_id="judge-download")
            tasks_download = gr.DownloadButton("Download the tasks file", visible=False, elem_id="judge-tasks-download")
        with gr.Column(scale=2):
            with gr.Accordion("Instructions (SWORDS's, Appendix B of the paper)", open=True):
                gr.Markdown(INSTRUCTIONS, elem_id="judge-instructions")
            # Labels name the API's outputs (/judge_start, /judge_save); neither component shows one on the page.
            progress = gr.Markdown(progress_text(None), label="Progress", elem_id="judge-progress")
            saved = gr.HTML(label="Saved (or why not)", elem_id="judge-saved")
            task = gr.HTML(label="Task", elem_id="judge-task")
            radios = [
                Radio(
                    CHOICES, value=None, label=f"candidate {i + 1}", visible=False, elem_id=f"judge-candidate-{i + 1}"
                )
                for i in range(SLOTS)
            ]
            gr.HTML(CANDIDATE_CSS, elem_id="judge-style")
            gr.Markdown(KEYS_HELP, elem_id="judge-keys")
            save_task = gr.Button("Save this task and show the next", interactive=False, elem_id="judge-save")
            data = gr.JSON(visible=False, label="the task", elem_id="judge-task-data")  # for the API only
    outputs = [state, progress, task, *radios, save_task, download, tasks_download, saved, data]
    notice = gr.State({})  # the last failed event's message, for on_failure
    shown_on = dict(show_progress_on=[saved])  # progress and failure on the status line, never over the answers
    failed = dict(fn=on_failure, inputs=notice, outputs=saved, api_visibility="private", show_progress="hidden")
    begin.click(
        on_start,
        [state, notice, tasks_upload, run_upload, split, targets, seed, partial, judge],
        outputs,
        api_name="judge_start",
        **shown_on,
    ).failure(**failed)
    save_task.click(on_save, [state, notice, *radios], outputs, api_name="judge_save", **shown_on).failure(**failed)
    demo.load(None, None, None, js=KEYS_JS, api_visibility="private")
