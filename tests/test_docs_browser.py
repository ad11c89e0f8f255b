"""The built manual as a reader sees it at 1,280 px: no code block scrolls sideways on any page. Each page of the
session's build (tests/conftest.py's `built_site`, shared with test_docs.py) is served on 127.0.0.1 and opened in
headless Chromium, and every `pre`/`code` block's scroll width is compared with its visible width."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from .space.conftest import CHROMIUM, CHROMIUM_ARGS

WINDOW = {"width": 1280, "height": 900}
# The blocks that scroll: those whose content is wider than the box that shows it.
SCROLLING_BLOCKS = """() => [...document.querySelectorAll('article pre, article pre > code')]
    .filter(block => block.scrollWidth > block.clientWidth)
    .map(block => `${block.scrollWidth - block.clientWidth} px too wide: ${block.textContent.split('\\n')[0]}`)"""
COUNT_BLOCKS = "() => document.querySelectorAll('article pre').length"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:  # one line a request would bury the test's own output
        pass


@pytest.fixture(scope="module")
def served_site(built_site) -> Iterator[tuple[Path, str]]:
    """(the built site, its address on 127.0.0.1)."""
    site, build = built_site
    assert build.returncode == 0, (build.stdout + build.stderr)[-3000:]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield site, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    thread.join(timeout=10)
    server.server_close()


def manual_pages(site: Path) -> list[str]:
    """Every page of the built manual, as its path under the site (the theme's own files and the 404 page left out)."""
    return sorted(
        "" if page.parent == site else f"{page.parent.relative_to(site).as_posix()}/"
        for page in site.rglob("index.html")
        if page.relative_to(site).parts[0] not in {"assets", "search"}
    )


@pytest.mark.browser
@pytest.mark.slow  # 25 s on two cores (the build, shared with test_docs.py, and 21 pages)
def test_no_code_block_scrolls_sideways_at_1280_px(served_site):
    if not Path(CHROMIUM).is_file() and not shutil.which(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install -y chromium (or set SWORDS_CHROMIUM)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (no `playwright install`)")
    site, address = served_site
    pages = manual_pages(site)
    assert {"", "faults/", "scoring/", "reference/cli/", "reference/formats/"} <= set(pages), pages
    scrolling, blocks = {}, 0
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport=WINDOW)
            page.set_default_timeout(30_000)
            for path in pages:
                page.goto(address + path, wait_until="load")
                blocks += page.evaluate(COUNT_BLOCKS)
                found = page.evaluate(SCROLLING_BLOCKS)
                if found:
                    scrolling[path or "/"] = found
        finally:
            browser.close()
    # The manual shows its commands and outputs in code blocks: a check that saw few of them checked nothing.
    assert blocks >= 90, f"only {blocks} code blocks in {len(pages)} pages"
    assert not scrolling, f"code blocks that scroll sideways at {WINDOW['width']} px: {scrolling}"
