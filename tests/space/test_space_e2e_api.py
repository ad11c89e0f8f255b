"""The Space end to end through its API: the app in its own process on 127.0.0.1 (as `python space/app.py`
starts it), driven with gradio_client: substitutes, errors as messages, concurrent sessions, scores of an upload
(with a second file, with judgments), exploring and the leaderboard, a long job that holds up no other session; and
the app's log holds no traceback afterwards."""

from __future__ import annotations

import json
import re
import threading
import time

import pytest

from swords_metric import CLASSES, RELATIONS

from .helpers import COINCO_ORACLE

pytest.importorskip("gradio", reason="the Space needs gradio: pip install 'swords-lexsub[space]'")
pytest.importorskip("gradio_client", reason="the API tests need gradio_client: pip install 'swords-lexsub[space]'")


@pytest.mark.slow  # 10 s on two cores
def test_api_substitute_on_a_benchmark_example(client, example_row):
    status, context_html, suggestions_html, table, metrics = client.predict(
        example_row["context"], example_row["target"], 1, "auto", "coinco-oracle", 10, api_name="/substitute"
    )
    assert "coinco-oracle" in status and "swords test" in status
    assert table["headers"] == ["rank", "substitute", "score", "gold score", "judgement"]
    assert table["data"] and all(row[4] in set(CLASSES) for row in table["data"])
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


@pytest.mark.slow  # 3.3 s on two quiet cores
def test_api_concurrent_sessions_get_their_own_answers(server, example_row):
    from gradio_client import Client

    targets = {
        "first": ("She gave a bright answer.", "bright"),
        "second": (example_row["context"], example_row["target"]),
    }
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


@pytest.mark.slow  # 4 s on two cores
def test_api_score_an_upload_and_bad_files(client, tmp_path):
    from gradio_client import handle_file
    from gradio_client.exceptions import AppError

    from swords_metric import Scorer, read_predictions

    (
        summary,
        metrics,
        by_pos,
        curve,
        published,
        signature,
        classes,
        relations,
        worst,
        paired,
        difference_chart,
        differences,
        extended_summary,
        extended,
        extended_signature,
    ) = client.predict(
        handle_file(str(COINCO_ORACLE)), None, "swords test", "generative", 100, "lenient", api_name="/score"
    )
    expected = Scorer.from_dataset("swords", "test").score(read_predictions(COINCO_ORACLE)[0], by_pos=False)
    cells = {row[1]: row for row in metrics["data"]}
    assert cells["lenient_a_f@10"][2] == round(expected["lenient_a_f@10"], 2)
    assert cells["lenient_a_f@10"][3].startswith("[")
    assert "bootstrap:100" in signature and "762 targets" in summary
    assert {row[0] for row in by_pos["data"]} == {"NOUN", "VERB", "ADJ", "ADV"}
    assert published["data"][0][:2] == ["coinco-oracle.s…", "this run, measured here"]
    assert {"CoInCo (oracle)", "GPT-3"} <= {row[0] for row in published["data"][1:]}
    overall = {kind: share for group, kind, share, _ in classes["data"] if group == "all"}
    assert set(overall) == set(CLASSES) and overall["acceptable"] == pytest.approx(expected["strict_a_p@10"])
    assert {kind for _, kind, _, _ in relations["data"]} == set(RELATIONS)
    assert len(worst["data"]) == 10 and worst["data"][0][-1].startswith("t:") and len(worst["data"][0][-1]) == 11
    assert paired["data"] == differences["data"] == difference_chart["data"] == []  # nothing to compare with
    assert extended_summary == extended_signature == "" and extended["data"] == []  # no judgments

    # With a second file (here the same one, stored): the paired test, and no target differs.
    paired, differences = client.predict(
        handle_file(str(COINCO_ORACLE)),
        None,
        "swords test",
        "generative",
        0,
        "lenient",
        False,
        None,
        COINCO_ORACLE.name,
        api_name="/score",
    )[9:12:2]
    assert paired["data"][0][:4] == ["lenient F@10, acceptable", *[round(expected["lenient_a_f@10"], 2)] * 2, 0.0]
    assert differences["data"] == []

    latin = tmp_path / "latin1.jsonl"
    latin.write_bytes('{"id": "t:1", "substitutes": ["caf\u00e9"]}\n'.encode("latin-1"))
    with pytest.raises(AppError, match=":1: not UTF-8 text"):
        client.predict(handle_file(str(latin)), None, "swords test", "generative", 0, "lenient", api_name="/score")
    with pytest.raises(AppError, match="not in coinco test"):
        client.predict(
            handle_file(str(COINCO_ORACLE)), None, "coinco test", "generative", 0, "lenient", api_name="/score"
        )


@pytest.mark.slow  # 4 s on two busy cores (load 4-6)
def test_api_score_shows_lone_surrogates_and_bidi_overrides_escaped(client, tmp_path):
    """Substitutes that are not text (a lone surrogate: JSON's "\\ud800", which no JSON encoder sends to a
    browser) or that reorder what follows (U+202E), in both files of a comparison: scored as the metric scores
    them, and shown escaped in every table, where they crashed the Score tab."""
    from gradio_client import handle_file

    import swords_dataset

    rows = swords_dataset.rows("swords", "test", columns=["id", "substitutes"])
    strange = tmp_path / "strange\u202e.jsonl"  # a file name with an override, too
    substitutes = [["x\ud800y", 1.0], ["a\udfffb\u202eevil", 0.5]]
    strange.write_text("".join(json.dumps({"id": row["id"], "substitutes": substitutes}) + "\n" for row in rows))
    assert "\\ud800" in strange.read_text()  # JSON's escape (json.dumps writes ASCII): parsing makes the surrogate
    # The compared file: the best gold substitute first on 20 targets, so that the files differ there.
    other = tmp_path / "other.jsonl"
    with open(other, "w") as f:
        for i, row in enumerate(rows):
            best = max(row["substitutes"], key=lambda s: s["score"])["substitute"] if i < 20 else "zzz"
            f.write(json.dumps({"id": row["id"], "substitutes": [[best, 1.0], ["good\ud83d", 0.5]]}) + "\n")
    outputs = client.predict(
        handle_file(str(strange)),
        None,
        "swords test",
        "generative",
        0,
        "lenient",
        False,
        handle_file(str(other)),
        None,
        api_name="/score",
    )
    summary, worst, paired, differences = outputs[0], outputs[8], outputs[9], outputs[11]
    assert summary.startswith("Scored **strange\\u202e.jsonl** on **swords test**") and "762 targets" in summary
    assert "Compared with **other.jsonl**" in summary
    assert worst["data"] and all(row[3] == "x\\ud800y · a\\udfffb\\u202eevil" for row in worst["data"])
    assert paired["data"][0][:2] == ["lenient F@10, acceptable", 0.0] and paired["data"][0][2] > 0
    assert len(differences["data"]) == 10
    for row in differences["data"]:
        assert row[5] == "x\\ud800y · a\\udfffb\\u202eevil" and row[6].endswith(" · good\\ud83d"), row


@pytest.mark.slow  # 6 s on two busy cores (load 4-6)
def test_api_judge_a_task_then_score_with_the_judgments_file(client):
    """The Judge tab's endpoints in one client session (its gr.State): tasks from a run, the first task judged (the
    target control accepted, every other candidate rejected), and the judgments file it answers scored by /score
    beside the run: the extended block and signature."""
    from gradio_client import handle_file

    from swords_metric import read_judgments

    run = handle_file(str(COINCO_ORACLE))
    shown = client.predict(None, run, "swords test", 0, 0, None, "Ann", api_name="/judge_start")
    assert shown[0].startswith("Task **1 of ")
    tasks = shown[15]["value"]  # the tasks file the session made: the judgments are checked against it
    words = [update["label"].split(". ", 1)[1] for update in shown[2:14] if update["visible"]]
    target = shown[17]["target"]  # the task as data
    labels = ["accept" if word == target else "reject" for word in words]
    named = {f"candidate_{i + 1}": labels[i] if i < len(labels) else None for i in range(12)}  # None: unused
    shown = client.predict(**named, api_name="/judge_save")
    assert shown[0].startswith("Task **2 of ")
    judged = shown[14]["value"]
    records = read_judgments(judged)
    assert [r["substitute"] for r in records] == words and [r["label"] for r in records] == labels
    outputs = client.predict(
        run, None, "swords test", "generative", 0, "lenient", False, None, None,
        [handle_file(tasks), handle_file(judged)],
        api_name="/score",
    )  # fmt: skip
    summary, table, signature = outputs[12:15]
    assert "by 1 judge," in summary and "|judgments:" in signature and "|judges:1" in signature
    assert [row[1] for row in table["data"]][:2] == ["lenient_a_f@10", "lenient_c_f@10"]


def test_api_explore_and_leaderboard(client):
    choices, message = client.predict("swords test", "bri", "all", api_name="/search_examples")
    assert "targets starting with “bri”" in message
    header, context, substitutes = client.predict(
        "swords test", "t:4776ee5650122a96f88bab17d64eb8f5d48addfc", api_name="/show_example"
    )
    assert "bridge" in header and "<mark" in context
    board, note = client.predict(api_name="/leaderboard")  # SWORDS test's board: one split at a time
    systems = {row[0] for row in board["data"]}
    assert {"coinco-oracle", "thesaurus-oracle", "CoInCo (oracle)"} <= systems and "humans" not in systems
    board, note = client.predict("swords_test_subset test", api_name="/leaderboard")
    assert {row[0] for row in board["data"]} == {"humans", "Humans"}


@pytest.mark.slow  # 11 s on two cores
def test_api_stays_responsive_during_long_scoring(server, tmp_path):
    """A long job of one session (CoInCo dev, 10,179 targets, 2,000 resamples) does not hold up another's."""
    import pyarrow.parquet as pq
    from gradio_client import Client, handle_file

    import swords_dataset

    rows = pq.read_table(swords_dataset.DATASET_DIR / swords_dataset.parquet_path("coinco", "dev")).to_pylist()
    predictions = tmp_path / "coinco-dev.jsonl"
    predictions.write_text(
        "".join(
            json.dumps({"id": row["id"], "substitutes": [s["substitute"] for s in row["substitutes"]]}) + "\n"
            for row in rows
        )
    )
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


def test_api_default_system_on_free_text(client):
    """The default offline system (loaded in the background at start) answers a typed sentence."""
    api = client.view_api(print_info=False, return_format="dict")["named_endpoints"]["/substitute"]
    default = api["parameters"][4]["parameter_default"]
    status, _, html, table, metrics = client.predict(
        "The committee met on Tuesday. She gave a bright answer that surprised everyone. They went home.",
        "bright",
        1,
        "auto",
        default,
        10,
        api_name="/substitute",
    )
    assert f"**{default}**" in status and "free text" in status and metrics["data"] == []
    if default in ("wordnet+embedding", "wordnet"):
        assert "brilliant" in [row[1] for row in table["data"]]


def test_tables_show_their_headers_before_any_query(client):
    config = client.config
    headers = {
        component["props"].get("elem_id"): (component["props"].get("value") or {}).get("headers")
        for component in config["components"]
        if component.get("type") == "dataframe"
    }
    assert headers["example-metrics"] == ["metric", "value"]
    assert headers["score-metrics"] == ["metric", "key", "value", "95% interval"]
    assert all(h and "1" not in h for h in headers.values()), headers


def test_every_output_of_every_endpoint_has_a_name(client):
    """The API named three of the Judge tab's outputs `value_162`, `value_163` and `value_164` (issue 47): every
    output of every endpoint has a name of its own that says what it is, as gradio_client lists them."""
    api = client.view_api(print_info=False, return_format="dict")["named_endpoints"]
    endpoints = {"/substitute", "/search_examples", "/show_example", "/score", "/leaderboard", "/judge_start"}
    assert endpoints | {"/judge_save"} == set(api)
    for endpoint, info in api.items():
        names = [output["label"] for output in info["returns"]]
        assert all(name and not re.fullmatch(r"value_\d+", name) for name in names), (endpoint, names)
        assert len(set(names)) == len(names), (endpoint, names)
    for endpoint in ("/judge_start", "/judge_save"):
        names = [output["label"] for output in api[endpoint]["returns"]]
        assert names[:3] == ["Progress", "Task", "candidate 1"] and "Saved (or why not)" in names
    assert "value_" not in client.view_api(print_info=False, return_format="str")  # the text a user reads, too


def test_server_log_has_no_traceback(server):
    log = server["log"].read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
