"""`swords evaluate --details FILE` never writes over a file the command reads (issue 47; swords_lexsub/files.py's
refuse_input_as_output): the predictions, either file of --compare, a --judgments file, named as given or another
way (another spelling, a symbolic link, a hard link). One line naming both, --force or not, before any work; the file
is left byte for byte."""

from __future__ import annotations

import json

import pytest

from swords_lexsub.cli import main as swords_main

from ..input_names import WAYS, another_name, refusal, regular_files


def predictions(path, ids: list[str]):
    path.write_text("".join(json.dumps({"id": i, "substitutes": [["happy", 1.0]]}) + "\n" for i in ids))
    return path


def refused(args: list[str], capsys) -> str:
    assert swords_main(["evaluate", "--dataset", "swords", "--split", "dev", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


@pytest.mark.parametrize("way", WAYS)
def test_details_never_go_over_the_predictions_scored(way, tmp_path, capsys):
    import swords_dataset

    ids = [row["id"] for row in swords_dataset.rows("swords", "dev")[:3]]
    scored = predictions(tmp_path / "run.jsonl", ids)
    given = another_name(scored, way)
    before = regular_files(tmp_path)
    line = refused(["--predictions", str(given), "--details", str(scored), "--force"], capsys)
    assert line == refusal(f"--details {scored}", "--predictions", given, way)
    other = predictions(tmp_path / "other.jsonl", ids[:1])
    line = refused(["--compare", str(other), str(given), "--details", str(scored)], capsys)
    assert line == refusal(f"--details {scored}", "--compare", given, way)
    line = refused(["--predictions", str(other), "--judgments", str(given), "--details", str(scored)], capsys)
    assert line == refusal(f"--details {scored}", "--judgments", given, way)
    assert regular_files(tmp_path) == {**before, "other.jsonl": other.read_bytes()}
    # The record of what was written beside the details file is written too: it may not be an input either.
    record = predictions(tmp_path / ".d.jsonl.swords-record.json", ids)
    details = tmp_path / "d.jsonl"
    line = refused(["--predictions", str(record), "--details", str(details)], capsys)
    assert line == refusal(f"--details {details}", "--predictions", record, "the same path", written=record)
