"""The Judge tab through its API (gradio_client against the app on 127.0.0.1, as test_space_e2e_api.py): a judge's
records are never dropped or made unreachable (Start pressed again; a tasks file that lacks, or holds otherwise,
tasks the judge finished; a real full disk under the app's upload folder), and what the tab cannot judge (a task of
40 candidates, another benchmark, a target the split lacks, a lone surrogate, a look-alike name) is one message at
Start. /judge_save's parameters are named by the task data both endpoints answer."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import urllib.error
import urllib.request

import pytest

from swords_metric import read_tasks

from ..space_server import running_app
from .helpers import COINCO_ORACLE

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
pytest.importorskip("gradio_client", reason="the API tests need gradio_client: pip install 'swords-lexsub[space]'")
pytestmark = pytest.mark.slow  # the app in its own process
SLOTS = 12
DOWNLOAD, DATA = 14, 17  # the outputs' places: the judgments file's link, the task as data


def client_of(url: str):
    from gradio_client import Client

    return Client(url, verbose=False, download_files=False)  # links answered as they are, not fetched


def upload(path):
    from gradio_client import handle_file

    return handle_file(str(path)) if path else None


def begin(client, tasks=None, partial=None, judge="Ann", run=COINCO_ORACLE):
    return client.predict(
        upload(tasks), None if tasks else upload(run), "swords test", 0, 0, upload(partial), judge,
        api_name="/judge_start",
    )  # fmt: skip


def save_task(client, shown):
    """The current task judged (its target accepted, every other word rejected) by the names the data gives."""
    data = shown[DATA]
    named = {f"candidate_{n}": None for n in range(1, SLOTS + 1)}
    named.update({slot: "accept" if word == data["target"] else "reject" for slot, word in data["candidates"].items()})
    return client.predict(**named, api_name="/judge_save")


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


def records(shown) -> list[dict]:
    status, body = get(shown[DOWNLOAD]["value"]["url"])
    assert status == 200, status
    return [json.loads(line) for line in body.decode().splitlines()]


def key(record: dict) -> str:
    return json.dumps(record, sort_keys=True)


def test_start_again_keeps_every_saved_task_and_the_old_link(server):
    client = client_of(server["url"])
    shown = begin(client)
    tasks_link = shown[15]["value"]["url"]
    for _ in range(2):
        shown = save_task(client, shown)
    assert "Saved task 2" in shown[16] and shown[0].startswith("Task **3 of ")  # the save is acknowledged
    old_link, saved = shown[DOWNLOAD]["value"]["url"], records(shown)
    again = begin(client)  # Start pressed again: the same run, the same tasks
    assert again[0].startswith("Task **3 of ") and "2 tasks were already judged" in again[0]
    status, body = get(old_link)  # the earlier session's file stays where the page linked to it
    assert records(again) == saved and status == 200 and [json.loads(line) for line in body.splitlines()] == saved
    assert get(tasks_link)[0] == 200
    bob = begin(client, judge="Bob")  # another judge in the same page: Ann's records stay in the file
    assert bob[0].startswith("Task **1 of ") and records(bob) == saved and get(old_link)[0] == 200


def test_a_tasks_file_lacking_or_holding_otherwise_the_judges_tasks_drops_none_of_their_records(server, tmp_path):
    client = client_of(server["url"])
    shown = begin(client)
    status, body = get(shown[15]["value"]["url"])
    whole = tmp_path / "tasks.jsonl"
    whole.write_bytes(body)
    for _ in range(4):
        shown = save_task(client, shown)
    partial = tmp_path / "mine.jsonl"
    partial.write_bytes(get(shown[DOWNLOAD]["value"]["url"])[1])
    mine = [json.loads(line) for line in partial.read_text().splitlines()]
    lines = whole.read_text().splitlines(keepends=True)
    tasks = read_tasks(whole).tasks
    # Another tasks file: the first two finished tasks left out, the third held with one more candidate.
    third = json.loads(lines[3])
    third["candidates"].append({"substitute": "zzyzx", "control": None})
    other = tmp_path / "other.jsonl"
    other.write_text(lines[0] + json.dumps(third) + "\n" + "".join(lines[4:]))
    client = client_of(server["url"])  # a new page: only the files carry the work
    again = begin(client, tasks=other, partial=partial)
    assert "records of tasks not in this tasks file are kept" in again[0]
    assert again[DATA]["task"] == tasks[2].task  # held otherwise: judged again, as it is now
    assert [key(r) for r in records(again)] == [key(r) for r in mine]  # every uploaded record, as it was
    shown = save_task(client, again)
    assert [key(r) for r in records(shown)][: len(mine)] == [key(r) for r in mine]


def test_a_full_disk_leaves_the_link_answering_with_every_saved_task(small_disk, tmp_path, server):
    subprocess.run(["mount", "-o", "remount,size=2m", str(small_disk)], check=True)
    tasks = tmp_path / "tasks.jsonl"
    shown = begin(client_of(server["url"]))  # a tasks file from the run, cut to five tasks: a small upload
    tasks.write_text("".join(get(shown[15]["value"]["url"])[1].decode().splitlines(keepends=True)[:6]))
    (tmp_path / "app").mkdir()
    with running_app(tmp_path / "app", extra_env={"GRADIO_TEMP_DIR": str(small_disk)}) as app:
        client = client_of(app["url"])
        shown = save_task(client, begin(client, tasks=tasks))
        link, saved = shown[DOWNLOAD]["value"]["url"], records(shown)
        filler = small_disk / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)  # the rest of the disk taken, as another upload would
        with contextlib.suppress(OSError):
            while os.write(fd, b"\0" * 4096):
                pass
        os.close(fd)
        from gradio_client.exceptions import AppError

        with pytest.raises(AppError, match=r"could not be written .*not saved\. Download the file"):
            for _ in range(4):
                shown = save_task(client, shown)
                link, saved = shown[DOWNLOAD]["value"]["url"], records(shown)
        status, body = get(link)  # the page's link, as the failed save left it: the file, whole
        assert status == 200 and [json.loads(line) for line in body.decode().splitlines()] == saved
        filler.unlink()
        shown = save_task(client, shown)  # room again: the task is saved, after the others
        assert records(shown)[: len(saved)] == saved and len(records(shown)) > len(saved)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("forty", "has 40 candidates; the Judge tab shows at most 12"),
        ("coinco", "holds tasks for coinco test; the Judge tab judges only swords dev, swords test"),
        ("unknown", "is for target t:0000, which swords test lacks"),
        ("surrogate", r"^surrogate.jsonl:2: .*lone surrogate"),
    ],
)
def test_tasks_the_tab_cannot_judge_are_one_message_at_start(client, tmp_path, change, message):
    from gradio_client import handle_file
    from gradio_client.exceptions import AppError

    shown = client.predict(None, handle_file(str(COINCO_ORACLE)), "swords test", 0, 0, None, "Ann",
                           api_name="/judge_start")  # fmt: skip
    path = shown[15]["value"]
    lines = open(path, encoding="utf-8").read().splitlines()  # noqa: SIM115
    header, task = json.loads(lines[0]), json.loads(lines[1])
    if change == "forty":
        task["candidates"] += [{"substitute": f"word{n}", "control": None} for n in range(40 - len(task["candidates"]))]
    elif change == "coinco":
        header["dataset"] = "coinco"
    elif change == "unknown":
        task["id"] = "t:0000"
    else:
        task["context"] = task["context"][: task["offset"]] + task["target"] + " \ud800 " + "."
    bad = tmp_path / f"{change}.jsonl"
    bad.write_text(json.dumps(header) + "\n" + json.dumps(task) + "\n")
    with pytest.raises(AppError, match=message):
        client.predict(handle_file(str(bad)), None, "swords test", 0, 0, None, "Ann", api_name="/judge_start")


def test_slots_are_named_by_their_candidate_and_look_alikes_show_as_what_they_are(client, tmp_path):
    from gradio_client import handle_file
    from gradio_client.exceptions import AppError

    parameters = client.view_api(return_format="dict", print_info=False)["named_endpoints"]["/judge_save"]
    assert [p["label"] for p in parameters["parameters"]] == [f"candidate {n}" for n in range(1, SLOTS + 1)]
    shown = client.predict(None, handle_file(str(COINCO_ORACLE)), "swords test", 0, 0, None, "Ann",
                           api_name="/judge_start")  # fmt: skip
    lines = open(shown[15]["value"], encoding="utf-8").read().splitlines()  # noqa: SIM115
    task = json.loads(lines[1])
    word = next(c["substitute"] for c in task["candidates"] if not c["control"])
    task["candidates"].append({"substitute": word + "\u200b", "control": None})  # looks like `word`
    task["candidates"].append({"substitute": "cafe\u0301", "control": None})  # looks like "café", composed
    tasks = tmp_path / "look-alike.jsonl"
    tasks.write_text(lines[0] + "\n" + json.dumps(task) + "\n")
    shown = client.predict(handle_file(str(tasks)), None, "swords test", 0, 0, None, "Ann", api_name="/judge_start")
    labels = [update["label"] for update in shown[2:14] if update["visible"]]
    assert f"{len(labels) - 1}. {word}\\u200b" in labels and sum(label.endswith(f". {word}") for label in labels) == 1
    assert f"{len(labels)}. cafe\\u0301" in labels
    assert list(shown[DATA]["candidates"].values())[-2:] == [word + "\u200b", "cafe\u0301"]
    with pytest.raises(AppError, match=r"Ann\\u200b holds an invisible character"):
        client.predict(handle_file(str(tasks)), None, "swords test", 0, 0, None, "Ann\u200b", api_name="/judge_start")


def test_a_run_whose_substitute_is_a_lone_surrogate_is_one_message(client, tmp_path):
    from gradio_client import handle_file
    from gradio_client.exceptions import AppError

    rows = [json.loads(line) for line in COINCO_ORACLE.read_text(encoding="utf-8").splitlines()]
    rows[1]["substitutes"].insert(0, ["x\ud800y", 9.0])  # JSON's "\ud800": the run reads, no tasks file holds it
    run = tmp_path / "run.jsonl"
    run.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    with pytest.raises(AppError, match=rf"^run.jsonl: target {rows[1]['id']} has the substitute x\\ud800y, .*lone"):
        client.predict(None, handle_file(str(run)), "swords test", 0, 0, None, "Ann", api_name="/judge_start")
