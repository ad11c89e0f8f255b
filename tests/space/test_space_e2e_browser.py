"""The Space end to end in a browser, as a person uses it: headless Chromium (Debian's chromium package,
through Playwright's Python package; no browser download) against the app in its own process on 127.0.0.1
(or the app at $SWORDS_SPACE_URL: `-k test_browser` runs only the browser tests against it, as
tests/release/test_installed_space.py does with the installed wheel's Space); and `swords demo` as a user starts
it. Screenshots go to artifacts/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from swords_dataset.judgements import CLASSES

from ..space_server import free_port
from .browser import (
    ARTIFACTS,
    broken_across_lines,
    choose,
    short_lines,
    table_cell,
    toast_text,
    wait_for_upload,
)
from .helpers import COINCO_ORACLE

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
pytest.importorskip("gradio_client", reason="the API tests need gradio_client: pip install 'swords-lexsub[space]'")


def test_browser_substitute_then_score(page, example_row):
    ARTIFACTS.mkdir(exist_ok=True)
    # Type a context, choose the target from the context's words, choose a system, run.
    page.fill("#context textarea", example_row["context"])
    choose(page, "#word-pick", example_row["target"])
    page.wait_for_function(
        "target => document.querySelector('#target textarea, #target input').value === target",
        arg=example_row["target"],
    )
    choose(page, "#system", "coinco-oracle")
    page.click("#run")
    page.wait_for_function("() => document.querySelectorAll('#suggestions .swords-suggestion').length > 0")
    suggestions = page.locator("#suggestions .swords-suggestion").all_inner_texts()
    judgements = page.locator("#suggestions tr[data-judgement]").evaluate_all(
        "rows => rows.map(r => r.dataset.judgement)"
    )
    assert len(suggestions) == len(judgements) > 0
    assert set(judgements) <= set(CLASSES)
    assert "swords test" in page.inner_text("#substitute-status")
    assert example_row["target"] in page.inner_text("#context-view mark")
    page.wait_for_function("() => document.querySelector('#example-metrics').innerText.includes('lenient F@10')")
    page.screenshot(path=str(ARTIFACTS / "space.png"), full_page=True)

    # Upload a predictions file on the Score tab and read F@10.
    page.get_by_role("tab", name="Score").click()
    page.set_input_files("#score-file input[type=file]", str(COINCO_ORACLE))
    wait_for_upload(page, COINCO_ORACLE)
    page.click("#score")
    page.wait_for_function(
        "() => document.querySelector('#score-summary').innerText.includes('lenient F@10')", timeout=60_000
    )
    from swords_metric import Scorer, read_predictions

    expected = Scorer.from_dataset("swords", "test").score(read_predictions(COINCO_ORACLE)[0], by_pos=False)
    value = table_cell(page, "#score-metrics", "lenient F@10, acceptable", 2)
    assert value is not None and float(value) == pytest.approx(round(expected["lenient_a_f@10"], 2))
    page.screenshot(path=str(ARTIFACTS / "space-score.png"), full_page=True)


def test_browser_bad_inputs_show_messages(page, tmp_path):
    page.fill("#context textarea", "")
    page.click("#run")
    assert "Type or paste a context" in toast_text(page)

    page.get_by_role("tab", name="Score").click()
    wrong = tmp_path / "predictions.jsonl"
    wrong.write_text(json.dumps({"id": "t:nope", "substitutes": ["x"]}) + "\n")
    page.set_input_files("#score-file input[type=file]", str(wrong))
    wait_for_upload(page, wrong)
    page.click("#score")
    # One message below the Score button, which stays: no toast, and no output marked "Error".
    page.wait_for_function("() => document.querySelector('#score-status').innerText.includes('not in swords test')")
    page.wait_for_timeout(1000)
    assert page.inner_text("#score-status").startswith("Not scored. predictions.jsonl: ")
    toasts = page.locator(".toast-body").all_inner_texts()  # (the Substitute tab's own, above, may still show)
    assert not any("swords test" in toast for toast in toasts)
    for output in ("#score-summary", "#score-metrics", "#score-charts", "#score-published", "#score-worst"):
        assert "Error" not in page.inner_text(output), output  # no output marked as failed


def test_browser_leaderboard_and_explore(page):
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.get_by_role("tab", name="Leaderboard").click()
    page.wait_for_function(  # its hyphen non-breaking on the page (U+2011)
        "() => document.querySelector('#leaderboard')?.innerText.replaceAll('\\u2011', '-').includes('coinco-oracle')"
    )
    page.screenshot(path=str(ARTIFACTS / "space-leaderboard.png"), full_page=True)
    page.get_by_role("tab", name="Explore").click()
    page.fill("#explore-query textarea, #explore-query input", "brilliant")
    page.press("#explore-query textarea, #explore-query input", "Enter")
    page.wait_for_function("() => document.querySelector('#explore-context mark')?.innerText === 'brilliant'")
    page.screenshot(path=str(ARTIFACTS / "space-explore.png"), full_page=True)
    # Issue 50, at 1,280 px: the context flows (its source wrapped it: "…golden and striped⏎with jet black…"), and
    # each chip of the legend stays on one line.
    assert short_lines(page, "#explore-context .swords-context") == []
    assert page.locator("#explore-substitutes .swords-chip").count() == 4
    assert broken_across_lines(page, "#explore-substitutes .swords-chip") == []
    # On to the Substitute tab with that example: it is recognised, so the gold shows. The status line, at the top of
    # the results, says what to press (issue 50: nothing did).
    page.get_by_role("button", name="Try it in the Substitute tab").click()
    page.wait_for_function("() => document.querySelector('#target textarea, #target input').value === 'brilliant'")
    page.wait_for_function("() => document.querySelector('#substitute-status').innerText.includes('press')")
    assert page.inner_text("#substitute-status") == (
        "brilliant is filled in: press Suggest substitutes to see its substitutes."
    )
    assert 0 < page.locator("#substitute-status").bounding_box()["y"] < 1000  # in view, without scrolling
    choose(page, "#system", "coinco-oracle")
    page.click("#run")
    page.wait_for_function("() => document.querySelector('#substitute-status').innerText.includes('swords test')")
    # A TSAR-2022 benchmark: its first example with its annotator counts and its non-commercial license; its board.
    page.get_by_role("tab", name="Explore").click()
    page.fill("#explore-query textarea, #explore-query input", "")  # every example, not "brilliant"s
    choose(page, "#explore-split", "tsar2022_es test")
    page.wait_for_function(
        "() => document.querySelector('#explore-substitutes').innerText.includes('annotators')"
        " && document.querySelector('#explore-header').innerText.includes('tsar2022_es test')"
    )
    assert "CC-BY-NC-SA-4.0 (non-commercial" in page.inner_text("#explore-header")
    assert "no POS, no lemma" in page.inner_text("#explore-header")
    page.screenshot(path=str(ARTIFACTS / "space-explore-tsar.png"), full_page=True)
    page.get_by_role("tab", name="Leaderboard").click()
    choose(page, "#leaderboard-benchmark", "tsar2022_es test")
    page.wait_for_function("() => document.querySelector('#leaderboard').innerText.includes('Potential@10')")
    assert table_cell(page, "#leaderboard", "PresiUniv run 1", 1) == "0.3695"  # results/official, Spanish ACC@1


def test_browser_llm_with_a_session_key(page, llm_server):
    key = "sk-browser-session-0123456789"
    page.get_by_text("LLM settings (optional, your own key)").click()
    page.fill("#llm-base-url textarea, #llm-base-url input", llm_server.base_url)
    page.fill("#llm-model textarea, #llm-model input", "davinci-002")
    page.get_by_label("completions").check()
    page.fill("#api-key input", key)
    page.get_by_role("button", name="Use this key").click()
    page.wait_for_function("() => document.querySelector('#llm-status').innerText.includes('is set')")
    assert page.input_value("#api-key input") == ""  # the key left the page at once
    page.fill("#context textarea", "She gave a bright answer.")
    page.fill("#target textarea, #target input", "bright")
    choose(page, "#system", "llm")
    page.click("#run")
    page.wait_for_function("() => document.querySelectorAll('#suggestions .swords-suggestion').length > 0")
    assert "alternative" in page.locator("#suggestions .swords-suggestion").all_inner_texts()
    assert llm_server.authorization == {f"Bearer {key}"}
    assert key not in page.content()

    # The same session, now pointed at a port where nothing listens.
    page.fill("#llm-base-url textarea, #llm-base-url input", f"http://127.0.0.1:{free_port()}/v1")
    page.fill("#api-key input", key)
    page.get_by_role("button", name="Use this key").click()
    page.wait_for_function("() => document.querySelector('#api-key input').value === ''")
    page.click("#run")
    message = toast_text(page)
    assert "did not answer" in message and key not in message


def test_browser_shows_an_llms_lone_surrogate_and_override_escaped(page, llm_server):
    """A server's completion holding a lone surrogate (JSON's "\\ud800") and a right-to-left override: the client
    makes the surrogate U+FFFD before anything sees it (it is not text), and the suggestions, as HTML and as a
    table, show the override as its escape."""
    from ..llm_server import Fault

    llm_server.inject(Fault("length", text=" x\ud800y, a\u202eb, brilliant, cut"))  # "length": the last item goes
    page.get_by_text("LLM settings (optional, your own key)").click()
    page.fill("#llm-base-url textarea, #llm-base-url input", llm_server.base_url)
    page.fill("#llm-model textarea, #llm-model input", "davinci-002")
    page.get_by_label("completions").check()
    page.fill("#api-key input", "sk-browser-session-surrogate")
    page.get_by_role("button", name="Use this key").click()
    page.wait_for_function("() => document.querySelector('#llm-status').innerText.includes('is set')")
    page.fill("#context textarea", "She gave a bright answer.")
    page.fill("#target textarea, #target input", "bright")
    choose(page, "#system", "llm")
    page.click("#run")
    page.wait_for_function("() => document.querySelectorAll('#suggestions .swords-suggestion').length > 0")
    assert page.locator("#suggestions .swords-suggestion").all_inner_texts() == ["x\ufffdy", "a\\u202eb", "brilliant"]
    page.get_by_text("As a table").click()
    table = page.locator("#suggestions-table").inner_text()
    assert "x\ufffdy" in table and "a\\u202eb" in table and "\u202e" not in table


@pytest.mark.slow  # 6 s on two cores
def test_swords_demo_prints_its_url_and_names_the_port_option_when_taken(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "GRADIO_TEMP_DIR": str(tmp_path / "uploads"),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
        "PYTHONUNBUFFERED": "1",
    }
    demo = subprocess.Popen(
        [sys.executable, "-m", "swords_lexsub.cli", "demo", "--port", str(port)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 90
        line = ""
        while time.monotonic() < deadline and "running at" not in line:
            line = demo.stdout.readline()
        assert f"The demo is running at http://127.0.0.1:{port}/" in line
        taken = subprocess.run(
            [sys.executable, "-m", "swords_lexsub.cli", "demo", "--port", str(port)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert taken.returncode == 2 and "Traceback" not in taken.stderr
        assert taken.stderr.strip().splitlines()[-1] == (
            f"swords: error: port {port} is in use; choose another with --port N"
        )
    finally:
        demo.terminate()
        demo.wait(30)


@pytest.mark.browser  # the log of the app the browser tests drove
def test_server_log_has_no_traceback(server):
    if server["log"] is None:
        pytest.skip(f"the app at {server['url']} has no log here")
    log = server["log"].read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
