"""`swords docs`: the manual served from a clone on 127.0.0.1, and one line where its sources or MkDocs are
missing (as in an installed wheel, which ships neither)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from ..conftest import REPO_ROOT, free_port, run_swords


def test_the_root_help_names_the_manual_and_its_command():
    done = run_swords("--help")
    assert done.returncode == 0
    assert "docs " in done.stdout and "https://swords-lexsub.readthedocs.io/" in done.stdout
    assert "`swords docs` serves it" in " ".join(done.stdout.split())


def test_a_folder_without_the_manuals_sources_is_one_line(tmp_path):
    done = run_swords("docs", "--root", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"swords: error: {tmp_path} has no mkdocs.yml or docs: the manual's sources come with a clone, not with the "
        "installed package; run `swords docs` in a clone, or read https://swords-lexsub.readthedocs.io/"
    ]


def test_without_mkdocs_the_command_says_what_to_install(tmp_path):
    # mkdocs made unimportable (None in sys.modules: find_spec answers None, as for a package not installed).
    script = "import sys\nsys.modules['mkdocs'] = None\nfrom swords_lexsub.cli import main\nsys.exit(main(['docs']))"
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        'swords: error: the manual needs mkdocs, not installed; in the clone: pip install -e ".[docs]"'
    ]


@pytest.mark.slow  # builds the whole manual before it serves: 5 s on two cores
def test_the_manual_is_served_until_ctrl_c(tmp_path):
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "swords_lexsub.cli", "docs", "--port", str(port)],
        cwd=tmp_path,  # outside the clone: the clone swords runs from is found
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline, page = time.monotonic() + 240, ""
        while not page:
            assert process.poll() is None and time.monotonic() < deadline, "the manual was never served"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    page = response.read().decode()
            except OSError:
                time.sleep(0.5)
        assert "<title>swords-lexsub" in page and "Getting started" in page
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert (
        stderr.splitlines()[0] == f"the manual: http://127.0.0.1:{port}/ (built first, a few seconds; Ctrl-C stops it)"
    )
    assert stderr.strip().splitlines()[-1] == "swords: interrupted"
