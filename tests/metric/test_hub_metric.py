"""The exported metric repository (`swords hub export DIR`, DIR/metric) as the Hub runs it: the module file through
`evaluate.load` gives exactly what `swords evaluate` gives, it refuses a missing or other release in one line,
and its Gradio widget starts and scores, started as `python app.py` on 127.0.0.1: a request over 16 MB refused
before it is read, a large paste beside small ones, bad API input in one line."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

import swords_dataset
from swords_lexsub.hub.repos import Release
from swords_metric import read_predictions
from swords_metric.hub_repo import METRIC_REPO

from ..conftest import REPO_ROOT, run_swords
from ..space_server import free_port, peak_memory_mb, stop_process, wait_until_up

ORACLE = REPO_ROOT / "space" / "results" / "coinco-oracle.swords.test.jsonl"  # a real system's recorded output


@pytest.fixture(scope="module")
def evaluate():
    """Hugging Face's `evaluate`, imported by the tests that call it (it imports transformers and torch: seconds a
    pytest worker would otherwise spend collecting)."""
    import evaluate

    return evaluate


@pytest.fixture(scope="module")
def cli_result() -> dict:
    result = run_swords(
        "evaluate", "--dataset", "swords", "--split", "test", "--predictions", str(ORACLE), "--json", "--bootstrap", "0"
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_evaluate_load_of_the_exported_module_gives_what_swords_evaluate_gives(
    evaluate, hub_export, cli_result, tmp_path
):
    metric = evaluate.load(str(hub_export / "metric" / "swords_metric.py"), cache_dir=str(tmp_path))
    predictions, _ = read_predictions(ORACLE)
    result = metric.compute(predictions=predictions, references=swords_dataset.load("swords", split="test"))
    # Every metric, count, note, the signature and the id scheme the file's keys are of (upstream).
    assert result == {name: value for name, value in cli_result.items() if name != "analysis"}
    assert result["id_scheme"] == "upstream"
    assert round(result["lenient_a_f@10"], 2) == 33.88  # the CoInCo-oracle row, as swords evaluate prints it


def test_another_release_is_refused_with_the_install_line(evaluate, tmp_path):
    folder = tmp_path / "swords_metric"
    folder.mkdir()
    METRIC_REPO.write(folder, Release("9.9.9"))
    assert (folder / "requirements.txt").read_text() == "swords-lexsub==9.9.9\n"
    with pytest.raises(ImportError) as error:
        evaluate.load(str(folder / "swords_metric.py"), cache_dir=str(tmp_path / "cache"))
    assert str(error.value) == (
        f"this SWORDS metric is swords-lexsub 9.9.9's, and {swords_dataset.__version__} is "
        "installed: pip install swords-lexsub==9.9.9"
    )


@pytest.mark.slow  # 8 s on two cores
def test_without_the_package_evaluate_load_says_what_to_install(hub_export, tmp_path):
    """As on a machine without swords-lexsub: every swords_* import fails."""
    script = (
        "import sys\n"
        "class NoSwords:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0].startswith('swords'):\n"
        "            raise ImportError(f'No module named {name!r}')\n"
        "sys.meta_path.insert(0, NoSwords())\n"
        "import evaluate\n"
        "try:\n"
        "    evaluate.load(sys.argv[1])\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(hub_export / "metric" / "swords_metric.py")],
        cwd=tmp_path,
        env={**os.environ, "HF_HOME": str(tmp_path / "hf")},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines() == [
        f"the SWORDS metric needs its package: pip install swords-lexsub=={swords_dataset.__version__} "
        "(No module named 'swords_metric')"
    ]


@pytest.fixture(scope="module")
def widget(hub_export, tmp_path_factory) -> dict:
    """`python app.py` in the repository's folder, as a Space runs it, on 127.0.0.1: its URL, port and pid."""
    folder = tmp_path_factory.mktemp("widget")
    port = free_port()
    env = {
        **os.environ,
        "GRADIO_SERVER_NAME": "127.0.0.1",
        "GRADIO_SERVER_PORT": str(port),
        "HF_HOME": str(folder),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
        "GRADIO_TEMP_DIR": str(folder / "gradio"),
    }
    log_path = folder / "app.log"
    with open(log_path, "wb") as log:
        app = subprocess.Popen(
            [sys.executable, "app.py"], cwd=hub_export / "metric", env=env, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        url = f"http://127.0.0.1:{port}/"
        try:
            wait_until_up(url, app, timeout=120)
        except (RuntimeError, TimeoutError):
            raise AssertionError(Path(log_path).read_text(errors="replace")[-3000:]) from None
        yield {"url": url, "port": port, "pid": app.pid, "log": log_path}
    finally:
        stop_process(app)


@pytest.mark.slow  # 13 s on two cores
def test_the_widget_starts_beside_its_module_and_scores_as_swords_evaluate(widget, cli_result):
    """The module file beside app.py shares the package's name, so this also proves the package, not that file, is
    what gets imported."""
    from gradio_client import Client

    client = Client(widget["url"], verbose=False)
    headline, everything = client.predict(ORACLE.read_text(), "swords / test", api_name="/score")
    assert headline["lenient_a_f@10"] == cli_result["lenient_a_f@10"]
    assert headline["signature"] == cli_result["signature"]
    assert {name: everything[name] for name in ("gap", "strict_c_f@10", "best_p", "oot_mode_r")} == {
        name: cli_result[name] for name in ("gap", "strict_c_f@10", "best_p", "oot_mode_r")
    }
    with pytest.raises(Exception) as refused:
        client.predict('{"id": "t:nope", "substitutes": ["a"]}', "swords / test", api_name="/score")
    assert "t:nope" in str(refused.value)


def score_call(widget: dict, text: object, benchmark: object, timeout: float = 120) -> tuple[str, object]:
    """The widget's /score through Gradio's HTTP API, as any client can send it: ("complete", outputs) or ("error",
    the message a visitor sees)."""
    body = json.dumps({"data": [text, benchmark]}).encode()
    request = urllib.request.Request(
        widget["url"] + "gradio_api/call/score", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        event = json.loads(response.read())["event_id"]
    with urllib.request.urlopen(widget["url"] + f"gradio_api/call/score/{event}", timeout=timeout) as response:
        stream = response.read().decode()
    kind = next(
        line.split(": ", 1)[1]
        for line in stream.splitlines()
        if line.startswith("event: ") and not line.endswith("heartbeat")
    )
    data = json.loads([line for line in stream.splitlines() if line.startswith("data: ")][-1][len("data: ") :])
    return kind, data["error"] if kind == "error" else data


@pytest.mark.slow  # the widget started first (gradio): 33 s on two busy cores
def test_a_null_benchmark_or_a_lone_surrogate_is_one_clear_error(widget):
    """Both answered {"error": null} (an AttributeError, a UnicodeEncodeError in the server's log)."""
    assert score_call(widget, ORACLE.read_text(), None) == (
        "error",
        "benchmark / split: none given; choose one of the list ('swords / dev', …)",
    )
    line = '{"id": "t:a", "substitutes": ["ok"]}\n{"id": "t:b\ud800", "substitutes": ["a"]}'
    assert score_call(widget, line, "swords / test") == (
        "error",
        "predictions:2: \\ud800 at column 12 is a lone surrogate, which is not text",
    )


def raw_answer(port: int, request: bytes, timeout: float = 30) -> tuple[float, int, dict]:
    """Seconds until the server answered `request` on a fresh connection, the status and the JSON body."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return time.monotonic() - started, int(head.split()[1]), json.loads(body)


@pytest.mark.slow  # the widget (module fixture)
def test_an_oversized_request_is_refused_before_it_is_read(widget):
    """A request announcing 400 MB (the widget read it all: 3.4 GB at its peak), and one streamed without a length
    past 16 MB: each refused (413, one line) as soon as its headers or its 16 MB are in, the server's memory
    unchanged."""
    peak_before = peak_memory_mb(widget["pid"])
    head = (
        b"POST /gradio_api/queue/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % (400 * 2**20)
    )
    seconds, status, body = raw_answer(widget["port"], head)  # the headers alone: the body is never needed
    assert status == 413 and seconds < 5
    assert body["detail"] == (
        "request of 400 MB: more than the 16 MB this widget accepts; score larger predictions "
        "with `swords evaluate` (pip install swords-lexsub)"
    )
    block = b"x" * 2**20
    streamed = (
        b"POST /gradio_api/queue/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + b"".join(b"100000\r\n%s\r\n" % block for _ in range(16)) + b"1\r\nx\r\n"
    )  # one byte past 16 MB, and no end: the server must not wait for one
    seconds, status, body = raw_answer(widget["port"], streamed)
    assert status == 413 and seconds < 10
    assert body["detail"].startswith("request over 16 MB: more than the 16 MB this widget accepts")
    assert peak_memory_mb(widget["pid"]) - peak_before < 50


def paste(config: str, split: str, substitutes: int, seed: int = 0) -> str:
    """A run on a split, `substitutes` scored substitutes a target (words of its gold), as JSONL."""
    rows = swords_dataset.rows(config, split, columns=["id", "substitutes"])
    words = sorted({s["substitute"] for row in rows[:300] for s in row["substitutes"]})
    rng = random.Random(seed)
    return "".join(
        json.dumps(
            {
                "id": row["id"],
                "substitutes": [[word, round(rng.random(), 4)] for word in rng.sample(words, substitutes)],
            }
        )
        + "\n"
        for row in rows
    )


@pytest.mark.slow
def test_a_large_paste_does_not_hold_up_a_small_one(widget, cli_result):
    """7 MB of CoInCo dev takes the widget about 6 s; the oracle's SWORDS test run sent a second later used to
    wait for it (one score at a time), and is now answered beside it, with its own figures (the metric instance
    is not shared: two computes on one had mixed their stores)."""
    large = paste("coinco", "dev", 30)
    assert 6 * 2**20 < len(large) < 8 * 2**20
    done: dict[str, float] = {}
    answers: dict[str, tuple] = {}
    started = time.monotonic()

    def score_large():
        answers["large"] = score_call(widget, large, "coinco / dev")
        done["large"] = time.monotonic() - started

    thread = threading.Thread(target=score_large)
    thread.start()
    time.sleep(1)
    kind, (headline, _) = score_call(widget, ORACLE.read_text(), "swords / test")
    done["small"] = time.monotonic() - started
    thread.join(120)
    assert kind == "complete" and headline["lenient_a_f@10"] == cli_result["lenient_a_f@10"]
    assert answers["large"][0] == "complete", answers["large"]
    assert answers["large"][1][0]["targets_scored"] > 10_000
    assert done["small"] < done["large"], done  # answered while the large one was still being scored


@pytest.mark.slow
def test_a_third_large_paste_at_once_is_refused_at_once(widget):
    """Two large pastes are scored at once and a third is told so, which leaves two of the four slots to small
    ones whatever is pasted."""
    pastes = [paste("swords", "test", 120, seed) for seed in range(3)]
    assert all(len(text) > 2**20 for text in pastes)  # "large": over a million characters
    answers: list[tuple] = []
    threads = [
        threading.Thread(target=lambda text=text: answers.append(score_call(widget, text, "swords / test")))
        for text in pastes
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    kinds = sorted(kind for kind, _ in answers)
    assert kinds == ["complete", "complete", "error"], answers
    assert next(data for kind, data in answers if kind == "error") == (
        "2 other large pastes are being scored; try again in a minute (or score it with `swords evaluate`)"
    )
