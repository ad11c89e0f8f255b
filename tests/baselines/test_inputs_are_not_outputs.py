"""An output that is one of the command's own inputs is refused, --force or not, before any work, in one line naming
both (issue 47: `judge llm --tasks T --output T --force` turned the tasks file into judgments that could no longer be
scored; `judge tasks --predictions P --output P --force` replaced the run's predictions). Each command of the
baselines that reads and writes files, with the input named four ways: the output's own path, another spelling of it,
a symbolic link to it and a hard link. The input is left byte for byte, and nothing is written beside it."""

from __future__ import annotations

import json

import pytest

from swords_lexsub.cli import main as swords_main

from ..input_names import WAYS, another_name, refusal, regular_files
from .judge_helpers import dev_tasks_file

JUDGE = ["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--cache-dir", "off", "--force"]  # port 9: nothing


def refused(args: list[str], capsys) -> str:
    """The one line of a command refused before any work (exit 2)."""
    assert swords_main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


@pytest.mark.parametrize("way", WAYS)
def test_judge_llm_never_writes_over_its_tasks(way, tmp_path, dev, capsys):
    tasks = dev_tasks_file(tmp_path / "tasks.jsonl", dev)
    given = another_name(tasks, way)
    before = regular_files(tmp_path)
    line = refused(["judge", "llm", "--tasks", str(given), "--output", str(tasks), *JUDGE], capsys)
    assert line == refusal(f"--output {tasks}", "--tasks", given, way)
    assert regular_files(tmp_path) == before  # no journal, no lock, no judgments


def test_judge_llm_s_journal_and_agreement_are_its_outputs_and_inputs_too(tmp_path, dev, capsys):
    """The journal (OUTPUT.partial) is written, and with --force removed: it may not be the tasks file; an
    --agreement file is read: it may not be the output."""
    tasks = dev_tasks_file(tmp_path / "j.jsonl.partial", dev)
    agreement = tmp_path / "agreement.json"
    agreement.write_text("{}")
    before = regular_files(tmp_path)
    output = tmp_path / "j.jsonl"
    line = refused(["judge", "llm", "--tasks", str(tasks), "--output", str(output), *JUDGE], capsys)
    assert line == refusal(f"--output {output}", "--tasks", tasks, "the same path", written=tasks)
    args = ["judge", "llm", "--tasks", str(tasks), "--agreement", str(agreement), "--output", str(agreement), *JUDGE]
    assert refused(args, capsys) == refusal(f"--output {agreement}", "--agreement", agreement, "the same path")
    assert regular_files(tmp_path) == before


@pytest.mark.parametrize("way", WAYS)
def test_judge_tasks_never_writes_over_the_run_s_predictions(way, tmp_path, dev, capsys):
    predictions = tmp_path / "run.jsonl"
    predictions.write_text(
        "".join(json.dumps({"id": row["id"], "substitutes": [["happy", 1.0]]}) + "\n" for row in dev[:3])
    )
    given = another_name(predictions, way)
    before = regular_files(tmp_path)
    args = ["judge", "tasks", "--dataset", "swords", "--split", "dev", "--predictions", str(given)]
    line = refused([*args, "--output", str(predictions), "--force"], capsys)
    assert line == refusal(f"--output {predictions}", "--predictions", given, way)
    assert regular_files(tmp_path) == before


@pytest.mark.parametrize("way", WAYS)
def test_judge_validate_never_writes_over_its_local_model(way, tmp_path, capsys):
    model = tmp_path / "judge.gguf"
    model.write_bytes(b"GGUF" + bytes(60))  # refused before the model is read: its content does not matter
    given = another_name(model, way)
    before = regular_files(tmp_path)
    line = refused(["judge", "validate", "--local", "--model", str(given), "--output", str(model), "--force"], capsys)
    assert line == refusal(f"--output {model}", "--model", given, way)
    assert regular_files(tmp_path) == before


@pytest.mark.parametrize("way", WAYS)
def test_swords_run_never_writes_over_a_file_its_system_reads(way, tmp_path, recorded_file, capsys):
    """gpt3-recorded reads upstream's file of GPT-3 completions (--recorded FILE.json); a run with --output
    FILE.jsonl writes FILE.json, its predictions in the upstream format. With --force it replaced the completions."""
    recorded = tmp_path / "gpt3.json"
    recorded.write_text(json.dumps(recorded_file))  # upstream's file of the SWORDS authors' release, unzipped
    given = another_name(recorded, way)
    before = regular_files(tmp_path)
    output = tmp_path / "gpt3.jsonl"
    args = ["run", "--system", "gpt3-recorded", "--dataset", "swords", "--split", "dev", "--output", str(output)]
    line = refused([*args, "--bootstrap", "0", "--no-progress", "--force", "--recorded", str(given)], capsys)
    assert line == refusal(f"--output {output}", "--recorded", given, way, written=recorded)
    assert regular_files(tmp_path) == before


@pytest.mark.slow  # 4 s on two cores
def test_swords_run_reads_a_hard_link_of_its_input_when_its_outputs_are_elsewhere(tmp_path, recorded_file):
    """The refusal is of the output, not of the input's name: the same run into another output goes through."""
    recorded = tmp_path / "gpt3.json"
    recorded.write_text(json.dumps(recorded_file))
    given = another_name(recorded, "a hard link")
    args = ["run", "--system", "gpt3-recorded", "--dataset", "swords", "--split", "dev", "--bootstrap", "0"]
    assert (
        swords_main([*args, "--no-progress", "--output", str(tmp_path / "other.jsonl"), "--recorded", str(given)]) == 0
    )
    assert recorded.read_text() == json.dumps(recorded_file) and (tmp_path / "other.json").is_file()
