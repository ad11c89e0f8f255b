"""The ProLex and TSAR-2022 readers given a changed source, as a later release of these files could be: the real
files, edited here. A legitimate change is read (a 150 kB list of substitutes, a byte-order mark); one that gives
something other than words (numbers, None, lists, an empty complex word) or bytes that are not UTF-8 is one
BuildError naming the file and line, never a raw csv, Unicode or TypeError."""

from __future__ import annotations

import ast
import codecs
import csv
import io
import shutil
from pathlib import Path

import pytest

from swords_dataset.builder.errors import BuildError
from swords_dataset.builder.readers.prolex import csv_path, read_prolex
from swords_dataset.builder.readers.tsar2022 import gold_path, inputs_path, read_tsar2022


@pytest.fixture
def prolex_test(sources_dir, tmp_path) -> Path:
    copy = tmp_path / "ProLex_v1.0_test.csv"
    shutil.copy(sources_dir / csv_path("test"), copy)
    return copy


def raw_records(path: Path) -> tuple[list[str], list[list[str]]]:
    """(header, records) of the CSV, read here with the csv module (its field limit raised for the test's long
    cell, then put back)."""
    limit = csv.field_size_limit(2**24)
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.reader(f))
    finally:
        csv.field_size_limit(limit)
    return rows[0], rows[1:]


def write_records(path: Path, header: list[str], records: list[list[str]]) -> None:
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows([header, *records])
    path.write_text(text.getvalue(), encoding="utf-8")


def with_cell(path: Path, record: int, column: str, value: str) -> None:
    """The CSV with one cell of data row `record` (1-based; CSV line record + 1) replaced."""
    header, records = raw_records(path)
    records[record - 1][header.index(column)] = value
    write_records(path, header, records)


def test_a_150_kb_list_of_substitutes_is_read(prolex_test):
    """csv's default field limit (128 kB) raised `_csv.Error: field larger than field limit` without a line."""
    words = [f"word{i:05d}" for i in range(15_000)]  # 15,000 items of 12 characters with quotes and comma
    literal = repr(words)
    assert len(literal) > 150_000
    with_cell(prolex_test, 3, "unacc_subs", literal)
    rows = read_prolex(prolex_test, "test")
    header, records = raw_records(prolex_test)
    acceptable = ast.literal_eval(records[2][header.index("acc_subs")])
    assert len(rows) == 680
    assert [s["substitute"] for s in rows[2]["substitutes"]][: len(acceptable) + len(words)] == acceptable + words


@pytest.mark.parametrize(
    ("cell", "said"),
    [
        ("[['charming'], 'nice']", "'acc_subs' item 1 is ['charming'] (of type list), not a word"),
        ("[3, 'nice']", "'acc_subs' item 1 is 3 (of type int), not a word"),
        ("['nice', None]", "'acc_subs' item 2 is None (of type NoneType), not a word"),
        ("['nice', '  ']", "'acc_subs' item 2 is empty ('  ')"),
        ("['nice', {'a': 1}]", "'acc_subs' item 2 is {'a': 1} (of type dict), not a word"),
    ],
)
def test_items_that_are_not_words_are_named_with_file_and_line(prolex_test, cell, said):
    """Unhashable items raised a bare TypeError; numbers and None became substitutes (or an Arrow error later)."""
    with_cell(prolex_test, 5, "acc_subs", cell)
    with pytest.raises(BuildError) as raised:
        read_prolex(prolex_test, "test")
    assert str(raised.value) == f"{prolex_test}:6: {said}"


@pytest.mark.parametrize(
    ("column", "cell", "said"),
    [
        ("prof_acc_cefr", "[4.7, 3, 5, 4]", "4.7"),  # it became 4
        ("prof_acc_cefr", "[True, 3, 5, 4]", "True"),  # it became 1
        ("t_words_cefr", "9" * 40, f"'{'9' * 40}'"),  # past int32: an Arrow error when the Parquet was written
    ],
)
def test_a_cefr_level_that_is_not_an_integer_is_refused_not_rounded(prolex_test, column, cell, said):
    header, records = raw_records(prolex_test)
    assert ast.literal_eval(records[0][header.index("prof_acc_cefr")]) == [4, 3, 5, 4]  # row 1, as released
    with_cell(prolex_test, 1, column, cell)
    with pytest.raises(BuildError) as raised:
        read_prolex(prolex_test, "test")
    assert str(raised.value) == f"{prolex_test}:2: CEFR level {said} is not an integer"


def test_an_empty_target_word_is_refused(prolex_test):
    with_cell(prolex_test, 4, "target word", "")
    with pytest.raises(BuildError) as raised:
        read_prolex(prolex_test, "test")
    assert str(raised.value) == f"{prolex_test}:5: the target word is empty"


def test_bytes_that_are_not_utf8_are_named_by_line_and_column(prolex_test):
    data = prolex_test.read_bytes().split(b"\n")
    data[6] = data[6][:10] + b"\xff" + data[6][10:]  # line 7, column 11
    prolex_test.write_bytes(b"\n".join(data))
    with pytest.raises(BuildError) as raised:
        read_prolex(prolex_test, "test")
    assert str(raised.value) == f"{prolex_test}:7: not UTF-8 (byte 0xff at column 11)"


def test_a_column_named_twice_is_refused(prolex_test):
    """pandas (the official evaluation) reads the first of two same-named columns, csv.DictReader the last."""
    header, records = raw_records(prolex_test)
    write_records(prolex_test, [*header, "acc_subs"], [[*record, "[]"] for record in records])
    with pytest.raises(BuildError) as raised:
        read_prolex(prolex_test, "test")
    assert str(raised.value) == f"{prolex_test}:1: column 'acc_subs' is named twice"


def test_a_byte_order_mark_is_dropped(prolex_test):
    """With a BOM the first column was '\\ufefftarget word', and every row was refused as not its target word."""
    prolex_test.write_bytes(codecs.BOM_UTF8 + prolex_test.read_bytes())
    rows = read_prolex(prolex_test, "test")
    header, records = raw_records(prolex_test)
    first = records[0][header.index("Sentence")]
    assert rows[0]["target"] == "charming" and rows[0]["offset"] == first.index("**charming**")
    assert len(rows) == 680


@pytest.fixture
def tsar_trial(sources_dir, tmp_path) -> tuple[Path, Path]:
    gold, inputs = tmp_path / "gold.tsv", tmp_path / "none.tsv"
    shutil.copy(sources_dir / gold_path("en", "trial"), gold)
    shutil.copy(sources_dir / inputs_path("en", "trial"), inputs)
    return gold, inputs


def test_tsar_a_byte_order_mark_does_not_shift_the_first_offset(tsar_trial):
    gold, inputs = tsar_trial
    sentence, word = gold.read_text(encoding="utf-8").split("\n")[0].split("\t")[:2]
    for path in tsar_trial:
        path.write_bytes(codecs.BOM_UTF8 + path.read_bytes())
    rows = read_tsar2022(gold, inputs, "tsar2022_en", "trial")
    assert rows[0]["context"] == sentence and rows[0]["offset"] == sentence.index(f" {word} ") + 1
    assert len(rows) == 10


def test_tsar_an_empty_complex_word_is_refused(tsar_trial):
    gold, inputs = tsar_trial
    for path in tsar_trial:
        lines = path.read_text(encoding="utf-8").split("\n")
        fields = lines[3].split("\t")
        fields[1] = ""
        lines[3] = "\t".join(fields)
        path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(BuildError) as raised:
        read_tsar2022(gold, inputs, "tsar2022_en", "trial")
    assert str(raised.value) == f"{gold}:4: the complex word is empty"


def test_tsar_bytes_that_are_not_utf8_are_named_by_line_and_column(tsar_trial):
    gold, inputs = tsar_trial
    lines = gold.read_bytes().split(b"\n")
    lines[8] = b"\xe9" + lines[8]  # Latin-1 'é' at line 9, column 1
    gold.write_bytes(b"\n".join(lines))
    with pytest.raises(BuildError) as raised:
        read_tsar2022(gold, inputs, "tsar2022_en", "trial")
    assert str(raised.value) == f"{gold}:9: not UTF-8 (byte 0xe9 at column 1)"
