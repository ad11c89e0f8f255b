"""The Space's `--results` folder holding anything: metrics files without a benchmark, with `"run": "oops"`, a
list, `"targets_scored": "many"`, NaN, JSON nested 100,000 deep; a FIFO, /dev/zero behind a symlink and a huge
file named *.metrics.json; folders named *.metrics.json (one beside a stored run, read at start-up); a FIFO named
*.jsonl; a file name that is not UTF-8; a system name with a lone surrogate and a bidirectional override. The app
starts (as `python space/app.py --results DIR`), the leaderboard shows every good file and names the rest, each bad
file is one line in the server's log, once, and nothing hangs or stays open. The app runs in its own process on
127.0.0.1."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time

import pytest

from ..space_server import running_app
from .helpers import RESULTS, import_space

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
pytest.importorskip("gradio_client", reason="the API tests need gradio_client: pip install 'swords-lexsub[space]'")

ANSWER_SECONDS = 20  # a leaderboard of a dozen files answers in well under a second

GOOD = json.loads((RESULTS / "coinco-oracle.swords.test.metrics.json").read_text())


def metrics(**changes) -> str:
    """The coinco oracle's metrics file with some keys changed (None: removed)."""
    changed = {**GOOD, "run": dict(GOOD["run"])}
    for key, value in changes.items():
        target = changed["run"] if key.startswith("run_") else changed
        name = key.removeprefix("run_")
        if value is None:
            target.pop(name, None)
        else:
            target[name] = value
    return json.dumps(changed)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """A results folder: the shipped results, then every kind of bad file, some beside a predictions file (which
    the Score tab's list reads the metrics of at start-up)."""
    folder = tmp_path_factory.mktemp("results")
    for path in RESULTS.iterdir():
        shutil.copy(path, folder / path.name)
    predictions = (RESULTS / "coinco-oracle.swords.test.jsonl").read_bytes()
    bad = {
        "nodataset.swords.test": metrics(run_dataset=None),
        "oops.swords.test": metrics(run="oops"),
        "alist.swords.test": json.dumps([1, 2, 3]),
        "many.swords.test": metrics(targets_scored="many"),
        "deep.swords.test": "[" * 100_000 + "]" * 100_000,
        "nan.swords.test": metrics(**{"lenient_a_f@10": "NaN-here"}).replace('"NaN-here"', "NaN"),
        "elsewhere.swords.test": metrics(run_dataset="imagenet"),
    }
    for name, content in bad.items():
        (folder / f"{name}.metrics.json").write_text(content)
        (folder / f"{name}.jsonl").write_bytes(predictions)
    os.mkfifo(folder / "pipe.swords.test.metrics.json")  # beside a predictions file, read at start-up
    (folder / "pipe.swords.test.jsonl").write_bytes(predictions)
    (folder / "zero.metrics.json").symlink_to("/dev/zero")
    with open(folder / "huge.metrics.json", "wb") as f:
        f.truncate(8 * 2**20)  # 8 MB, sparse
    os.mkfifo(folder / "fifo.swords.test.jsonl")
    (folder / "x.metrics.json").mkdir()  # it broke every board for every visitor (IsADirectoryError)
    (folder / "folder.swords.test.metrics.json").mkdir()  # a stored run's: `swords demo` exited at start-up
    (folder / "folder.swords.test.jsonl").write_bytes(predictions)
    (folder / "strange.swords.test.metrics.json").write_text(metrics(run_system="evil\ud800\u202eroot"))
    (folder / "strange.swords.test.jsonl").write_bytes(predictions)
    os.symlink(RESULTS / "humans.swords_test_subset.test.jsonl", os.path.join(os.fsencode(folder), b"latin\xff.jsonl"))
    return folder, [
        *(f"{name}.metrics.json" for name in bad),
        "pipe.swords.test.metrics.json",
        "zero.metrics.json",
        "huge.metrics.json",
        "x.metrics.json",
        "folder.swords.test.metrics.json",
    ]


@pytest.fixture(scope="module")
def app(hostile, tmp_path_factory):
    folder, _ = hostile
    started = time.monotonic()
    with running_app(tmp_path_factory.mktemp("space-results"), options=("--results", str(folder))) as running:
        running["start_seconds"] = time.monotonic() - started
        yield running


def call(app, *arguments, api_name: str, timeout: float = ANSWER_SECONDS):
    """The endpoint's answer within `timeout` seconds (a hang fails the test instead of blocking it)."""
    from gradio_client import Client

    job = Client(app["url"], verbose=False).submit(*arguments, api_name=api_name)
    return job.result(timeout=timeout)


@pytest.mark.slow  # 10 s on two cores
def test_the_app_starts_and_offers_the_readable_predictions(app):
    from gradio_client import Client

    assert app["start_seconds"] < 60, app["start_seconds"]
    api = Client(app["url"], verbose=False).view_api(return_format="dict", print_info=False)
    stored = next(p for p in api["named_endpoints"]["/score"]["parameters"] if p["parameter_name"] == "stored")
    offered = set(stored["type"]["enum"])
    assert {
        "coinco-oracle.swords.test.jsonl",
        "oops.swords.test.jsonl",
        "pipe.swords.test.jsonl",
        "strange.swords.test.jsonl",
        "folder.swords.test.jsonl",
    } <= offered
    assert "fifo.swords.test.jsonl" not in offered and not any(name.startswith("latin") for name in offered)
    # A stored file whose metrics are unusable still scores, on the benchmark the user chooses.
    summary = call(
        app, None, "oops.swords.test.jsonl", "swords test", "generative", 0, "lenient", False, api_name="/score"
    )[0]
    assert summary.startswith("Scored **oops.swords.test.jsonl** on **swords test**")


def test_the_leaderboard_shows_the_good_files_and_names_the_bad(app, hostile):
    _, bad_names = hostile
    for _ in range(2):  # a second visitor: the same board, and nothing more in the log
        started = time.monotonic()
        board, note = call(app, api_name="/leaderboard")  # SWORDS test's board
        subset, _ = call(app, "swords_test_subset test", api_name="/leaderboard")
        assert time.monotonic() - started < ANSWER_SECONDS
        measured = {row[0] for row in board["data"] + subset["data"] if row[2] == "measured: your run"}
        shipped = {"wordnet+embedding", "coinco-oracle", "thesaurus-oracle", "humans"}  # copies, in the folder
        assert measured == shipped | {"evil\\ud800\\u202eroot"}
        for name in bad_names:
            assert name in note, (name, note)
        assert "strange.swords.test.metrics.json" not in note
    log = app["log"].read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    skipped = [line for line in log.splitlines() if "results folder: skipped" in line]
    for name in [*bad_names, "fifo.swords.test.jsonl", "latin\\udcff.jsonl"]:
        assert sum(name in line for line in skipped) == 1, (name, skipped)
    assert len(skipped) == len(bad_names) + 2, skipped  # once each, however many visitors
    reasons = {name: next(line for line in skipped if name in line) for name in bad_names}
    assert 'no "dataset" name' in reasons["nodataset.swords.test.metrics.json"]
    assert "no run header" in reasons["oops.swords.test.metrics.json"]
    assert "not a JSON object" in reasons["alist.swords.test.metrics.json"]
    assert '"targets_scored" is not a count' in reasons["many.swords.test.metrics.json"]
    assert "nested too deeply" in reasons["deep.swords.test.metrics.json"]
    assert "NaN is not a number standard JSON allows" in reasons["nan.swords.test.metrics.json"]
    assert "'imagenet' 'test', not a benchmark split" in reasons["elsewhere.swords.test.metrics.json"]
    assert "not a regular file" in reasons["pipe.swords.test.metrics.json"]
    assert "not a regular file" in reasons["zero.metrics.json"]
    assert "8,388,608 bytes, over the 1,048,576" in reasons["huge.metrics.json"]
    assert "a folder, not a metrics file" in reasons["x.metrics.json"]
    assert "a folder, not a metrics file" in reasons["folder.swords.test.metrics.json"]


def test_a_folder_named_like_a_metrics_file_is_skipped_without_opening_a_descriptor(hostile):
    """The leaderboard's handler in this process, many visits: no descriptor is left open (one leaked per request),
    and the folder is named, not raised."""
    import_space()
    from swords_space.tabs.leaderboard import leaderboard

    folder, _ = hostile
    descriptors = len(os.listdir("/proc/self/fd"))
    for _ in range(20):
        board, note = leaderboard(folder)
        assert "x.metrics.json" in note and "folder.swords.test.metrics.json" in note
        assert "coinco-oracle" in set(board["system"])
    assert len(os.listdir("/proc/self/fd")) == descriptors


def test_a_pipe_nobody_writes_to_holds_up_no_one(app, hostile):
    """The FIFOs are still there, with nobody at their other end: every page load's leaderboard answers, several
    visitors at once."""
    answers, failures = [], []

    def visit():
        try:
            answers.append(call(app, api_name="/leaderboard")[1])
        except Exception as error:  # noqa: BLE001 (reported below)
            failures.append(error)

    visitors = [threading.Thread(target=visit) for _ in range(4)]
    for visitor in visitors:
        visitor.start()
    for visitor in visitors:
        visitor.join(ANSWER_SECONDS * 2)
    assert not failures and len(answers) == 4 and all("4 of yours" in note for note in answers), failures
