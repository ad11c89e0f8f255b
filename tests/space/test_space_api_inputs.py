"""Every API endpoint of the Space, called through gradio_client against the app in its own process, answers
any JSON the API accepts, in every parameter and in all at once, with a result or a short message in the
UI's words; and the server's log holds no traceback afterwards. Payloads the client would not send (a path
on the server, a URL, NaN) go over plain HTTP."""

from __future__ import annotations

import json
import re

import pytest

from ..space_server import running_app
from .helpers import COINCO_ORACLE
from .test_space_faults import cli_flag

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
pytest.importorskip("gradio_client", reason="the API tests need gradio_client: pip install 'swords-lexsub[space]'")

NESTED = [[1, [2, [3, [4, []]]]], {"a": [{"b": None}]}]
HOSTILE = [None, "", 0, -1, 1e308, True, [], {}, NESTED, "x" * 100_000]
MAX_MESSAGE = 400
# What a message for the user must not contain: Python's exception and type names, a traceback, Gradio's
# generic "the app raised an exception".
PYTHON_TALK = re.compile(r"\w+(Error|Exception)\b|Traceback|<class |NoneType|has raised an exception|\.py\b")


def wrong_type(parameter: dict) -> object:
    """A value of the wrong JSON type for the parameter."""
    kind = parameter["type"].get("type")
    return {"string": 12345, "integer": "12", "number": "12", "boolean": "yes"}.get(kind, "predictions.json")


def problem(outcome: object) -> str | None:
    """What is wrong with an endpoint's answer (None: a result, or a good message)."""
    from gradio_client.exceptions import AppError

    if not isinstance(outcome, Exception):
        return None
    if not isinstance(outcome, AppError):
        return f"the client failed: {type(outcome).__name__}: {str(outcome)[:200]}"
    message = str(outcome)
    if len(message) >= MAX_MESSAGE:
        return f"a {len(message)}-character message: {message[:120]}..."
    if PYTHON_TALK.search(message) or cli_flag(message):
        return f"not in the UI's words: {message}"
    return None


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("space-api")) as running:
        yield running


def working_arguments(client, endpoint: str, parameters: list[dict]) -> list:
    """Arguments that succeed: the defaults the API lists, with an existing example and a stored file where
    the defaults give none (so that hostile values in the other parameters reach the handlers)."""
    arguments = [parameter.get("parameter_default") for parameter in parameters]
    names = [parameter["parameter_name"] for parameter in parameters]
    if endpoint == "/show_example":
        choices, _ = client.predict("swords test", "", "all", api_name="/search_examples")
        arguments[names.index("row_id")] = choices["choices"][0][1]
    if endpoint in ("/judge_start", "/judge_save"):  # this client's session judges: tasks from a stored run
        from gradio_client import handle_file

        start = {"run_upload": handle_file(str(COINCO_ORACLE)), "judge": "Ann"}
        if endpoint == "/judge_start":
            return [start.get(name, argument) for name, argument in zip(names, arguments, strict=True)]
        shown = client.predict(None, start["run_upload"], "swords test", 0, 0, None, "Ann", api_name="/judge_start")
        candidates = sum(1 for update in shown[2:14] if update["visible"])  # the first task's radio buttons
        return ["reject"] * candidates + [None] * (len(parameters) - candidates)
    if endpoint == "/score":
        stored = parameters[names.index("stored")]["type"]["enum"]
        arguments[names.index("stored")] = next(name for name in stored if ".swords.test." in name)
        arguments[names.index("bootstrap")] = 0
    return arguments


def hostile_calls(url: str, endpoints: dict, names: list[str]) -> tuple[list[str], int]:
    """(problems, calls) of the endpoints `names`, one after another in one client's session, each with its working
    arguments and then with every hostile value in each parameter and in all at once."""
    from gradio_client import Client

    client = Client(url, verbose=False)
    problems, calls = [], 0
    for endpoint in names:
        parameters = endpoints[endpoint]["parameters"]
        base = working_arguments(client, endpoint, parameters)
        client.predict(*base, api_name=endpoint)  # the working call works: hostile values change one thing
        cases = [
            (name, [*base[:i], value, *base[i + 1 :]])
            for i, parameter in enumerate(parameters)
            for name in [parameter["parameter_name"]]
            for value in [*HOSTILE, wrong_type(parameter)]
        ]
        cases += [("every parameter", [value] * len(parameters)) for value in HOSTILE]
        for where, arguments in cases:
            try:
                outcome = client.predict(*arguments, api_name=endpoint)
            except Exception as error:  # noqa: BLE001 (judged below)
                outcome = error
            calls += 1
            found = problem(outcome)
            if found:
                shown = [repr(a)[:30] for a in arguments]
                problems.append(f"{endpoint} {where} {shown}: {found}")
    return problems, calls


@pytest.mark.slow  # 36 s alone on two cores (52 s with one client at a time, its calls mostly waiting)
def test_every_endpoint_answers_hostile_json_with_a_result_or_a_short_message(app):
    from concurrent.futures import ThreadPoolExecutor

    from gradio_client import Client

    endpoints = Client(app["url"], verbose=False).view_api(return_format="dict", print_info=False)["named_endpoints"]
    assert {"/substitute", "/search_examples", "/show_example", "/score", "/leaderboard", "/judge_start"} <= set(
        endpoints
    )
    log_start = app["log"].stat().st_size
    # An endpoint's calls in order, in one session; the endpoints side by side, each in a session of its own, but
    # the judge's (judge_save saves into the session judge_start began).
    sessions: dict[str, list[str]] = {}
    for endpoint in endpoints:
        sessions.setdefault("/judge" if endpoint.startswith("/judge") else endpoint, []).append(endpoint)
    with ThreadPoolExecutor(max_workers=4) as pool:  # the queue holds 64 calls (space/app.py)
        answers = list(pool.map(lambda names: hostile_calls(app["url"], endpoints, names), sessions.values()))
    problems = [line for found, _ in answers for line in found]
    calls = sum(count for _, count in answers)
    log = app["log"].read_text(errors="replace")[log_start:]
    assert not problems, "\n".join(problems)
    assert calls > 200 and "Traceback" not in log, log[-3000:]


def _call(url: str, endpoint: str, body: str) -> tuple[str, str]:
    """(event, data) of one call through Gradio's plain HTTP API, with a raw JSON body."""
    import httpx

    base = f"{url}gradio_api/call/{endpoint}"
    posted = httpx.post(base, content=body, headers={"content-type": "application/json"}, timeout=30)
    event_id = posted.json()["event_id"]
    with httpx.stream("GET", f"{base}/{event_id}", timeout=60) as stream:
        text = "".join(stream.iter_text())
    event = re.search(r"^event: (\w+)", text, re.MULTILINE).group(1)
    data = re.search(r"^data: (.*)$", text, re.MULTILINE).group(1)
    return event, data


@pytest.mark.slow  # 29 s with the app's start on two cores (the quick lane, 2026-11-28)
def test_payloads_only_plain_http_can_send_are_short_messages(app):
    log_start = app["log"].stat().st_size

    def file(path: str) -> dict:
        return {"path": path, "meta": {"_type": "gradio.FileData"}}

    score = [None, None, "swords test", "generative", 0, "lenient", False, None, None, None]
    stored = [*score[:1], "coinco-oracle.swords.test.jsonl", *score[2:7]]  # a file to score; then the one to compare
    cases = [
        ("score", [file("/etc/passwd.json"), *score[1:]], "was not uploaded to this app"),
        (
            "score",
            [file("/etc/passwd"), *score[1:]],
            "must be a .json, .jsonl, .gz, .txt, .tsv, .csv file, not 'passwd'",
        ),
        ("score", [file("http://169.254.169.254/latest.json"), *score[1:]], "must be uploaded to this app, not a URL"),
        ("score", [{"path": "/tmp/x.json"}, *score[1:]], "must be an uploaded file"),
        ("score", [*score[:4], "NaN", *score[5:]], "Bootstrap resamples (95% intervals) must be a finite number"),
        ("substitute", ["The bright answer.", "bright", "Infinity", "auto", None, 10], "Occurrence must be a finite"),
        ("score", [*stored, file("/etc/passwd.json"), None, None], "was not uploaded to this app"),
        (
            "score",
            [*stored, file("/etc/shadow"), None, None],
            "The file to compare with must be a .json, .jsonl, .gz, .txt, .tsv, .csv",
        ),
        ("score", [*stored, file("http://169.254.169.254/x.json"), None, None], "compare with must be uploaded"),
        ("score", [*stored, None, "../../setup.cfg", None], "to compare with: '../../setup.cfg' is not one of the"),
        # Judgments files: a list of uploads, each checked as one.
        ("score", [*stored, None, None, [file("/etc/passwd.jsonl")]], "was not uploaded to this app"),
        ("score", [*stored, None, None, file("/tmp/x.jsonl")], "The judgments files must be a list of uploaded files"),
        ("score", [*stored, None, None, [file("http://169.254.169.254/j.jsonl")]], "must be uploaded to this app"),
        (
            "judge_start",
            [file("/etc/passwd.jsonl"), None, "swords test", 0, 0, None, "Ann"],
            "not uploaded to this app: upload it, then press Start",
        ),
        # Lone surrogates (JSON's "\ud800", which json.dumps writes for them): not text, named where they are.
        (
            "substitute",
            ["She gave a bright\ud800 answer.", "bright", 1, "auto", None, 10],
            "Context holds \\ud800 at character 18, a lone surrogate, which is not text",
        ),
        (
            "substitute",
            ["She gave a bright answer.", "bri\udfffght", 1, "auto", None, 10],
            "Target word holds \\udfff at character 4",
        ),
        ("search_examples", ["swords test", "\ud83d", "all"], "Target starts with holds \\ud83d at character 1"),
        ("show_example", ["swords test", "t:\ud800"], "Example holds \\ud800 at character 3"),
    ]
    for endpoint, arguments, expected in cases:
        body = json.dumps({"data": arguments}).replace('"NaN"', "NaN").replace('"Infinity"', "Infinity")
        event, data = _call(app["url"], endpoint, body)
        message = json.loads(data)["error"] if event == "error" else data
        assert event == "error" and expected in message and len(message) < MAX_MESSAGE, (endpoint, event, data)
        assert not PYTHON_TALK.search(message), message
    log = app["log"].read_text(errors="replace")[log_start:]
    assert "Traceback" not in log, log[-3000:]
