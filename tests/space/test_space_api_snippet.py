"""The manual's API snippet (the demo page's gradio_client block), as written, against the Space's app in its own
process on 127.0.0.1 (as `python space/app.py` starts it), its URL in place of the default port's."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ..doc_blocks import DOCS, blocks
from ..space_server import REPO_ROOT

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
pytest.importorskip("gradio_client", reason="the API tests need gradio_client: pip install 'swords-lexsub[space]'")


@pytest.mark.slow  # 32 s with the app's start on two cores (the quick lane, 2026-11-28)
def test_the_manuals_api_snippet_runs_against_the_app(server):
    """The demo page's gradio_client snippet, as written, against the running app (its URL in place of the
    default port's)."""
    python = [
        block for block in blocks(DOCS / "demo.md") if block.language == "python" and "gradio_client" in block.code
    ]
    assert python, "the demo page lost its API example"
    for block in python:
        code = block.code.replace("http://127.0.0.1:7860/", server["url"])
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "HF_HUB_OFFLINE": "1"},
        )
        assert done.returncode == 0, f"{block.where}:\n{done.stderr[-3000:]}"
        assert "762 targets" in done.stdout and "swords-metric:" in done.stdout, done.stdout
