"""What the browser tests share: driving Gradio's components the way a person does (headless Chromium through
Playwright: the fixtures are in conftest.py), reading its tables and charts, and where screenshots go."""

from __future__ import annotations

from pathlib import Path

from ..space_server import REPO_ROOT

ARTIFACTS = REPO_ROOT / "artifacts"
# The browser tests tests/release/test_installed_space.py runs against the installed Space (its `-k`); it checks the
# app's log itself. When it runs, their run against the clone's app is skipped (conftest.py).
INSTALLED_SELECTION = "test_browser"
INSTALLED_LOG_CHECK = "test_server_log_has_no_traceback"


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
                const text = cell => cell.innerText.trim().replaceAll('\u2011', '-');  // the page's non-breaking ones
                if (cells.length > column && text(cells[0]) === label) return text(cells[column]);
            }
            return null;
        }""",
        [table, row_label, column],
    )


def table_rows(page, table: str) -> list[list[str]]:
    """The text of every data row of a Gradio Dataframe (its rendered rows: the first screenful of a long one), its
    non-breaking hyphens (the page's, so that no word breaks at one) read as hyphens."""
    return page.evaluate(
        """table => [...document.querySelectorAll(`${table} [role=row]`)]
            .map(row => [...row.querySelectorAll('[role=gridcell]')]
                .map(cell => cell.innerText.trim().replaceAll('\u2011', '-')))
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


def words_not_whole(page, selector: str) -> list[str]:
    """Every word (a run of non-space characters) of the cells, headers and chart figures under `selector` that the
    page does not show whole on one line: laid out on two lines or more (getClientRects of the word's own range at
    different heights), or running past its cell's box (clipped or hidden). Words in buttons (a header's menu) are
    not the table's text."""
    return page.evaluate(
        """selector => {
            const found = [];
            const boxes = document.querySelectorAll(
                `${selector} [role=gridcell], ${selector} [role=columnheader], ${selector} .swords-bar-value`);
            for (const box of boxes) {
                const edge = box.getBoundingClientRect();
                if (!edge.width) continue;
                const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    if (node.parentElement.closest('button')) continue;
                    for (const word of node.data.matchAll(/\\S+/g)) {
                        const range = document.createRange();
                        range.setStart(node, word.index);
                        range.setEnd(node, word.index + word[0].length);
                        const rects = [...range.getClientRects()].filter(rect => rect.width > 0);
                        const lines = new Set(rects.map(rect => Math.round(rect.top)));
                        const inside = rects.every(
                            rect => rect.left >= edge.left - 0.5 && rect.right <= edge.right + 0.5);
                        if (lines.size !== 1 || !inside) found.push(word[0]);
                    }
                }
            }
            return found;
        }""",
        selector,
    )


def words_not_whole_in_every_row(page, table: str) -> list[str]:
    """words_not_whole over every row of a Gradio Dataframe, not only its first screenful: the table renders the
    rows in view (a virtualised grid), so its scroller is moved down a screenful at a time."""
    found = words_not_whole(page, table)
    scroller = page.locator(table).evaluate_handle(
        "table => [...table.querySelectorAll('*')].find(e => e.scrollHeight > e.clientHeight + 2 && "
        "getComputedStyle(e).overflowY !== 'visible') || null"
    )
    if scroller.json_value() is None:
        return found
    for _ in range(100):  # a bound: a grid that does not scroll further ends it too
        if not scroller.evaluate(
            "e => { const top = e.scrollTop; e.scrollTop += e.clientHeight; return e.scrollTop > top; }"
        ):
            break
        page.wait_for_timeout(150)  # the grid renders the rows now in view
        found += words_not_whole(page, table)
    scroller.evaluate("e => { e.scrollTop = 0; }")
    return found


def fits_its_width(page, table: str) -> bool:
    """Whether a Gradio Dataframe shows every column without scrolling sideways (none of its scrollers is wider
    than its box)."""
    return page.locator(table).evaluate(
        "table => [...table.querySelectorAll('*')].every(e => "
        "!['auto', 'scroll'].includes(getComputedStyle(e).overflowX) || e.scrollWidth <= e.clientWidth + 1)"
    )
