"""Which details file `--details` may replace: one swords evaluate wrote and nobody changed since. Each edit is made
for real on a real file (lines appended or changed, a CSV cut to its header plus other rows, a Parquet file
re-written by pyarrow with our schema metadata and a column more, a details file with no record, as the release
before this one wrote them) and refused in one line naming `--force` (`details_force=True` from Python), the file
left byte for byte; `--force` replaces it. A symbolic link at the path is refused, naming where it points, and
every run says on stderr which file the details went to."""

from __future__ import annotations

import csv
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from swords_metric import MetricInputError, Scorer
from swords_metric.details.formats import EXTENSIONS as DETAILS_EXTENSIONS

from ..baselines.run_helpers import one_line, swords
from .real_systems import COINCO_ORACLE


def evaluate(*extra: str, predictions=COINCO_ORACLE):
    return swords("evaluate", "--predictions", str(predictions), "--bootstrap", "0", "--no-analysis", *extra)


def written(path, *extra: str) -> str:
    """Write the details file with swords evaluate; its stderr."""
    done = evaluate("--details", str(path), *extra)
    assert done.returncode == 0, done.stderr
    return done.stderr


def record_of(path):
    return path.with_name(f".{path.name}.swords-record.json")


def append_a_line(path):
    with open(path, "a", encoding="utf-8") as f:
        f.write('{"kind": "target", "id": "mine"}\n')


def change_a_line(path):
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[5] = lines[5].replace('"substitute"', '"substitute" ', 1)
    path.write_text("".join(lines), encoding="utf-8")


def cut_to_header_and_own_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        header = next(csv.reader(f))
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\r\n")
        writer.writerow(header)
        writer.writerow(["mine"] * len(header))


def rewrite_parquet_with_a_column(path):
    table = pq.read_table(path)  # keeps the schema's metadata, ours included
    table = table.append_column("my_notes", pa.array(["checked"] * table.num_rows))
    pq.write_table(table, path)
    assert b"swords_lexsub" in pq.read_schema(path).metadata


EDITS = [
    ("details.jsonl", append_a_line),
    ("details.jsonl", change_a_line),
    ("details.csv", append_a_line),
    ("details.csv", cut_to_header_and_own_rows),
    ("details.parquet", rewrite_parquet_with_a_column),
]


@pytest.mark.parametrize(("name", "edit"), EDITS, ids=[f"{name}-{edit.__name__}" for name, edit in EDITS])
@pytest.mark.slow  # 25 s on two cores
def test_a_details_file_edited_since_is_refused_and_force_replaces_it(tmp_path, name, edit):
    path = tmp_path / name
    written(path)
    edit(path)
    edited = path.read_bytes()
    line = one_line(evaluate("--details", str(path)))
    assert line == (
        f"swords: error: --details {path}: changed since swords evaluate wrote it (edited, appended to "
        "or re-written): it is left as it is (--force replaces it)"
    )
    assert path.read_bytes() == edited
    written(path, "--force")
    assert path.read_bytes() != edited
    written(path)  # replaced with --force, it is swords evaluate's again


@pytest.mark.parametrize("suffix", DETAILS_EXTENSIONS)
@pytest.mark.slow  # 12 s on two cores
def test_a_details_file_without_its_record_is_refused(tmp_path, suffix):
    """As the release before this one left them: recognised by content, with no record of what was written."""
    path = tmp_path / f"details{suffix}"
    written(path)
    record_of(path).unlink()
    before = path.read_bytes()
    line = one_line(evaluate("--details", str(path)))
    assert f"--details {path}: a details file with no record of what swords evaluate wrote there" in line
    assert "--force replaces it" in line and path.read_bytes() == before
    written(path, "--force")
    assert record_of(path).is_file()


@pytest.mark.slow  # 3 s on two cores
def test_the_file_a_kill_left_in_place_is_still_replaceable(tmp_path):
    """The record is written just before the rename and lists both files: were the process killed between the
    two, the file still in place (the previous one) matches it. Here the previous file is put back by hand."""
    path = tmp_path / "details.jsonl"
    written(path)
    previous = path.read_bytes()
    three = tmp_path / "three.jsonl"
    three.write_text("".join(COINCO_ORACLE.read_text().splitlines(keepends=True)[:3]))
    done = evaluate("--details", str(path), predictions=three)
    assert done.returncode == 0, done.stderr
    path.write_bytes(previous)
    written(path)


@pytest.mark.slow  # 4 s on two busy cores (load 4-6)
def test_from_python_the_message_names_details_force(tmp_path):
    scorer = Scorer.from_dataset("swords", "test")
    path = tmp_path / "details.csv"
    scorer.read(COINCO_ORACLE, details=path)
    append_a_line(path)
    edited = path.read_bytes()
    with pytest.raises(MetricInputError, match=r"changed since swords evaluate wrote it .*details_force=True"):
        scorer.read(COINCO_ORACLE, details=path)
    assert path.read_bytes() == edited
    prepared = scorer.read(COINCO_ORACLE, details=path, details_force=True)
    assert prepared.details_file == (path, prepared.details_file[1]) and prepared.details_file[1] > 6000
    append_a_line(path)
    with pytest.raises(MetricInputError, match=r"details_force=True"):
        scorer.prepare({}, details=path)
    pairs = tmp_path / "pairs.parquet"
    assert scorer.write_comparison(pairs, prepared, prepared) == 762
    rewrite_parquet_with_a_column(pairs)
    with pytest.raises(MetricInputError, match=r"changed since swords evaluate wrote it .*force=True"):
        scorer.write_comparison(pairs, prepared, prepared)
    assert scorer.write_comparison(pairs, prepared, prepared, force=True) == 762


def test_a_file_of_the_users_is_refused_even_with_force(tmp_path):
    path = tmp_path / "results.csv"
    path.write_text("id,score\nx,1\n")
    line = one_line(evaluate("--details", str(path), "--force"))
    assert "was not written by swords evaluate --details" in line and path.read_text() == "id,score\nx,1\n"


def test_force_without_details_is_one_line():
    assert "--force goes with --details" in one_line(evaluate("--force"))


def test_something_else_where_the_record_goes_is_refused(tmp_path):
    path = tmp_path / "details.jsonl"
    record_of(path).write_text("my notes\n")
    line = one_line(evaluate("--details", str(path)))
    assert f"{record_of(path)} is in the way of the record" in line
    assert record_of(path).read_text() == "my notes\n" and not path.exists()


@pytest.mark.parametrize("suffix", DETAILS_EXTENSIONS)
@pytest.mark.slow  # 11 s on two cores
def test_a_symbolic_link_at_the_details_path_is_refused(tmp_path, suffix):
    target = tmp_path / f"real{suffix}"
    written(target)
    before = target.read_bytes()
    link = tmp_path / f"link{suffix}"
    link.symlink_to(target)
    dangling = tmp_path / f"dangling{suffix}"
    dangling.symlink_to(tmp_path / "nowhere" / f"d{suffix}")
    for path, points_to in ((link, target), (dangling, tmp_path / "nowhere" / f"d{suffix}")):
        for extra in ((), ("--force",)):
            line = one_line(evaluate("--details", str(path), *extra))
            assert line == (
                f"swords: error: --details {path}: a symbolic link (to {points_to}); writing would "
                "replace the link, not the file it points to: name the file itself"
            )
    assert link.is_symlink() and dangling.is_symlink() and target.read_bytes() == before
    with pytest.raises(MetricInputError, match="a symbolic link"):
        Scorer.from_dataset("swords", "test").read(COINCO_ORACLE, details=link)


@pytest.mark.slow  # 7 s on two busy cores (load 4-6)
def test_stderr_says_which_file_the_details_went_to(tmp_path):
    done = swords(
        "evaluate",
        "--predictions",
        str(COINCO_ORACLE),
        "--bootstrap",
        "0",
        "--no-analysis",
        "--details",
        "details.csv",
        cwd=tmp_path,
    )  # a relative path: the line gives the absolute one
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "details.csv", newline="", encoding="utf-8") as f:
        rows = sum(1 for _ in csv.reader(f)) - 1
    assert done.stderr.splitlines()[0] == f"details: {rows:,} records written to {tmp_path / 'details.csv'}"
    done = swords(
        "evaluate",
        "--compare",
        str(COINCO_ORACLE),
        str(COINCO_ORACLE),
        "--bootstrap",
        "100",
        "--details",
        str(tmp_path / "pairs.jsonl"),
    )
    assert done.returncode == 0, done.stderr
    assert f"details: 762 records written to {tmp_path / 'pairs.jsonl'}" in done.stderr.splitlines()
    records = [json.loads(line) for line in (tmp_path / "pairs.jsonl").read_text().splitlines()]
    assert len(records) == 763 and records[0]["kind"] == "header"
