"""The Leaderboard in a browser at 1,280 px (and wider), as a person reads it: headless Chromium through Playwright
(the fixtures in conftest.py) against the app in its own process. The default board is SWORDS test ranked by
lenient F@10; every figure and header is shown whole on one line (the "33.\\n9" and "len ien t F@1 0" it once
showed); choosing another split shows its board; the bar chart of the main metric is beside the table. Screenshots go
to artifacts/."""

from __future__ import annotations

import json

import pytest

from ..space_server import running_app
from .browser import ARTIFACTS, choose, inner_scrollers, table_rows, words_not_whole
from .helpers import HOSTILE_NAMES, RESULTS, hostile_results

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
pytestmark = pytest.mark.slow  # a browser and the app in its own process


def headers(page) -> list[str]:
    return page.evaluate(
        "() => [...document.querySelectorAll('#leaderboard [role=columnheader]')].map(h => h.innerText.trim())"
    )


def figure_lines(page, row_label: str, column: int) -> int:
    """How many lines the figure in a row's cell takes on the page (its text's client rectangles)."""
    return page.evaluate(
        """([label, column]) => {
            for (const row of document.querySelectorAll('#leaderboard [role=row]')) {
                const cells = [...row.querySelectorAll('[role=gridcell]')];
                if (cells.length > column && cells[0].innerText.trim().replaceAll('\u2011', '-') === label) {
                    const range = document.createRange();
                    range.selectNodeContents(cells[column].querySelector('span') || cells[column]);
                    return [...range.getClientRects()].filter(rect => rect.width > 0).length;
                }
            }
            return null;
        }""",
        [row_label, column],
    )


@pytest.fixture
def narrow(browser, server):
    """The page at 1,280 px wide, on the Leaderboard tab."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(server["url"])
    page.wait_for_selector("#run")
    page.get_by_role("tab", name="Leaderboard").click()
    page.wait_for_function("() => document.querySelectorAll('#leaderboard-chart .swords-bar').length > 0")
    yield page
    context.close()


def test_browser_leaderboard_at_1280_px_shows_swords_test_ranked_every_figure_whole_and_a_chart(narrow):
    page = narrow
    ARTIFACTS.mkdir(exist_ok=True)
    assert page.input_value("#leaderboard-benchmark input") == "swords test"
    assert headers(page)[1:3] == ["system", "lenient F@10"]  # after the row numbers: ranked by the main metric
    rows = table_rows(page, "#leaderboard")
    figures = [float(cells[1]) for cells in rows if cells[1]]
    assert len(figures) > 10 and figures == sorted(figures, reverse=True)
    oracle = json.loads((RESULTS / "coinco-oracle.swords.test.metrics.json").read_text())
    shown = {cells[0]: cells[1] for cells in rows}
    assert shown["coinco-oracle"] == f"{oracle['lenient_a_f@10']:.1f}" == "33.9"
    assert figure_lines(page, "coinco-oracle", 1) == 1  # "33.9" whole, on one line
    assert words_not_whole(page, "#leaderboard") == []  # every figure, name word and header of the table
    assert words_not_whole(page, "#leaderboard-chart") == []  # its names too: not "wordnet+embeddi⏎ng" (issue 50)
    assert inner_scrollers(page, "#leaderboard") == []  # every rank in view, no scroll box of its own (issue 50)
    # The chart beside the table (not below it), one bar per figure in the table's order, the measured runs apart.
    table_box = page.locator("#leaderboard").bounding_box()
    chart_box = page.locator("#leaderboard-chart").bounding_box()
    assert chart_box["x"] >= table_box["x"] + table_box["width"] and chart_box["y"] < table_box["y"] + 200
    bars = page.locator("#leaderboard-chart .swords-bar").evaluate_all(
        "bars => bars.map(bar => [bar.dataset.source, bar.querySelector('.swords-bar-value').innerText])"
    )
    assert [float(value) for _, value in bars[: len(figures)]] == figures[: len(bars)]
    assert ["measured", "33.9"] in bars and ["measured", "12"] in bars  # the two oracles measured here
    assert "lenient F@10 on swords test, best first" in page.inner_text("#leaderboard-chart")
    page.screenshot(path=str(ARTIFACTS / "space-leaderboard-1280.png"), full_page=True)

    # Another split, another board: TSAR-2022 English, ranked by ACC@1 as its official results are.
    choose(page, "#leaderboard-benchmark", "tsar2022_en test")
    page.wait_for_function(
        "() => document.querySelector('#leaderboard-chart').innerText.includes('ACC@1 on tsar2022_en test')"
    )
    page.wait_for_function("() => document.querySelector('#leaderboard').innerText.includes('UniHD run 2')")
    assert headers(page)[1:3] == ["system", "ACC@1"] and "Potential@10" in headers(page)
    assert table_rows(page, "#leaderboard")[0][:2] == ["UniHD run 2", "0.8096"]  # results/official, English
    assert words_not_whole(page, "#leaderboard") == [] and words_not_whole(page, "#leaderboard-chart") == []
    # ProLex: no rows here yet, but its long headers ("P@10, proficiency-oriented") whole, and the chart says so.
    choose(page, "#leaderboard-benchmark", "prolex test")
    page.wait_for_function("() => document.querySelector('#leaderboard-chart').innerText.includes('prolex test')")
    assert "F@10, proficiency-oriented" in headers(page) and words_not_whole(page, "#leaderboard") == []
    assert "No run or published result on this split reports" in page.inner_text("#leaderboard-chart")


@pytest.mark.parametrize("width", [1440, 1920])
def test_browser_leaderboard_wider_than_1280_px_keeps_every_figure_whole(narrow, width):
    narrow.set_viewport_size({"width": width, "height": 1000})
    narrow.wait_for_timeout(500)  # the table refits its columns to the new width
    assert words_not_whole(narrow, "#leaderboard") == [] and words_not_whole(narrow, "#leaderboard-chart") == []
    table_box = narrow.locator("#leaderboard").bounding_box()
    assert narrow.locator("#leaderboard-chart").bounding_box()["x"] >= table_box["x"] + table_box["width"]


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory):
    """The app on a results folder a careless or hostile user may give it (helpers.hostile_results)."""
    folder = tmp_path_factory.mktemp("hostile-space")
    (folder / "results").mkdir()
    results = hostile_results(folder / "results")
    with running_app(folder, options=("--results", str(results))) as app:
        yield app


def test_browser_leaderboard_shows_names_as_text_and_partial_runs_apart(browser, hostile_server):
    """Issue 47, at 1,280 px: a file named `<img src=x onerror=alert(1)>.metrics.json` is named in the note, not shown
    as an image; the `--limit 5` run (lenient F@10 80, above every other) is in a table of its own below the board
    (issue 50), in italics, its targets "5 of 762", and has no bar; a 5,000-character system name is cut, its length
    said. Screenshot in artifacts/."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(hostile_server["url"])
        page.wait_for_selector("#run")
        page.get_by_role("tab", name="Leaderboard").click()
        page.wait_for_function("() => document.querySelectorAll('#leaderboard-chart .swords-bar').length > 0")
        page.wait_for_function("() => document.querySelector('#leaderboard-note').innerText.includes('skipped')")
        note = page.locator("#leaderboard-note")
        assert note.locator("img, a, em").count() == 0
        assert note.locator("strong").all_inner_texts() == ["lenient F@10"]  # the ranking metric, as the note says
        text = note.inner_text()
        for name in HOSTILE_NAMES:
            assert name in text, text
        assert "1 partial run" in text
        bars = page.locator("#leaderboard-chart .swords-bar-value").all_inner_texts()
        assert "30" in bars and "80" not in bars  # "mine" charted; the partial run not
        page.locator("#leaderboard .virtual-table-viewport").hover()
        for _ in range(3):  # the table draws the rows scrolled into view, measuring their heights as it goes
            page.mouse.wheel(0, 3000)
            page.wait_for_timeout(400)
        assert "quick" not in [row[0] for row in table_rows(page, "#leaderboard")]  # issue 50: not on the board
        # The partial run in its own table, below the board, its title saying why, its source how many targets.
        page.wait_for_selector("#leaderboard-partial [role=gridcell]")
        (row,) = table_rows(page, "#leaderboard-partial")
        assert row[:3] == ["quick", "80", "measured: your run, partial: 5 of 762 targets"] and row[-1] == "5 of 762"
        assert "Partial runs: over part of the split, not ranked" in page.inner_text("#leaderboard-partial")
        board_box, partial_box = (page.locator(f"#leaderboard{part}").bounding_box() for part in ("", "-partial"))
        assert partial_box["y"] >= board_box["y"] + board_box["height"]
        style = (
            page.locator("#leaderboard-partial [role=row]")
            .last.locator("[role=gridcell]")
            .nth(1)
            .evaluate("cell => getComputedStyle(cell.querySelector('span') || cell).fontStyle")
        )
        assert style == "italic"
        assert words_not_whole(page, "#leaderboard") == [] and words_not_whole(page, "#leaderboard-partial") == []
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("#leaderboard-partial").screenshot(path=str(ARTIFACTS / "space-leaderboard-partial-1280.png"))
        page.screenshot(path=str(ARTIFACTS / "space-leaderboard-hostile-1280.png"), full_page=True)
    finally:
        context.close()
