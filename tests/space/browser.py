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
    """Every word (a run of non-space characters) of the cells, headers, chart names and figures under `selector`
    that the page does not show whole on one line: laid out on two lines or more (getClientRects of the word's own
    range at different heights), or running past its cell's box (clipped or hidden). Words in buttons (a header's
    menu) are not the table's text."""
    return page.evaluate(
        """selector => {
            const found = [];
            const boxes = document.querySelectorAll(
                `${selector} [role=gridcell], ${selector} [role=columnheader], ${selector} .swords-bar-value, ` +
                `${selector} .swords-bar-name`);
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


def inner_scrollers(page, table: str) -> list[list]:
    """The boxes inside a table that scroll up and down in their own right (a Gradio Dataframe's viewport past its
    max_height): each one's scroll and client heights. None: every row shows without scrolling inside the table."""
    return page.locator(table).evaluate(
        "table => [...table.querySelectorAll('*')].filter(e => e.scrollHeight > e.clientHeight + 2 && "
        "['auto', 'scroll'].includes(getComputedStyle(e).overflowY)).map(e => [e.scrollHeight, e.clientHeight])"
    )


def broken_across_lines(page, selector: str) -> list[str]:
    """The text of every element matching `selector` (a legend's chip, say) that the page lays out on two lines or
    more (its text's client rectangles at different heights)."""
    return page.evaluate(
        """selector => [...document.querySelectorAll(selector)].filter(element => {
            const range = document.createRange();
            range.selectNodeContents(element);
            const rects = [...range.getClientRects()].filter(rect => rect.width > 0);
            return new Set(rects.map(rect => Math.round(rect.top))).size > 1;
        }).map(element => element.innerText)""",
        selector,
    )


def axis_titles(page, chart: str) -> list[str]:
    """The axis titles a Gradio plot drew (Vega renders SVG; a title longer than the room it is given is drawn cut,
    ending in "…")."""
    return page.evaluate(
        "chart => [...document.querySelectorAll(`${chart} svg g.role-axis-title text`)].map(t => t.textContent)",
        chart,
    )


def short_lines(page, selector: str, slack: float = 0.25) -> list[str]:
    """Ragged text: the lines of the text in `selector`'s box, but its last, that end short of the box's right edge by
    more than `slack` of its width (for a text of one paragraph: its lines should fill the box). Each one's words."""
    return page.evaluate(
        """([selector, slack]) => {
            const box = document.querySelector(selector);
            const style = getComputedStyle(box), edge = box.getBoundingClientRect();
            const right = edge.right - parseFloat(style.paddingRight), left = edge.left + parseFloat(style.paddingLeft);
            const lines = new Map();  // a line's top -> its words and its right end
            const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                for (const word of node.data.matchAll(/\\S+/g)) {
                    const range = document.createRange();
                    range.setStart(node, word.index);
                    range.setEnd(node, word.index + word[0].length);
                    const rect = [...range.getClientRects()].filter(r => r.width > 0).pop();
                    if (!rect) continue;
                    const line = lines.get(Math.round(rect.top)) || {words: [], right: 0};
                    line.words.push(word[0]);
                    line.right = Math.max(line.right, rect.right);
                    lines.set(Math.round(rect.top), line);
                }
            }
            const tops = [...lines.keys()].sort((a, b) => a - b);
            tops.pop();  // the text's last line
            return tops.map(top => lines.get(top)).filter(line => line.right < right - slack * (right - left))
                .map(line => line.words.join(' '));
        }""",
        [selector, slack],
    )
