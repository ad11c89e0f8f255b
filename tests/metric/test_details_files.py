"""`--details FILE`: where it may go (each fault one line, found before any scoring work, made for real: a missing
folder, a file in the way, a read-only folder, kernel folders, a full disk), which files it may replace (only its
own, recognised by content), atomicity, and the three formats holding the same records."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from swords_metric import MetricInputError, Scorer, is_details_file
from swords_metric.details.formats import EXTENSIONS as DETAILS_EXTENSIONS

from ..baselines.run_helpers import SWORDS, one_line, swords
from ..conftest import REPO_ROOT
from .real_systems import COINCO_ORACLE


def evaluate(*extra: str, predictions=COINCO_ORACLE):
    return swords("evaluate", "--predictions", str(predictions), "--bootstrap", "0", *extra)


def test_a_bad_extension_is_one_line_found_before_anything_else(tmp_path):
    missing = tmp_path / "missing.jsonl"  # were the predictions read first, this would be the complaint
    for name, message in (("d.txt", "extension '.txt'"), ("details", "no extension")):
        line = one_line(evaluate("--details", str(tmp_path / name), predictions=missing))
        assert f"--details {tmp_path / name}" in line and message in line and ".jsonl, .csv or .parquet" in line
    assert not list(tmp_path.iterdir())


def test_places_where_no_details_file_can_go(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    folder = tmp_path / "folder.jsonl"
    folder.mkdir()
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    for path, message in (
        (tmp_path / "missing" / "d.jsonl", f"the folder {tmp_path / 'missing'} does not exist"),
        (notes / "d.jsonl", f"{notes} is a file, not a folder"),
        (folder, "is a folder"),
        (fifo, "not a regular file (a pipe"),
        ("/proc/d.jsonl", "cannot go under /proc"),
        ("/dev/shm/d.jsonl", "cannot go under /dev"),
    ):
        line = one_line(evaluate("--details", str(path)))
        assert message in line and "--details" in line, line
    assert notes.read_text() == "mine" and not (tmp_path / "missing").exists() and not list(folder.iterdir())


def test_a_read_only_folder(tmp_path):
    """Root writes anywhere, so as root the command runs without the capabilities that let it (setpriv)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        prefix = []
        if os.geteuid() == 0:
            if shutil.which("setpriv") is None:
                pytest.skip("running as root without setpriv: every folder is writable")
            prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]
        done = subprocess.run(
            [*prefix, *SWORDS, "evaluate", "--predictions", str(COINCO_ORACLE), "--details", str(locked / "d.jsonl")],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        locked.chmod(0o755)
    line = one_line(done)
    assert f"cannot write in the folder {locked}" in line and "permission denied" in line.lower()
    assert not list(locked.iterdir())


def _users_parquet(path):
    pq.write_table(pa.table({"id": ["x"], "score": [1.0]}), path)


@pytest.mark.parametrize(
    ("name", "write"),
    [
        ("mine.jsonl", lambda path: path.write_text('{"id": "t:1", "substitutes": ["a"]}\n')),
        ("mine.csv", lambda path: path.write_text("id,score\nx,1\n")),
        ("mine.parquet", _users_parquet),
        ("looks-like-ours.jsonl", lambda path: path.write_text('{"kind": "header", "format": "something else"}\n')),
    ],
)
def test_a_file_the_toolkit_did_not_write_is_never_replaced(tmp_path, name, write):
    path = tmp_path / name
    write(path)
    before = path.read_bytes()
    line = one_line(evaluate("--details", str(path)))
    assert str(path) in line and "was not written by swords evaluate --details" in line
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == [name]


@pytest.mark.parametrize("suffix", DETAILS_EXTENSIONS)
@pytest.mark.slow  # 9 s on two cores
def test_its_own_details_file_is_replaced(tmp_path, suffix):
    path = tmp_path / f"details{suffix}"
    for _ in range(2):
        done = evaluate("--details", str(path))
        assert done.returncode == 0, done.stderr
    assert is_details_file(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [f".{path.name}.swords-record.json", path.name]


def test_a_full_disk_is_one_line_and_the_old_file_stays(small_disk):
    old = small_disk / "details.jsonl"
    old.write_text('{"kind": "header", "format": "swords-lexsub details", "version": 1}\n')  # ours by content
    line = one_line(evaluate("--details", str(old), "--force"))  # it has no record: --force replaces it
    assert f"{old}: no space left on the device" in line
    assert old.read_text().startswith('{"kind": "header"') and [p.name for p in small_disk.iterdir()] == [old.name]


def test_predictions_that_fail_midway_leave_the_old_details_file(tmp_path):
    details = tmp_path / "details.jsonl"
    assert evaluate("--details", str(details)).returncode == 0
    before = details.read_bytes()
    broken = tmp_path / "broken.jsonl"
    lines = COINCO_ORACLE.read_text().splitlines()
    broken.write_text("\n".join(lines[:300] + ['{"id": "t:nope", "substitutes": [1]}']) + "\n")
    assert "broken.jsonl:301: target t:nope" in one_line(evaluate("--details", str(details), predictions=broken))
    assert details.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == [
        ".details.jsonl.swords-record.json",
        "broken.jsonl",
        "details.jsonl",
    ]


def test_from_python_each_fault_is_a_metric_input_error(tmp_path):
    scorer = Scorer.from_dataset("swords", "test")
    (tmp_path / "mine.csv").write_text("a,b\n")
    for path, message in (
        (tmp_path / "d.txt", "extension"),
        (tmp_path / "no" / "d.jsonl", "does not exist"),
        (tmp_path / "mine.csv", "was not written by"),
    ):
        with pytest.raises(MetricInputError, match=message):
            scorer.read(COINCO_ORACLE, details=path)
    with pytest.raises(MetricInputError, match="already prepared"):
        scorer.prepare(scorer.read(COINCO_ORACLE), details=tmp_path / "d.jsonl")


def _typed(name: str, text: str):
    from swords_metric.details.formats import SPREADSHEET_QUOTE, field_type

    if text == "":
        return None
    kind = field_type(name)

    def spreadsheet_text(cell: str) -> str:  # spreadsheet_safe's inverse: one leading quote removed
        return cell[1:] if cell.startswith(SPREADSHEET_QUOTE) else cell

    return {"string": spreadsheet_text, "bool": lambda t: t == "true", "list": json.loads, "float": float, "int": int}[
        kind
    ](text)


@pytest.mark.slow  # 4 s on two busy cores (load 4-6)
def test_the_three_formats_hold_the_same_records(tmp_path):
    scorer = Scorer.from_dataset("swords", "test")
    paths = {suffix: tmp_path / f"details{suffix}" for suffix in DETAILS_EXTENSIONS}
    for path in paths.values():
        scorer.read(COINCO_ORACLE, details=path)
    header, *records = [json.loads(line) for line in paths[".jsonl"].read_text().splitlines()]
    with open(paths[".csv"], newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    columns = rows[0]
    assert columns[:5] == ["kind", "id", "upstream_id", "target", "pos"]
    as_csv = [{name: _typed(name, cell) for name, cell in zip(columns, row, strict=True)} for row in rows[1:]]
    as_parquet = pq.read_table(paths[".parquet"]).to_pylist()
    full = [{name: record.get(name) for name in columns} for record in records]
    assert as_csv == full and as_parquet == full and len(full) > 6000
    metadata = json.loads(pq.read_schema(paths[".parquet"]).metadata[b"swords_lexsub"])
    assert metadata["signature"] == header["signature"] and metadata["format"] == "swords-lexsub details"


@pytest.mark.slow  # two real systems compared target by target: about a minute
def test_compare_writes_one_record_per_target_with_both_systems(tmp_path, real_systems):
    if "wordnet+embedding" not in real_systems:
        pytest.skip("the default system did not run here")
    a, b, details = real_systems["wordnet+embedding"], COINCO_ORACLE, tmp_path / "pairs.csv"
    done = swords(
        "evaluate", "--compare", str(a), str(b), "--bootstrap", "200", "--details", str(details), "--differences", "3"
    )
    assert done.returncode == 0, done.stderr
    assert "Targets where the systems differ most" in done.stdout and done.stdout.count("           A: ") == 3
    with open(details, newline="", encoding="utf-8") as f:
        pairs = list(csv.DictReader(f))
    assert len(pairs) == 762 and {pair["kind"] for pair in pairs} == {"pair"}
    largest = max(pairs, key=lambda pair: abs(float(pair["difference"])))
    assert float(largest["difference"]) == float(largest["a_lenient_a_f"]) - float(largest["b_lenient_a_f"])
    assert largest["id"] in done.stdout and json.loads(largest["b_top"])
