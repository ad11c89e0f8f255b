"""The Space under hostile and careless use: decompression bombs from three users at once, a legitimate large
upload beside them, an LLM base URL that never answers, systems that cannot run here, and input only the
API can send. The app runs in its own process (its peak memory is read from /proc); servers on 127.0.0.1."""

from __future__ import annotations

import gzip
import json
import random
import re
import threading
import time

import pytest

import swords_dataset

from ..llm_server import LLMServer
from ..space_server import peak_memory_mb, running_app

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
pytest.importorskip("gradio_client", reason="the API tests need gradio_client: pip install 'swords-lexsub[space]'")

PEAK_LIMIT_MB = 1500
# A command-line option of ours (--model, --dataset ...) means nothing in the browser; a pip install line for
# whoever hosts the Space may carry pip's own options.
_PIP_COMMAND = re.compile(r"pip install[^();]*")
_FLAG = re.compile(r"(?<![\w-])--[a-z]")


def cli_flag(message: str) -> re.Match | None:
    """A command-line option of ours in `message` (pip's own options in a pip install line do not count)."""
    return _FLAG.search(_PIP_COMMAND.sub("", message))


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("space-faults")) as running:
        yield running


def bomb(path, expanded_mb: int = 190) -> None:
    """A valid-looking upstream result file whose one substitute is `expanded_mb` MB of 'a': ~200 kB gzipped."""
    tid = swords_dataset.rows("swords", "test", columns=["id"])[0]["id"]
    with gzip.open(path, "wb", compresslevel=9) as f:
        f.write(b'{"substitutes_lemmatized": false, "substitutes": {"' + tid.encode() + b'": [["')
        block = b"a" * 2**20
        for _ in range(expanded_mb):
            f.write(block)
        f.write(b'", 1.0]]}}')


def large_upload(path, substitutes: int = 100, seed: int = 0, precise_scores: bool = False) -> int:
    """A legitimate large predictions file: `substitutes` substitutes for every CoInCo test target (about
    10 MB; with full-precision random scores instead of ranks, 17.5 MB, and 19 MB with 110 substitutes)."""
    rows = swords_dataset.rows("coinco", "test", columns=["id", "candidates"])
    words = [c for row in rows[:500] for c in row["candidates"]]
    rng = random.Random(seed)
    with open(path, "w") as f:
        for row in rows:
            chosen = rng.sample(words, substitutes)
            items = [[w, rng.random() if precise_scores else -i] for i, w in enumerate(chosen)]
            f.write(json.dumps({"id": row["id"], "substitutes": items}) + "\n")
    return path.stat().st_size


@pytest.mark.slow  # 22 s on two cores
def test_three_bombs_at_once_are_refused_quickly_within_bounded_memory(app, tmp_path):
    from gradio_client import Client, handle_file
    from gradio_client.exceptions import AppError

    bombs = [tmp_path / f"bomb{i}.json.gz" for i in range(3)]
    for path in bombs:
        bomb(path)
    assert all(path.stat().st_size < 400_000 for path in bombs)
    legit = tmp_path / "coinco-test-100.jsonl"
    assert large_upload(legit) > 8 * 2**20
    idle = peak_memory_mb(app["pid"])
    outcomes: dict[str, tuple[float, str]] = {}

    def score(name, path, split):
        started = time.monotonic()
        try:
            result = Client(app["url"], verbose=False).predict(
                handle_file(str(path)), None, split, "generative", 1000, "lenient", False, api_name="/score"
            )
            message = result[0]
        except AppError as error:
            message = str(error)
        outcomes[name] = (time.monotonic() - started, message)

    threads = [threading.Thread(target=score, args=(f"bomb{i}", path, "swords test")) for i, path in enumerate(bombs)]
    threads.append(threading.Thread(target=score, args=("legit", legit, "coinco test")))
    for thread in threads:
        thread.start()
    # Meanwhile another user browses: answered promptly throughout.
    other = Client(app["url"], verbose=False)
    waits = []
    while any(thread.is_alive() for thread in threads) and len(waits) < 200:
        started = time.monotonic()
        _, message = other.predict("coinco test", "bri", "all", api_name="/search_examples")
        waits.append(time.monotonic() - started)
        assert "targets starting with" in message
    for thread in threads:
        thread.join(120)
    peak = peak_memory_mb(app["pid"])
    for i in range(3):
        seconds, message = outcomes[f"bomb{i}"]
        assert "expands past 32 MB" in message and seconds < 30, (seconds, message)
    seconds, message = outcomes["legit"]
    assert "Scored **coinco-test-100.jsonl** on **coinco test**" in message and seconds < 60, (seconds, message)
    assert waits and max(waits) < 5, waits
    assert peak < PEAK_LIMIT_MB, (idle, peak)
    print(
        f"space: idle peak {idle:.0f} MB, peak under 3 bombs + a {legit.stat().st_size / 2**20:.0f} MB upload "
        f"{peak:.0f} MB; bombs refused in {max(outcomes[f'bomb{i}'][0] for i in range(3)):.1f} s; "
        f"slowest search meanwhile {max(waits):.2f} s"
    )


def test_api_only_input_gets_a_clear_short_message(app):
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    client = Client(app["url"], verbose=False)
    cases = [
        (("The bright answer.", "bright", "abc", "auto", "wordnet", 10), "/substitute", "Occurrence must be a number"),
        (("The bright answer.", "bright", 1, "auto", "wordnet", "many"), "/substitute", "must be a number"),
        (("swords test", "x" * 5_000_000), "/show_example", "No example 'xxx"),
        (("z" * 5_000_000, "t:1"), "/show_example", "is not one of the choices"),
        (("The bright answer.", "bright", 1, "auto", "q" * 100_000, 10), "/substitute", "not one of the choices"),
    ]
    for args, api, expected in cases:
        with pytest.raises(AppError) as error:
            client.predict(*args, api_name=api)
        message = str(error.value)
        assert expected in message and len(message) < 400 and not cli_flag(message), message


def test_systems_that_cannot_run_are_not_offered(app):
    from gradio_client import Client

    api = Client(app["url"], verbose=False).view_api(return_format="dict", print_info=False)
    systems = next(p for p in api["named_endpoints"]["/substitute"]["parameters"] if p["parameter_name"] == "system")
    offered = systems["type"]["enum"]
    assert "bert-k" not in offered and "bert-m" not in offered  # no BERT on this machine, HF_HUB_OFFLINE=1
    assert "wordnet+embedding" in offered
    from swords_space.offered_systems import system_notes

    note = " ".join(system_notes())
    assert note and "bert-k (model 'bert-base-uncased' is not on this machine" in note and not cli_flag(note)


@pytest.mark.slow  # 4 s on two cores
def test_a_hanging_llm_is_bounded_and_holds_up_no_one(monkeypatch):
    """A session's LLM behind a URL that never answers fails within the Space's bound, naming the host (not
    the URL's credentials), while another session's request is answered at once."""
    from swords_space import systems
    from swords_space.tabs.substitute import substitute
    from swords_space.tabs.substitute_llm import llm_settings

    monkeypatch.setitem(systems.SESSION_LLM_OPTIONS, "timeout", 3.0)
    context = "The committee met on Tuesday. She gave a bright answer that surprised everyone in the room."
    substitute(context, "bright", 1, "auto", "wordnet", 10)  # warm
    with LLMServer(mode="stall") as server:
        url = server.base_url.replace("http://", "http://user:PASSWORD3@")
        settings = llm_settings(url, "gpt-4o-mini", "chat", "sk-space-" + "k" * 24)
        failure: dict = {}

        def ask_llm():
            started = time.monotonic()
            try:
                substitute(context, "bright", 1, "auto", "llm", 10, llm=settings)
            except Exception as error:  # noqa: BLE001 (the test inspects it)
                failure["error"] = error
            failure["seconds"] = time.monotonic() - started

        thread = threading.Thread(target=ask_llm)
        thread.start()
        time.sleep(0.5)
        started = time.monotonic()
        quick = substitute(context, "bright", 1, "auto", "wordnet", 10)
        assert time.monotonic() - started < 2 and quick.suggestions
        thread.join(30)
    message = str(failure["error"])
    assert failure["seconds"] < 3.0 + 10, failure["seconds"]
    assert f"127.0.0.1:{server.port}" in message and "PASSWORD3" not in message and "sk-space-" not in message
    assert not cli_flag(message), message


@pytest.mark.slow  # 4.3 s on two quiet cores
def test_messages_speak_the_uis_language(tmp_path):
    from swords_space.errors import SpaceError
    from swords_space.tabs.score import score_predictions
    from swords_space.tabs.substitute import substitute

    row = swords_dataset.rows("swords", "test")[0]
    for system in ("gpt3-recorded", "humans"):  # both answer only some benchmark targets
        try:
            result = substitute(
                row["context"],
                row["target"],
                1,
                "auto",
                system,
                10,
                example={"config": "swords", "split": "test", "id": row["id"]},
            )
            message = result.status
        except SpaceError as error:
            message = str(error)
        assert not cli_flag(message), message
    coinco = swords_dataset.rows("coinco", "dev", columns=["upstream_id"])[:20]
    path = tmp_path / "dev.json"
    path.write_text(json.dumps({"substitutes": {row["upstream_id"]: ["x"] for row in coinco}}))
    with pytest.raises(SpaceError) as error:
        score_predictions(str(path), None, "coinco test", bootstrap=0)
    assert "Choose coinco dev as the benchmark" in str(error.value) and not cli_flag(str(error.value))
