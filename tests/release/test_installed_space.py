"""The demo and the Space as a user runs them from the installed wheel (the Space repository's requirements.txt
installed into a fresh virtual environment, run outside the clone): `swords demo` answers HTTP, and the Space
repository's app.py, started as Spaces starts it, passes the Space's browser tests, opens no file of the clone
(traced with strace where the machine has it) and logs no traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import REPO_ROOT, free_port
from ..space.browser import INSTALLED_SELECTION
from .conftest import user_env
from .installed import COMMAND_TIMEOUT, assert_nothing_opened_in_the_clone, traced
from .processes import start, stop, wait_for_http


def test_swords_demo_from_the_installed_wheel_answers_http(installed, tmp_path):
    port = free_port()
    env = user_env(installed["venv"], GRADIO_TEMP_DIR=str(tmp_path / "uploads"))
    log = tmp_path / "demo.log"
    demo = start([str(installed["bin"] / "swords"), "demo", "--port", str(port)], installed["home"], env, log)
    try:  # it prints its address once it is up, and answers there
        wait_for_http(f"http://127.0.0.1:{port}/", demo, log, line=f"The demo is running at http://127.0.0.1:{port}/")
    finally:
        stop(demo)
    assert "Traceback" not in log.read_text(errors="replace")


def test_the_space_repository_runs_the_browser_tests(installed, space_repo, tmp_path):
    """`python app.py` in the Space repository, with the fresh environment's Python and the port in
    $GRADIO_SERVER_PORT (as Spaces passes it), driven by tests/space/test_space_e2e_browser.py's browser tests
    through $SWORDS_SPACE_URL. The app opens nothing in the clone, and its log holds no traceback."""
    chromium = os.environ.get("SWORDS_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).is_file() and not shutil.which(chromium):
        pytest.skip(f"no Chromium at {chromium}: apt-get install -y chromium (or set SWORDS_CHROMIUM)")
    pytest.importorskip("playwright.sync_api", reason="pip install playwright (no `playwright install`)")
    port = free_port()
    log, opened = tmp_path / "app.log", tmp_path / "opened.txt"
    env = user_env(installed["venv"], GRADIO_SERVER_PORT=str(port), GRADIO_TEMP_DIR=str(tmp_path / "uploads"))
    app = start(traced([str(installed["bin"] / "python"), "app.py"], opened), space_repo, env, log)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for_http(url, app, log)
        browser_tests = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-n",
                "0",  # in this process: one app, one browser, as a person uses them
                "-k",
                INSTALLED_SELECTION,
                str(REPO_ROOT / "tests" / "space" / "test_space_e2e_browser.py"),
            ],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
            env={**os.environ, "SWORDS_SPACE_URL": url, "SWORDS_SPACE_LOG": str(log)},
        )
    finally:
        stop(app)
    summary = browser_tests.stdout.strip().splitlines()[-1]
    assert browser_tests.returncode == 0, browser_tests.stdout[-5000:]
    assert " 5 passed" in f" {summary}" and "skipped" not in summary, summary
    assert "Traceback" not in log.read_text(errors="replace")
    assert_nothing_opened_in_the_clone(opened)
