"""Substitutes (and file names) that a system or a user may hand the metric, written and shown so that nothing
runs and nothing splits: spreadsheet formulas in a CSV details file, carriage returns and newlines inside a
field, ESC sequences, lone surrogates (legal as JSON escapes), infinite scores. Each is read from a real
predictions file, scored, written in every details format and printed by a real `swords evaluate`."""

from __future__ import annotations

import csv
import json

import pandas as pd
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
import pytest

import swords_dataset
from swords_metric import MetricInputError, Scorer
from swords_metric.details.formats import EXTENSIONS as DETAILS_EXTENSIONS

from ..baselines.run_helpers import swords
from .real_systems import COINCO_ORACLE

FORMULAS = [
    '=HYPERLINK("http://example.com","x")',
    "+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1)",
    "\tindented",
    "\rreturned",
    "'quoted",
]
CONTROLS = ["car\rriage", "new\nline", "x\x1b[31mred\x1b[0m", "a\ud800b", "bidi\u202eevil"]
HOSTILE = CONTROLS + FORMULAS  # the controls first: the report shows a top's first six


def hostile_predictions(folder, name: str = "hostile.jsonl", score=None):
    """The CoInCo oracle's first three targets, the first answered with the hostile words first (so that they are
    its top, shown in the report), scored by position (or all with `score`)."""
    lines = COINCO_ORACLE.read_text().splitlines()[:3]
    first = json.loads(lines[0])
    words = HOSTILE + [substitute for substitute, _ in first["substitutes"]]
    first["substitutes"] = [[word, score if score is not None else -position] for position, word in enumerate(words)]
    path = folder / name
    # json.dumps writes "\ud800" as a JSON escape, as a generator's JSON would carry it
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    return path, first["id"]


def written_substitutes(path) -> list:
    """The `substitute` field of every substitute record of a details file, read with the format's own reader."""
    if path.suffix == ".jsonl":
        return [
            record["substitute"]
            for record in map(json.loads, path.read_text(encoding="utf-8").splitlines())
            if record["kind"] == "substitute"
        ]
    if path.suffix == ".parquet":
        table = pq.read_table(path)
        return [row["substitute"] for row in table.to_pylist() if row["kind"] == "substitute"]
    with open(path, newline="", encoding="utf-8") as f:
        return [row["substitute"] for row in csv.DictReader(f) if row["kind"] == "substitute"]


@pytest.fixture(scope="module")
def details(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    predictions, _ = hostile_predictions(folder)
    outputs = {}
    for suffix in DETAILS_EXTENSIONS:
        done = swords(
            "evaluate",
            "--predictions",
            str(predictions),
            "--details",
            str(folder / f"d{suffix}"),
            "--bootstrap",
            "0",
            "--given-only",
            "--worst",
            "3",
        )
        assert done.returncode == 0, done.stderr
        outputs[suffix] = done
    return folder, outputs


@pytest.mark.slow  # 4 s on two cores
def test_csv_cells_a_spreadsheet_would_run_are_neutralised_reversibly(details):
    folder, _ = details
    cells = written_substitutes(folder / "d.csv")[: len(HOSTILE)]
    assert cells[len(CONTROLS) :] == ["'" + word for word in FORMULAS]  # OWASP's rule; "'" itself doubled
    assert all(not cell or cell[0] not in "=+-@\t\r" for cell in written_substitutes(folder / "d.csv"))
    undone = [cell[1:] if cell.startswith("'") else cell for cell in cells]  # the card's rule, by hand
    assert undone == [word.replace("\ud800", "\ufffd") for word in HOSTILE]  # UTF-8 has no lone surrogate
    assert written_substitutes(folder / "d.jsonl")[: len(HOSTILE)] == HOSTILE  # JSONL keeps the text as it is
    parquet = written_substitutes(folder / "d.parquet")[: len(HOSTILE)]
    assert parquet == [word.replace("\ud800", "\ufffd") for word in HOSTILE]


def test_a_carriage_return_in_a_csv_field_does_not_split_its_row(details):
    folder, _ = details
    path = folder / "d.csv"
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    width = len(rows[0])
    assert {len(row) for row in rows} == {width}
    as_pyarrow = pa_csv.read_csv(
        path,
        parse_options=pa_csv.ParseOptions(newlines_in_values=True),
        convert_options=pa_csv.ConvertOptions(
            column_types={name: "string" for name in rows[0]}, strings_can_be_null=False
        ),
    )
    as_pandas = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert as_pyarrow.num_rows == as_pandas.shape[0] == len(rows) - 1
    assert [list(row.values()) for row in as_pyarrow.to_pylist()] == rows[1:]
    assert as_pandas.values.tolist() == rows[1:]
    assert "car\rriage" in [row[rows[0].index("substitute")] for row in rows]


def test_a_lone_surrogate_is_kept_in_jsonl_and_replaced_in_utf8_formats(details):
    folder, _ = details
    raw = (folder / "d.jsonl").read_bytes()
    raw.decode("utf-8")  # valid UTF-8 throughout
    assert b'"a\\ud800b"' in raw  # JSON's escape: json.loads gives the lone surrogate back
    assert "a\ud800b" in written_substitutes(folder / "d.jsonl")
    for suffix in (".csv", ".parquet"):
        assert "a\ufffdb" in written_substitutes(folder / f"d{suffix}")
    (folder / "d.csv").read_bytes().decode("utf-8")


def test_the_report_shows_every_word_escaped_one_line_each(details):
    _, outputs = details
    for done in outputs.values():
        assert "\x1b" not in done.stdout + done.stderr and "\r" not in done.stdout + done.stderr
        assert "\u202e" not in done.stdout and "\ud800" not in done.stdout
        (top,) = [line for line in done.stdout.splitlines() if line.startswith("      top: car")]
        assert top.startswith(
            "      top: car\\rriage, new\\nline, x\\x1b[31mred\\x1b[0m, a\\ud800b, bidi\\u202eevil, "
            '=hyperlink("http://example.com","x"), … ('
        )


@pytest.mark.slow  # 4 s on two busy cores (load 4-6)
def test_a_file_name_with_control_characters_is_shown_escaped(tmp_path):
    predictions, _ = hostile_predictions(tmp_path, "sys\x1b[2Jtem\rname\n.jsonl")
    done = swords("evaluate", "--predictions", str(predictions), "--bootstrap", "0", "--worst", "1")
    assert done.returncode == 0, done.stderr
    shown = str(predictions).replace("\x1b", "\\x1b").replace("\r", "\\r").replace("\n", "\\n")
    assert f"{shown} on swords test" in done.stdout.splitlines()
    assert f"note: 759 of 762 scored targets are not in {shown}: scored as empty answers, as upstream scores them" in (
        done.stderr.splitlines()
    ), done.stderr
    assert "\x1b" not in done.stdout + done.stderr and "\r" not in done.stdout + done.stderr
    compared = swords(
        "evaluate", "--compare", str(predictions), str(COINCO_ORACLE), "--bootstrap", "100", "--differences", "2"
    )
    assert compared.returncode == 0, compared.stderr
    assert "\x1b" not in compared.stdout + compared.stderr and "\r" not in compared.stdout + compared.stderr
    assert compared.stdout.splitlines()[1].split()[:2] == ["metric", shown]  # under the line of its unit
    assert any(f"note: the files cover different targets ({shown}: 3," in line for line in compared.stderr.splitlines())
    missing = tmp_path / "gone\x1b[31m.jsonl"
    with pytest.raises(MetricInputError) as raised:
        Scorer.from_dataset("swords", "test").read(missing)
    assert "gone\\x1b[31m.jsonl" in str(raised.value) and "\x1b" not in str(raised.value)


def test_differences_show_both_systems_words_escaped(tmp_path):
    predictions, _ = hostile_predictions(tmp_path)
    nothing = tmp_path / "nothing.jsonl"
    nothing.write_text(
        "".join(
            json.dumps({"id": json.loads(line)["id"], "substitutes": ["zzz"]}) + "\n"
            for line in predictions.read_text().splitlines()
        )
    )
    done = swords("evaluate", "--compare", str(predictions), str(nothing), "--bootstrap", "100")
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("           A: car")]
    assert line.startswith("           A: car\\rriage, new\\nline, x\\x1b[31mred\\x1b[0m, a\\ud800b, bidi\\u202eevil")
    assert "\x1b" not in done.stdout and "\r" not in done.stdout


@pytest.mark.slow  # 4 s on two cores
def test_every_interface_scores_a_lone_surrogate_as_given(tmp_path):
    import swords_metric

    predictions, target = hostile_predictions(tmp_path)
    scorer = Scorer.from_dataset("swords", "test")
    prepared = scorer.read(predictions)
    result = scorer.score(prepared, bootstrap=50)
    summary = scorer.analyze(prepared, worst=762)
    assert scorer.compare(prepared, prepared, bootstrap=100)["metrics"]["gap"]["difference"] == 0
    mapping = {json.loads(line)["id"]: json.loads(line)["substitutes"] for line in predictions.read_text().splitlines()}
    assert "a\ud800b" in [word for word, _ in mapping[target]]
    assert scorer.score(mapping)["lenient_a_f@10"] == result["lenient_a_f@10"]
    worst = next(record for record in summary["worst_targets"] if record["id"] == target)
    assert "a\ud800b" in worst["top"]
    rows = swords_dataset.rows("swords", "test")
    in_order = [mapping.get(row["id"]) or [] for row in rows]
    computed = swords_metric.load().compute(predictions=in_order, references=rows)
    assert computed["lenient_a_f@10"] == Scorer(rows).score(in_order)["lenient_a_f@10"]
    assert computed["strict_a_p@10"] == Scorer(rows).score(in_order)["strict_a_p@10"]
    two_surrogates = {target: [["a\ud800b", 1.0], ["a\udc00b", 0.5]]}  # distinct: each counts
    as_given = [two_surrogates.get(row["id"]) or [] for row in rows]
    assert computed_equal(
        swords_metric.load().compute(predictions=as_given, references=rows), Scorer(rows).score(as_given)
    )


def computed_equal(a: dict, b: dict) -> bool:
    return all(a[key] == b[key] for key in b if isinstance(b[key], float))


def test_infinite_scores_are_standard_json_in_a_jsonl_details_file(tmp_path):
    predictions = tmp_path / "infinite.jsonl"
    first = json.loads(COINCO_ORACLE.read_text().splitlines()[0])
    first["substitutes"] = [["first", "inf"], ["last", "-inf"], *first["substitutes"]]
    predictions.write_text(json.dumps(first) + "\n")
    details = tmp_path / "d.jsonl"
    done = swords("evaluate", "--predictions", str(predictions), "--details", str(details), "--bootstrap", "0")
    assert done.returncode == 0, done.stderr

    def refuse(constant):
        raise AssertionError(f"non-standard JSON: {constant}")

    records = [json.loads(line, parse_constant=refuse) for line in details.read_text().splitlines()]
    scores = {record["substitute"]: record["score"] for record in records if record["kind"] == "substitute"}
    assert scores["first"] == "inf" and scores["last"] == "-inf" and float(scores["first"]) == float("inf")
