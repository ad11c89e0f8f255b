"""swords_metric's prediction files and `swords evaluate` on them: both file formats round trip, the command's JSON
and table give the published figures and compare two runs, and a bad file, a file for another dataset or an
unknown split is one clear line."""

from __future__ import annotations

import json
import subprocess

import pytest

from swords_metric import read_predictions, write_predictions

from ..conftest import run_swords
from .conftest import THESAURUS_PUBLISHED


def run_evaluate(*args: str) -> subprocess.CompletedProcess:
    return run_swords("evaluate", *args)


@pytest.fixture(scope="module")
def thesaurus_files(thesaurus_oracle, tmp_path_factory):
    folder = tmp_path_factory.mktemp("predictions")
    ranked = {tid: [(s, -float(i)) for i, s in enumerate(items)] for tid, items in thesaurus_oracle.items()}
    write_predictions(folder / "thesaurus.json", ranked, substitutes_lemmatized=False)
    write_predictions(folder / "thesaurus.jsonl", ranked)
    write_predictions(folder / "top3.jsonl.gz", {tid: items[:3] for tid, items in ranked.items()})
    return folder


def test_both_file_formats_round_trip(thesaurus_files, thesaurus_oracle):
    upstream, meta = read_predictions(thesaurus_files / "thesaurus.json")
    jsonl, meta_jsonl = read_predictions(thesaurus_files / "thesaurus.jsonl")
    assert meta["format"] == "upstream" and meta_jsonl["format"] == "jsonl"
    assert upstream == jsonl
    assert [s for s, _ in upstream[next(iter(thesaurus_oracle))]] == next(iter(thesaurus_oracle.values()))


def test_cli_json_matches_the_published_figures(thesaurus_files):
    result = run_evaluate(
        "--dataset",
        "swords",
        "--split",
        "test",
        "--predictions",
        str(thesaurus_files / "thesaurus.json"),
        "--json",
        "--bootstrap",
        "0",
    )
    assert result.returncode == 0, result.stderr
    metrics = json.loads(result.stdout)
    assert {name: round(metrics[name], 1) for name in THESAURUS_PUBLISHED} == THESAURUS_PUBLISHED


@pytest.mark.slow  # 5 s on two busy cores (load 4-6)
def test_cli_table_and_compare(thesaurus_files):
    table = run_evaluate("--predictions", str(thesaurus_files / "thesaurus.jsonl"), "--bootstrap", "50")
    assert table.returncode == 0, table.stderr
    assert "lenient   12.00" in table.stdout and "signature: swords-metric" in table.stdout
    compare = run_evaluate(
        "--compare",
        str(thesaurus_files / "thesaurus.jsonl"),
        str(thesaurus_files / "top3.jsonl.gz"),
        "--bootstrap",
        "100",
    )
    assert compare.returncode == 0, compare.stderr
    assert "gap" in compare.stdout and "A - B" in compare.stdout


BAD_FILES = {
    "unknown-id.jsonl": ('{"id": "t:nope", "substitutes": ["a"]}\n', "not in swords test"),
    "non-string.jsonl": (None, "is not a string"),
    "nan.json": (None, "is NaN"),
    "text-score.jsonl": (None, "'high' is not a number"),
    "shape.json": ("[1, 2, 3]", "expected a JSON object"),
    "substitutes-list.json": ('{"substitutes_lemmatized": true, "substitutes": [1, 2]}', "must map target ids"),
    "no-substitutes.json": ('{"substitutes_lemmatized": false}', "needs 'substitutes'"),
    "duplicate-key.json": (None, "appears twice in one JSON object"),
    "bad-line.jsonl": (None, ":2: not JSON"),
    "missing-key.jsonl": ('{"substitutes": []}\n', ":1: expected an object with 'id'"),
    "duplicate.jsonl": (None, "appears twice"),
    "empty.jsonl": ("", "empty file"),
    "binary.jsonl": (b'{"id": "x",\n "substitutes": ["\xff"]}', ":2: not UTF-8 text (byte 0xff"),
    "huge-int.jsonl": (None, "too large"),
    # What the file is instead, and what is read: a metrics file (named .json too), TSAR-2022's TSV, ProLex's CSV.
    "run.metrics.json": (None, ": a metrics file (the figures swords evaluate and swords run write), not predictions"),
    "run.tsv": ("She is bright.\tbright\tclever\n", ":1: not JSON: a .tsv file (TSAR-2022's format"),
    "run.csv": ("id,substitutes\n", ":1: not JSON: a .csv file (ProLex's format, scored on that benchmark)"),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
@pytest.mark.slow  # 6 s on two cores
def test_bad_prediction_files_get_one_clear_line(name, swords_test_rows, tmp_path):
    tid = swords_test_rows[0]["id"]
    content, message = BAD_FILES[name]
    generated = {
        "non-string.jsonl": json.dumps({"id": tid, "substitutes": [["word", 1.0], [7, 0.5]]}) + "\n",
        # Python's json writes NaN and Infinity, as a careless producer would.
        "nan.json": json.dumps({"substitutes_lemmatized": True, "substitutes": {tid: [["word", float("nan")]]}}),
        "text-score.jsonl": json.dumps({"id": tid, "substitutes": [["word", "high"]]}) + "\n",
        "duplicate-key.json": f'{{"substitutes": {{"{tid}": ["a"], "{tid}": ["b"]}}}}',
        "huge-int.jsonl": f'{{"id": "{tid}", "substitutes": [["word", 1{"0" * 400}]]}}\n',
        "bad-line.jsonl": json.dumps({"id": tid, "substitutes": []}) + "\n{oops\n",
        "duplicate.jsonl": (json.dumps({"id": tid, "substitutes": []}) + "\n") * 2,
        "run.metrics.json": json.dumps({"lenient_a_p@10": 24.2, "lenient_a_f@10": 33.9}, indent=2),  # as run writes
    }
    content = generated.get(name, content)
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    result = run_evaluate("--predictions", str(path), "--bootstrap", "0")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert message in lines[0] and (name in lines[0] or "not in" in lines[0])


def test_a_file_for_another_dataset_is_named_as_such(thesaurus_files):
    result = run_evaluate("--dataset", "coinco", "--predictions", str(thesaurus_files / "thesaurus.json"))
    # 55 SWORDS test targets are CoInCo test targets under the same upstream id (same context, word, POS).
    assert result.returncode == 2 and "707 of 762 target ids are not in coinco test" in result.stderr
    assert "an upstream SWORDS id" in result.stderr and "are ids of swords test" in result.stderr
    assert "(use --dataset swords --split test)" in result.stderr and len(result.stderr.splitlines()) == 1


def test_unknown_split_is_one_line():
    result = run_evaluate("--dataset", "semeval07", "--split", "dev", "--predictions", "x.jsonl")
    assert result.returncode == 2 and "has no split 'dev'" in result.stderr
