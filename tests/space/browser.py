"""What the browser tests share: driving Gradio's components the way a person does (headless Chromium through
Playwright: the fixtures are in conftest.py), reading its tables and charts, and where screenshots go."""

from __future__ import annotations

from pathlib import Path

from ..space_server import REPO_ROOT

ARTIFACTS = REPO_ROOT / "artifacts"


def choose(page, dropdown: str, option: str) -> None:
    """Pick an option of a Gradio dropdown the way a person does: open it, type, click."""
    page.click(f"{dropdown} input")
    page.fill(f"{dropdown} input", option)
    page.get_by_role("option", name=option, exact=True).first.click()


def toast_text(page) -> str:
    page.wait_for_selector(".toast-body", timeout=30_000)
    return page.inner_text(".toast-body")


def wait_for_upload(page, path: Path, component: str = "#score-file") -> None:
    """Until the file component lists the uploaded file (name and extension are separate elements)."""
    page.wait_for_function(
        "([component, stem]) => document.querySelector(component).innerText.includes(stem)",
        arg=[component, path.name.split(".")[0]],
    )


def table_cell(page, table: str, row_label: str, column: int) -> str:
    """The text of a cell of a Gradio Dataframe (a virtualised ARIA grid), in the row whose first cell is
    row_label."""
    return page.evaluate(
        """([table, label, column]) => {
            for (const row of document.querySelectorAll(`${table} [role=row]`)) {
                const cells = [...row.querySelectorAll('[role=gridcell]')];
                if (cells.length > column && cells[0].innerText.trim() === label) return cells[column].innerText.trim();
            }
            return null;
        }""",
        [table, row_label, column],
    )


def table_rows(page, table: str) -> list[list[str]]:
    """The text of every data row of a Gradio Dataframe (its rendered rows: the first screenful of a long one)."""
    return page.evaluate(
        """table => [...document.querySelectorAll(`${table} [role=row]`)]
            .map(row => [...row.querySelectorAll('[role=gridcell]')].map(cell => cell.innerText.trim()))
            .filter(cells => cells.length)""",
        table,
    )


def chart_bars(page, chart: str) -> list[dict]:
    """The bars a Gradio BarPlot drew (Vega renders SVG): each one's fill colour and height in pixels."""
    return page.evaluate(
        """chart => [...document.querySelectorAll(`${chart} svg g.mark-rect path`)].map(bar => ({
            fill: (bar.getAttribute('fill') || '').toLowerCase(), height: bar.getBBox().height}))""",
        chart,
    )
