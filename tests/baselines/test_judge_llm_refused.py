"""What `swords judge llm` refuses rather than write a file its readers would refuse, or an empty one: an
`--agreement` whose figures `swords evaluate` refuses (checked by the metric's one check, before any request), a
tasks file without a task, a server whose every answer names no label, and a server's answer holding a bare NaN;
and the probability of accept left out where the answer's own token has no probability. A real server on
127.0.0.1 (tests/llm_server.py)."""

from __future__ import annotations

import json
import math

import pytest

from swords_baselines.judge.constraint import p_accept
from swords_baselines.judge.prompt import judge_id
from swords_lexsub.cli import main as swords_main
from swords_metric import read_judgments

from ..llm_server import Canned, LLMServer
from .judge_helpers import dev_tasks_file, items, records, user_message
from .test_judge_faults import error_line

JUDGE = judge_id("judge-model")  # the id the runs below write (the --agreement file is keyed by it)
VALIDATED = {"written_by": "swords judge validate", "candidates": 200, "kappa_acceptable": 0.25, "spearman": 0.3}


@pytest.fixture
def tasks(tmp_path, dev):
    return dev_tasks_file(tmp_path / "tasks.jsonl", dev)  # 2 targets, 3 candidates and 2 controls each


def judge_args(server: LLMServer, tasks, output, *extra: str) -> list[str]:
    return [
        "judge", "llm", "--tasks", str(tasks), "--output", str(output), "--base-url", server.base_url,
        "--model", "judge-model", "--cache-dir", "off", "--backoff", "0.01", "--timeout", "5", *extra,
    ]  # fmt: skip


def refused(capsys, args: list[str]) -> str:
    capsys.readouterr()
    assert swords_main(args) == 2
    return error_line(capsys.readouterr().err)


def nothing_written(output) -> bool:
    return not [p for p in output.parent.iterdir() if p.name.startswith((output.name, f".{output.name}"))]


# --- --agreement ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('"kappa_acceptable": NaN', "NaN is not JSON"),  # what json.dumps writes for a float NaN
        ('"spearman": -Infinity', "-Infinity is not JSON"),
        ('"seconds": 1e999', "1e999 is past a number's range"),  # JSON, but no float holds it
        ('"kappa_acceptable": 7', "kappa_acceptable must be a number within -1..1, got 7"),
        ('"accuracy_acceptable": "0.9"', "accuracy_acceptable must be a number"),
        ('"candidates": 49', "candidates 49 is no measurement"),  # under validate's floor of 50
        ('"candidates": 1000000000000000000000000000000', "candidates 1000000000000000000000000000000"),
        ('"candidates": 12.5', "candidates must be a whole number"),
    ],
)
def test_an_agreement_its_readers_refuse_is_refused_before_any_request(tasks, tmp_path, capsys, text, named):
    validation, output = tmp_path / "validation.json", tmp_path / "j.jsonl"
    key = text.split(":")[0].strip('"')
    entry = json.dumps({k: v for k, v in VALIDATED.items() if k != key})[:-1] + ", " + text + "}"
    validation.write_text(f'{{"{JUDGE}": {entry}}}')
    with LLMServer(generic="accept", models_owned_by="vllm") as server:
        line = refused(capsys, judge_args(server, tasks, output, "--agreement", str(validation)))
        assert not server.requests and not server.gets  # not even asked what it is
    assert f"--agreement {validation}" in line and named in line, line
    assert nothing_written(output)


def test_an_agreement_at_the_floor_is_written_and_read_back_by_evaluate_s_reader(tasks, tmp_path):
    validation, output = tmp_path / "validation.json", tmp_path / "j.jsonl"
    floor = {**VALIDATED, "candidates": 50, "kappa_acceptable": 1, "time": "2026-12-01T00:00:00+00:00"}
    validation.write_text(json.dumps({JUDGE: floor}))
    with LLMServer(generic="accept") as server:
        assert swords_main(judge_args(server, tasks, output, "--agreement", str(validation))) == 0
    claimed = {k: v for k, v in floor.items() if k != "written_by"}
    assert [r["agreement"] for r in read_judgments(output)] == [claimed] * 10  # the metric's reader takes them


# --- an output with nothing in it ----------------------------------------------------------------------------------


def test_a_server_whose_every_answer_names_no_label_fails_in_one_line_and_writes_nothing(tasks, tmp_path, capsys):
    output = tmp_path / "j.jsonl"
    with LLMServer(generic="I think it fits.") as server:
        line = refused(capsys, judge_args(server, tasks, output))
        assert len(server.requests) == 10
    assert "no candidate got a label (10 asked: 10 answers named none, 0 got no answer" in line
    assert "last: not a label: 'I think it fits.'" in line and "nothing was written" in line
    assert nothing_written(output)  # neither the output nor a journal holding only its header


def test_a_tasks_file_without_a_task_fails_before_any_request(tmp_path, capsys):
    empty, output = tmp_path / "tasks.jsonl", tmp_path / "j.jsonl"
    header = {"format": "swords-judge-tasks", "version": 1, "dataset": "swords", "split": "dev"}
    empty.write_text(json.dumps(header) + "\n")
    with LLMServer(generic="accept") as server:
        line = refused(capsys, judge_args(server, empty, output))
        assert not server.requests and not server.gets
    assert f"--tasks {empty} holds no task" in line and "nothing written" in line
    assert nothing_written(output)


# --- the probability of accept, a NaN in the answer --------------------------------------------------------------


def logprobs(first: dict[str, float]) -> dict:
    """A chat choice's log-probabilities whose first position offers these tokens (the first one chosen)."""
    top = [{"token": token, "logprob": logprob} for token, logprob in first.items()]
    return {"content": [{**top[0], "top_logprobs": top}]}


@pytest.mark.parametrize("logprob", [0.5, math.nan, math.inf, None, "high"])
def test_an_answer_token_without_a_probability_gives_no_p_accept(logprob):
    response = {"choices": [{"logprobs": logprobs({"accept": logprob, "reject": -1.0, "abstain": -2.0})}]}
    assert p_accept(response) is None  # not 0.0: the answer was accept


def test_a_positive_log_probability_from_a_server_leaves_p_accept_out(tasks, tmp_path):
    output = tmp_path / "j.jsonl"
    with LLMServer(models_owned_by="vllm") as server:
        for task, candidate in items(tasks):
            server.canned[user_message(task, candidate.substitute)] = Canned(
                "accept", logprobs=logprobs({"accept": 0.5, "reject": -1.0})
            )
        assert swords_main(judge_args(server, tasks, output)) == 0
    written = records(output)
    assert len(written) == 10 and all(r["label"] == "accept" and "p_accept" not in r for r in written)


def test_a_bare_nan_in_the_server_s_json_is_a_malformed_answer(tasks, tmp_path, capsys):
    output = tmp_path / "j.jsonl"
    chosen = items(tasks)[:4]
    nan = logprobs({"accept": math.nan, "reject": -1.0})  # the server's json.dumps writes it as a bare NaN
    with LLMServer(generic="reject", models_owned_by="vllm") as server:
        for task, candidate in chosen:
            server.canned[user_message(task, candidate.substitute)] = Canned("accept", logprobs=nan)
        capsys.readouterr()
        assert swords_main(judge_args(server, tasks, output)) == 0
        out, err = capsys.readouterr()
    assert "failed items: 4 (0 not a label, 4 no answer)" in out
    assert err.count("the server's answer is malformed (its JSON holds NaN or Infinity") == 3  # the first three
    written = records(output)
    assert len(written) == 6 and {(r["task"], r["substitute"]) for r in written}.isdisjoint(
        {(task.task, candidate.substitute) for task, candidate in chosen}
    )
    assert "NaN" not in output.read_text()
    with LLMServer(generic="accept", models_owned_by="vllm") as server:
        server.canned = {user_message(t, c.substitute): Canned("accept", logprobs=nan) for t, c in items(tasks)}
        line = refused(capsys, judge_args(server, tasks, tmp_path / "all.jsonl"))
    assert "no candidate asked got an answer (10 asked; last: no answer: the server's answer is malformed" in line
    assert nothing_written(tmp_path / "all.jsonl")
