"""The Space end to end: the app in its own process on 127.0.0.1, driven through its API with gradio_client
and as a person would, in headless Chromium (Debian's chromium package, through Playwright's Python package;
no browser download). Screenshots go to artifacts/."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from swords_dataset.judgements import CLASSES

from ..readme_blocks import blocks
from ..space_server import REPO_ROOT, free_port, running_app

COINCO_ORACLE = REPO_ROOT / "space" / "results" / "coinco-oracle.swords.test.jsonl"
ARTIFACTS = REPO_ROOT / "artifacts"
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

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
pytest.importorskip("gradio_client", reason="the API tests need gradio_client: pip install 'swords-lexsub[space]'")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app as `python space/app.py` starts it (the way a Hugging Face Space runs it)."""
    with running_app(tmp_path_factory.mktemp("space")) as app:
        yield app


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
def client(server):
    from gradio_client import Client

    return Client(server["url"], verbose=False)


# -- the API ----------------------------------------------------------------------------------------------


def test_api_substitute_on_a_benchmark_example(client, example_row):
    status, context_html, suggestions_html, table, metrics = client.predict(
        example_row["context"], example_row["target"], 1, "auto", "coinco-oracle", 10, api_name="/substitute"
    )
    assert "coinco-oracle" in status and "swords test" in status
    assert table["headers"] == ["rank", "substitute", "score", "gold score", "judgement"]
    assert table["data"] and all(row[4] in set(CLASSES)
                                 for row in table["data"])
    assert [row[0] for row in metrics["data"]][:2] == ["lenient F@10, acceptable", "lenient F@10, conceivable"]
    assert "<mark" in context_html and "swords-suggestion" in suggestions_html


def test_api_errors_are_messages(client):
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError, match="Type or paste a context"):
        client.predict("", "bright", 1, "auto", "coinco-oracle", 10, api_name="/substitute")
    with pytest.raises(AppError, match="does not occur"):
        client.predict("A dark day.", "bright", 1, "auto", "coinco-oracle", 10, api_name="/substitute")
    with pytest.raises(AppError, match="the limit is 2,000"):
        client.predict("word " * 1_000_000, "word", 1, "auto", "coinco-oracle", 10, api_name="/substitute")


def test_api_concurrent_sessions_get_their_own_answers(server, example_row):
    from gradio_client import Client

    targets = {"first": ("She gave a bright answer.", "bright"), "second": (example_row["context"],
                                                                           example_row["target"])}
    answers = {}

    def ask(name: str) -> None:
        context, target = targets[name]
        answers[name] = Client(server["url"], verbose=False).predict(
            context, target, 1, "auto", "coinco-oracle", 10, api_name="/substitute"
        )

    threads = [threading.Thread(target=ask, args=(name,)) for name in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert "“bright”" in answers["first"][0] and "free text" in answers["first"][0]
    assert f"“{example_row['target']}”" in answers["second"][0] and "swords test" in answers["second"][0]


def test_api_score_an_upload_and_bad_files(client, tmp_path):
    from gradio_client import handle_file
    from gradio_client.exceptions import AppError

    from swords_metric import Scorer, read_predictions

    summary, metrics, by_pos, curve, published, signature = client.predict(
        handle_file(str(COINCO_ORACLE)), None, "swords test", "generative", 100, "lenient", api_name="/score"
    )
    expected = Scorer.from_dataset("swords", "test").score(read_predictions(COINCO_ORACLE)[0], by_pos=False)
    cells = {row[1]: row for row in metrics["data"]}
    assert cells["lenient_a_f@10"][2] == round(expected["lenient_a_f@10"], 2)
    assert cells["lenient_a_f@10"][3].startswith("[")
    assert "bootstrap:100" in signature and "762 targets" in summary
    assert {row[0] for row in by_pos["data"]} == {"NOUN", "VERB", "ADJ", "ADV"}
    assert "CoInCo (oracle)" in {row[0] for row in published["data"]}

    latin = tmp_path / "latin1.jsonl"
    latin.write_bytes('{"id": "t:1", "substitutes": ["caf\u00e9"]}\n'.encode("latin-1"))
    with pytest.raises(AppError, match=":1: not UTF-8 text"):
        client.predict(handle_file(str(latin)), None, "swords test", "generative", 0, "lenient", api_name="/score")
    with pytest.raises(AppError, match="not in coinco test"):
        client.predict(handle_file(str(COINCO_ORACLE)), None, "coinco test", "generative", 0, "lenient",
                       api_name="/score")


def test_api_explore_and_leaderboard(client):
    choices, message = client.predict("swords test", "bri", "all", api_name="/search_examples")
    assert "targets starting with “bri”" in message
    header, context, substitutes = client.predict("swords test", "t:4776ee5650122a96f88bab17d64eb8f5d48addfc",
                                                  api_name="/show_example")
    assert "bridge" in header and "<mark" in context
    board, note = client.predict(api_name="/leaderboard")
    systems = {row[0] for row in board["data"]}
    assert {"coinco-oracle", "thesaurus-oracle", "humans", "CoInCo (oracle)"} <= systems


def test_api_stays_responsive_during_long_scoring(server, tmp_path):
    """A long job of one session (CoInCo dev, 10,179 targets, 2,000 resamples) does not hold up another's."""
    import pyarrow.parquet as pq
    from gradio_client import Client, handle_file

    import swords_dataset

    rows = pq.read_table(swords_dataset.DATASET_DIR / swords_dataset.parquet_path("coinco", "dev")).to_pylist()
    predictions = tmp_path / "coinco-dev.jsonl"
    predictions.write_text("".join(json.dumps({"id": row["id"], "substitutes": [s["substitute"] for s in
                                                                              row["substitutes"]]}) + "\n"
                                   for row in rows))
    long_job = Client(server["url"], verbose=False).submit(
        handle_file(str(predictions)), None, "coinco dev", "generative", 2000, "lenient", api_name="/score"
    )
    time.sleep(0.5)
    other = Client(server["url"], verbose=False)
    started = time.perf_counter()
    _, message = other.predict("swords test", "bri", "all", api_name="/search_examples")
    quick = time.perf_counter() - started
    assert "targets starting with" in message
    assert not long_job.done() and quick < 2.5, quick
    summary = long_job.result(timeout=120)[0]
    assert "10,027 targets" in summary and "152 problematic targets are left out" in summary


# -- in a browser -------------------------------------------------------------------------------------------


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


def choose(page, dropdown: str, option: str) -> None:
    """Pick an option of a Gradio dropdown the way a person does: open it, type, click."""
    page.click(f"{dropdown} input")
    page.fill(f"{dropdown} input", option)
    page.get_by_role("option", name=option, exact=True).first.click()


def toast_text(page) -> str:
    page.wait_for_selector(".toast-body", timeout=30_000)
    return page.inner_text(".toast-body")


def wait_for_upload(page, path: Path) -> None:
    """Until the file component lists the uploaded file (name and extension are separate elements)."""
    page.wait_for_function(
        "stem => document.querySelector('#score-file').innerText.includes(stem)", arg=path.name.split(".")[0]
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
    page.wait_for_function(
        "() => [...document.querySelectorAll('.toast-body')].some(t => t.innerText.includes('not in swords test'))"
    )


def test_browser_leaderboard_and_explore(page):
    ARTIFACTS.mkdir(exist_ok=True)
    page.get_by_role("tab", name="Leaderboard").click()
    page.wait_for_function("() => document.querySelector('#leaderboard').innerText.includes('coinco-oracle')")
    page.screenshot(path=str(ARTIFACTS / "space-leaderboard.png"), full_page=True)
    page.get_by_role("tab", name="Explore").click()
    page.fill("#explore-query textarea, #explore-query input", "brilliant")
    page.press("#explore-query textarea, #explore-query input", "Enter")
    page.wait_for_function("() => document.querySelector('#explore-context mark')?.innerText === 'brilliant'")
    page.screenshot(path=str(ARTIFACTS / "space-explore.png"), full_page=True)
    # On to the Substitute tab with that example: it is recognised, so the gold shows.
    page.get_by_role("button", name="Try it in the Substitute tab").click()
    page.wait_for_function("() => document.querySelector('#target textarea, #target input').value === 'brilliant'")
    choose(page, "#system", "coinco-oracle")
    page.click("#run")
    page.wait_for_function("() => document.querySelector('#substitute-status').innerText.includes('swords test')")


@pytest.fixture
def llm_server():
    pytest.importorskip("openai")
    from tests.llm_server import LLMServer

    with LLMServer() as server:
        yield server


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


def test_api_default_system_on_free_text(client):
    """The default offline system (loaded in the background at start) answers a typed sentence."""
    api = client.view_api(print_info=False, return_format="dict")["named_endpoints"]["/substitute"]
    default = api["parameters"][4]["parameter_default"]
    status, _, html, table, metrics = client.predict(
        "The committee met on Tuesday. She gave a bright answer that surprised everyone. They went home.",
        "bright", 1, "auto", default, 10, api_name="/substitute",
    )
    assert f"**{default}**" in status and "free text" in status and metrics["data"] == []
    if default in ("wordnet+embedding", "wordnet"):
        assert "brilliant" in [row[1] for row in table["data"]]


def test_server_log_has_no_traceback(server):
    log = server["log"].read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]


def test_swords_demo_prints_its_url_and_names_the_port_option_when_taken(tmp_path):
    port = free_port()
    env = {**os.environ, "GRADIO_TEMP_DIR": str(tmp_path / "uploads"), "GRADIO_ANALYTICS_ENABLED": "False",
           "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    demo = subprocess.Popen([sys.executable, "-m", "swords_dataset.cli", "demo", "--port", str(port)], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        deadline = time.monotonic() + 90
        line = ""
        while time.monotonic() < deadline and "running at" not in line:
            line = demo.stdout.readline()
        assert f"The demo is running at http://127.0.0.1:{port}/" in line
        taken = subprocess.run([sys.executable, "-m", "swords_dataset.cli", "demo", "--port", str(port)],
                               cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
        assert taken.returncode == 2 and "Traceback" not in taken.stderr
        assert taken.stderr.strip().splitlines()[-1] == (
            f"swords: error: port {port} is in use; choose another with --port N")
    finally:
        demo.terminate()
        demo.wait(30)


def test_tables_show_their_headers_before_any_query(client):
    config = client.config
    headers = {component["props"].get("elem_id"): (component["props"].get("value") or {}).get("headers")
               for component in config["components"] if component.get("type") == "dataframe"}
    assert headers["example-metrics"] == ["metric", "value"]
    assert headers["score-metrics"] == ["metric", "key", "value", "95% interval"]
    assert all(h and "1" not in h for h in headers.values()), headers


def test_space_readme_api_snippet_runs_against_the_app(server):
    """The Space card's gradio_client snippet, as written, against the running app (its URL in place of the
    default port's)."""
    python = [block for block in blocks(REPO_ROOT / "space" / "README.md") if block.language == "python"]
    assert python, "the Space card lost its API example"
    for block in python:
        code = block.code.replace("http://127.0.0.1:7860/", server["url"])
        done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True,
                              timeout=300, env={**os.environ, "HF_HUB_OFFLINE": "1"})
        assert done.returncode == 0, f"space/README.md block at line {block.line}:\n{done.stderr[-3000:]}"
        assert "762 targets" in done.stdout and "swords-metric:" in done.stdout, done.stdout
