"""Golden test of the Space's Score and Leaderboard tabs (cases_space.py), their handlers called in this process:
every output a case shows, against its recording in tests/golden/recorded/space/, byte for byte. Tables are
written as CSV (a Styler as Gradio shows it: each cell's text and each row's style, then its data), charts by
their data, component updates by what they set.

Record again: SWORDS_GOLDEN_RECORD=1 pytest tests/golden (see test_golden_evaluate.py)."""

from __future__ import annotations

import json
import shutil

import pytest

from ..space.helpers import RESULTS, import_space
from .cases_space import PAGE, PAGE_OUTPUTS, SCORE, SCORE_OUTPUTS, SLOW
from .conftest import placed
from .recording import check, check_recorded_set, sections, value_text

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
import_space()
import gradio as gr  # noqa: E402

from swords_space import benchmarks, render  # noqa: E402
from swords_space.tabs.leaderboard import benchmark_choices, leaderboard, on_board, on_leaderboard  # noqa: E402
from swords_space.tabs.score import on_published_notes, on_score, on_score_page  # noqa: E402

SURFACE = "space"
BOARDS = {f"leaderboard.{choice.replace(' ', '.')}": choice for choice in benchmark_choices()}
OTHER = ("published-notes", "leaderboard.refused.unknown", "leaderboard.with-your-runs")


def no_progress(*args, **kwargs) -> None:
    pass


@pytest.fixture(autouse=True)
def shipped_results(monkeypatch):
    """The Space's own results folder (not one a user's environment names)."""
    monkeypatch.delenv("SWORDS_SPACE_RESULTS", raising=False)


def arguments(case: dict, inputs, request) -> tuple[list, dict]:
    """on_score's values, in order, as the page sends them: files as paths (uploads) or names (stored); and the
    placeholders of the folders they name."""
    folders = {}

    def upload(name):
        if name is None:
            return None
        path, named = placed(name, request)
        folders.update(named)
        return path if named else str(inputs / path)

    values = [
        upload(case.get("upload")),
        case.get("stored"),
        case.get("split", "swords test"),
        case.get("setting", "generative"),
        case.get("bootstrap", 1000),
        case.get("curve_setting", "lenient"),
        case.get("include_problematic", False),
        upload(case.get("compare_upload")),
        case.get("compare_stored"),
        [upload(name) for name in case["judgments"]] if "judgments" in case else None,
    ]
    return values, folders


def outputs_text(names, outputs, normalise) -> str:
    assert len(outputs) == len(names), (len(outputs), names)
    return sections((name, normalise(value_text(value))) for name, value in zip(names, outputs, strict=True))


@pytest.mark.parametrize("case", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in SCORE])
def test_score(case, inputs, volatile, request):
    values, folders = arguments(SCORE[case], inputs, request)
    normalise = volatile.with_folders(folders)
    try:
        outputs = on_score(*values, progress=no_progress)
    except gr.Error as error:
        text = f"gr.Error: {error.message}\n"
    else:
        text = outputs_text(SCORE_OUTPUTS, outputs, normalise)
    check(SURFACE, f"score.{case}", normalise(text))


@pytest.mark.parametrize("case", list(PAGE))
def test_score_page(case, inputs, volatile, request):
    values, folders = arguments(PAGE[case], inputs, request)
    outputs = on_score_page(*values, progress=no_progress)
    check(SURFACE, case, outputs_text(PAGE_OUTPUTS, outputs, volatile.with_folders(folders)))


def test_published_notes():
    labels = benchmarks.split_choices()
    check(SURFACE, "published-notes", "".join(f"{label}: {on_published_notes(label)}\n" for label in labels))


@pytest.mark.parametrize("case", list(BOARDS))
def test_leaderboard(case, volatile):
    benchmark = BOARDS[case]
    board, partial_board, note, chart = on_board(benchmark)
    table, api_note = on_leaderboard(benchmark)
    parts = [("board", value_text(board)), ("note", note), ("chart", chart), ("api: board", value_text(table))]
    if partial_board.visible:  # the page's partial runs, apart (none among the shipped results)
        parts.insert(1, ("partial runs", value_text(partial_board)))
    parts.append(("api: note", api_note))
    check(SURFACE, case, volatile(sections(parts)))


def test_leaderboard_refusal():
    with pytest.raises(gr.Error) as error:
        on_board("swords nope")
    check(SURFACE, "leaderboard.refused.unknown", f"gr.Error: {error.value.message}\n")


def test_leaderboard_with_your_runs(tmp_path, volatile):
    """`swords demo --results runs`: a run of the user's beside the shipped ones, one replacing a shipped file of
    its name, a file that is no metrics file skipped and named."""
    mine = json.loads((RESULTS / "thesaurus-oracle.swords.test.metrics.json").read_text())
    mine["run"]["system"], mine["lenient_a_f@10"] = "mine", 30.0
    (tmp_path / "mine.swords.test.metrics.json").write_text(json.dumps(mine))
    shutil.copyfile(
        RESULTS / "coinco-oracle.swords.test.metrics.json", tmp_path / "coinco-oracle.swords.test.metrics.json"
    )
    (tmp_path / "broken.metrics.json").write_text("{not json")
    table, note = leaderboard(tmp_path)
    # The note names the folder as Markdown shows it (its punctuation escaped): that form is the folder's too.
    normalise = volatile.with_folders({"<yours>": tmp_path}).with_folders({"<yours>": render.markdown_text(tmp_path)})
    check(SURFACE, "leaderboard.with-your-runs", normalise(sections([("board", value_text(table)), ("note", note)])))


def test_every_case_is_recorded():
    check_recorded_set(SURFACE, [*(f"score.{name}" for name in SCORE), *PAGE, *BOARDS, *OTHER])
