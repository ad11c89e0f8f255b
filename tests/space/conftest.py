"""Fixtures of the Space's tests: benchmark rows and predictions for the handlers' tests; the app in its own
process, its API client and a headless browser for the end-to-end tests; a fake LLM server."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from ..space_server import running_app
from .browser import INSTALLED_LOG_CHECK, INSTALLED_SELECTION
from .helpers import COINCO_ORACLE, import_space, importable

CHROMIUM = os.environ.get("SWORDS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# -- the browser tests, once a session ------------------------------------------------------------------------

# When the installed wheel's Space repository runs the browser tests (test_installed_space.py: the same tests against
# the product as users get it, its log checked for tracebacks), their run against the clone's app is skipped. Run
# without it (`pytest tests/space`, `-m "not release"`), they run against the clone's app.
INSTALLED_BROWSER_RUN = "tests/release/test_installed_space.py::test_the_space_repository_runs_the_browser_tests"
CLONE_BROWSER_FILE = "tests/space/test_space_e2e_browser.py::"


@pytest.hookimpl(trylast=True)  # after `-m` and `-k` have deselected
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if os.environ.get(SPACE_URL_ENV) or not any(item.nodeid == INSTALLED_BROWSER_RUN for item in items):
        return
    skip = pytest.mark.skip(reason=f"run once a session, against the installed Space: {INSTALLED_BROWSER_RUN}")
    for item in items:
        if item.nodeid.startswith(CLONE_BROWSER_FILE) and (
            INSTALLED_SELECTION in item.name or item.name == INSTALLED_LOG_CHECK
        ):
            item.add_marker(skip)


# -- the handlers, in this process ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def swords_test() -> list[dict]:
    import_space()
    from swords_space import benchmarks

    return benchmarks.load_rows("swords", "test")


@pytest.fixture(scope="module")
def press(swords_test) -> dict:
    """A SWORDS test example whose target occurs once in its context."""
    from swords_space import free_text

    return next(row for row in swords_test if len(free_text.occurrences(row["context"], row["target"])) == 1)


@pytest.fixture(scope="module")
def coinco_predictions() -> dict:
    from swords_metric import read_predictions

    return read_predictions(COINCO_ORACLE)[0]


@pytest.fixture
def llm_server():
    """An OpenAI-compatible server on 127.0.0.1 answering from fixtures (tests/llm_server.py)."""
    import_space()
    from swords_space import offered_systems

    if not importable(offered_systems.LLM_SYSTEM):
        pytest.skip("the llm system is not installed")
    pytest.importorskip("openai")
    from ..llm_server import LLMServer

    with LLMServer() as server:
        yield server


# -- the app in its own process -------------------------------------------------------------------------------


SPACE_URL_ENV = "SWORDS_SPACE_URL"  # an app already running elsewhere, for the browser tests to drive instead
SPACE_LOG_ENV = "SWORDS_SPACE_LOG"  # and its log, if it has one here


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app as `python space/app.py` starts it (the way a Hugging Face Space runs it); or, when
    $SWORDS_SPACE_URL names one, that app (tests/release runs the browser tests against the installed wheel's)."""
    if os.environ.get(SPACE_URL_ENV):
        log = os.environ.get(SPACE_LOG_ENV)
        yield {"url": os.environ[SPACE_URL_ENV], "log": Path(log) if log else None}
        return
    with running_app(tmp_path_factory.mktemp("space")) as app:
        yield app


@pytest.fixture(scope="module")
def client(server):
    from gradio_client import Client

    return Client(server["url"], verbose=False)


@pytest.fixture(scope="module")
def example_row() -> dict:
    """A SWORDS test example whose target occurs once, as typed context and target."""
    import pyarrow.parquet as pq

    import swords_dataset

    rows = pq.read_table(swords_dataset.DATASET_DIR / swords_dataset.parquet_path("swords", "test")).to_pylist()
    return next(
        row
        for row in rows
        if len(re.findall(rf"(?<![^\W_]){re.escape(row['target'])}(?![^\W_])", row["context"])) == 1
        and row["target"].isalpha()
    )


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).is_file() and not shutil.which(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install -y chromium (or set SWORDS_CHROMIUM)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (no `playwright install`)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(server["url"])
    page.wait_for_selector("#run")
    yield page
    context.close()
