"""The LLM judge's name as the metric compares judges' names (swords_metric.judge_id: NFC, trimmed, `LLM:` in any
case an LLM judge's `llm:`): the id `swords judge llm` writes, the `--agreement` entry it reads, the records of an
earlier run it keeps, and the entry `swords judge validate` replaces. A real server on 127.0.0.1."""

from __future__ import annotations

import json
import unicodedata

import pytest

from swords_baselines.judge.prompt import judge_id
from swords_lexsub.cli import main as swords_main
from swords_metric import read_judgments

from ..llm_server import LLMServer
from .judge_helpers import dev_tasks_file, records
from .test_judge_faults import error_line
from .test_judge_validate import validate

JUDGE = judge_id("judge-model")
FIGURES = {"candidates": 200, "kappa_acceptable": 0.25, "spearman": 0.3}


@pytest.fixture
def tasks(tmp_path, dev):
    return dev_tasks_file(tmp_path / "tasks.jsonl", dev)  # 2 targets, 3 candidates and 2 controls each


def judge_args(server: LLMServer, tasks, output, *extra: str, model: str = "judge-model") -> list[str]:
    return [
        "judge", "llm", "--tasks", str(tasks), "--output", str(output), "--base-url", server.base_url,
        "--model", model, "--cache-dir", "off", "--backoff", "0.01", "--timeout", "5", *extra,
    ]  # fmt: skip


def test_a_model_named_in_nfd_is_sent_as_given_and_judges_under_its_nfc_name(tasks, tmp_path):
    nfd = unicodedata.normalize("NFD", "José-model")
    assert nfd != "José-model"
    with LLMServer(generic="accept") as server:
        assert swords_main(judge_args(server, tasks, tmp_path / "j.jsonl", model=nfd)) == 0
        assert {r["body"]["model"] for r in server.requests} == {nfd}  # the server's model, as the user named it
    judges = {r["judge"] for r in read_judgments(tmp_path / "j.jsonl")}
    assert len(judges) == 1 and judges.pop().startswith("llm:José-model:")


def test_an_agreement_entry_keyed_llm_in_another_case_is_this_judge_s(tasks, tmp_path, capsys):
    validation, output = tmp_path / "validation.json", tmp_path / "j.jsonl"
    shouted = "LLM" + JUDGE[3:]
    validation.write_text(json.dumps({shouted: {"written_by": "swords judge validate", **FIGURES}}))
    with LLMServer(generic="accept") as server:
        assert swords_main(judge_args(server, tasks, output, "--agreement", str(validation))) == 0
        assert all(r["agreement"] == FIGURES and r["judge"] == JUDGE for r in records(output))
        both = {key: {"written_by": "swords judge validate", **FIGURES} for key in (shouted, JUDGE)}
        validation.write_text(json.dumps(both))
        capsys.readouterr()
        assert swords_main(judge_args(server, tasks, tmp_path / "x.jsonl", "--agreement", str(validation))) == 2
        line = error_line(capsys.readouterr().err)
        assert f"{shouted} and {JUDGE} are one judge" in line and not (tmp_path / "x.jsonl").exists()


def test_an_earlier_output_whose_records_say_llm_in_another_case_counts_as_done(tasks, tmp_path):
    output = tmp_path / "j.jsonl"
    with LLMServer(generic="reject") as server:
        assert swords_main(judge_args(server, tasks, output)) == 0
        output.write_text(output.read_text().replace('"judge": "llm:', '"judge": "LLM:'))
        asked = len(server.requests)
        assert swords_main(judge_args(server, tasks, output)) == 0
        assert len(server.requests) == asked  # the same judge's: nothing asked again
    assert [r["judge"] for r in records(output)] == [JUDGE] * 10


def test_validate_replaces_its_judge_s_entry_keyed_llm_in_another_case(tmp_path, capsys):
    output = tmp_path / "v.json"
    oracle = judge_id("oracle")
    earlier = {"written_by": "swords judge validate", **FIGURES}
    output.write_text(json.dumps({"LLM" + oracle[3:]: earlier, "llm:other:12345678": earlier}))
    with LLMServer(generic="reject") as server:  # 50 candidates, 15 of them acceptable: kappa 0, a measurement
        assert validate(capsys, server, output, "--sample", "50")[0] == 0
    entries = json.loads(output.read_text())
    assert sorted(entries) == sorted([oracle, "llm:other:12345678"]) and entries[oracle]["candidates"] == 50
