"""`swords data verify` against tampered data: a small Parquet file that expands to tens of thousands of rows or
hundreds of megabytes, files that lost a column or hold nulls, a folder, a FIFO or a link to /dev/zero where a
Parquet file belongs, a dataset card that disagrees with the configs, and a datasets cache that cannot be
written. Each is one line naming the file (and its column and row), from real files and real processes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import swords_dataset
from swords_dataset.card import card_problem
from swords_dataset.checked_rows import rows_reader

from ..conftest import REPO_ROOT

SHIPPED = swords_dataset.DATASET_DIR
# The first split verify reads (CONFIGS' order): a fault put here is met at once.
FIRST = ("swords", "dev")
# SWORDS dev has 370 targets (Lee et al. 2021, Table 2); verify reads at most twice that.
DEV_TARGETS = 370


@pytest.fixture
def dataset_copy(tmp_path) -> Path:
    """The shipped Parquet files in a folder of their own, to tamper with."""
    copy = tmp_path / "dataset"
    shutil.copytree(SHIPPED / "data", copy / "data", ignore=shutil.ignore_patterns("*.references.json.gz"))
    return copy


def first_split(folder: Path) -> Path:
    return folder / swords_dataset.parquet_path(*FIRST)


def verify(
    dataset_dir: Path, timeout: float = 120, env: dict | None = None
) -> tuple[subprocess.CompletedProcess, float, int]:
    """(result, seconds, peak MB) of `swords data verify --dataset-dir DIR` in its own process."""
    code = (
        "import resource, subprocess, sys; p = subprocess.run([sys.executable, '-m', 'swords_lexsub.cli', "
        "'data', 'verify', '--dataset-dir', sys.argv[1]], capture_output=True, text=True); "
        "sys.stdout.write(p.stdout); sys.stderr.write(p.stderr); "
        "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)"
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", code, str(dataset_dir)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO_ROOT,
        env={**os.environ, **(env or {})},
    )
    status, peak = map(int, done.stdout.split("\n")[-2].split())
    done.returncode = status
    return done, time.monotonic() - started, peak


def one_line(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and "Traceback" not in result.stderr, result.stderr[-2000:]
    return lines[0]


@pytest.mark.slow  # 6 s on two cores
def test_a_small_file_that_expands_to_74000_rows_is_refused_from_its_metadata(dataset_copy):
    """SWORDS dev repeated 200 times: 74,000 rows in a few MB of Parquet (it took 75 s and 6 GB to read)."""
    path = first_split(dataset_copy)
    table = pq.read_table(path)
    pq.write_table(pa.concat_tables([table] * 200), path, compression="zstd", row_group_size=1 << 20)
    assert path.stat().st_size < 8 * 2**20
    result, seconds, peak = verify(dataset_copy)
    assert one_line(result) == (
        f"swords: error: {path}: 74,000 rows; swords/dev as shipped has {DEV_TARGETS}, and "
        "verify reads at most 2 times that"
    )
    assert seconds < 20 and peak < 500, (seconds, peak)


@pytest.mark.parametrize("bomb", ["repeated text", "pages that decompress to 37 MB"])
@pytest.mark.slow  # 4 s on two cores
def test_a_file_whose_text_expands_past_the_splits_is_refused_before_its_rows_are_made(dataset_copy, bomb):
    """The right number of rows, but each context is 100 kB of text: stored once (a dictionary) or compressed to
    almost nothing, the file is small; its rows would hold 37 MB of contexts, 15 times SWORDS dev's whole text."""
    path = first_split(dataset_copy)
    table = pq.read_table(path)
    huge = "word " * 20_000
    table = table.set_column(table.schema.get_field_index("context"), "context", pa.array([huge] * DEV_TARGETS))
    table = table.set_column(table.schema.get_field_index("offset"), "offset", pa.array([0] * DEV_TARGETS, pa.int32()))
    pq.write_table(table, path, compression="zstd", use_dictionary=bomb == "repeated text")
    assert path.stat().st_size < 2**20
    result, seconds, peak = verify(dataset_copy)
    line = one_line(result)
    contexts = DEV_TARGETS * len(huge)  # 37,000,000 bytes, besides the text of the other columns (about 1 MB)
    if bomb == "repeated text":
        prefix = f"swords: error: {path}: holds "
        assert line.startswith(prefix) and " bytes of text; swords/dev as shipped holds " in line, line
        assert contexts < int(line[len(prefix) :].split()[0].replace(",", "")) < contexts + 2**21, line
    else:
        prefix = f"swords: error: {path}: its pages decompress to "
        assert line.startswith(prefix) and line.endswith(" for swords/dev"), line
        # without dictionaries every column takes more room: the other columns' plain pages, a length per string
        assert contexts < int(line[len(prefix) :].split()[0].replace(",", "")) < contexts + 2**23, line
    assert seconds < 20 and peak < 500, (seconds, peak)


def tampered(table: pa.Table, fault: str) -> pa.Table:
    def replaced(name: str, values: pa.Array) -> pa.Table:
        return table.set_column(table.schema.get_field_index(name), name, values)

    substitutes = table.column("substitutes").to_pylist()
    if fault == "null offset":
        offsets = table.column("offset").to_pylist()
        offsets[5] = None
        return replaced("offset", pa.array(offsets, pa.int32()))
    if fault == "missing column":
        return table.drop_columns(["substitutes"])
    if fault == "null substitutes":
        substitutes[7] = None
        return replaced("substitutes", pa.array(substitutes, table.schema.field("substitutes").type))
    if fault == "null score":
        substitutes[7][2]["score"] = None
        return replaced("substitutes", pa.array(substitutes, table.schema.field("substitutes").type))
    if fault == "offsets as strings":
        return replaced("offset", pc.cast(table.column("offset"), pa.string()))
    if fault == "another table":
        return pa.table({"a": [1, 2], "b": ["x", "y"]})
    raise AssertionError(fault)


@pytest.mark.parametrize(
    ("fault", "expected"),
    [
        ("null offset", "row 6 (id {id5}): 'offset' is null"),
        ("missing column", "no column 'substitutes'; not a split of the dataset"),
        ("null substitutes", "row 8 (id {id7}): 'substitutes' is null"),
        ("null score", "row 8 (id {id7}): substitute 3 has a null 'score'"),
        ("offsets as strings", "column 'offset' is string; the dataset's is int32"),
        ("another table", "no column 'id' (its columns: a, b); not a split of the dataset"),
    ],
)
def test_a_tampered_file_is_one_line_naming_the_file_column_and_row(dataset_copy, fault, expected):
    path = first_split(dataset_copy)
    table = pq.read_table(path)
    ids = table.column("id").to_pylist()
    pq.write_table(tampered(table, fault), path)
    with pytest.raises(swords_dataset.SwordsError) as raised:
        rows_reader(dataset_copy)(*FIRST)
    assert str(raised.value) == f"{path}: " + expected.format(id5=repr(ids[5]), id7=repr(ids[7]))


@pytest.mark.slow  # 6 s on two busy cores (load 4-6)
def test_a_tampered_file_from_the_command_line(dataset_copy):
    path = first_split(dataset_copy)
    table = pq.read_table(path)
    offsets = table.column("offset").to_pylist()
    offsets[0] = None
    pq.write_table(
        table.set_column(table.schema.get_field_index("offset"), "offset", pa.array(offsets, pa.int32())), path
    )
    result, _, _ = verify(dataset_copy)
    assert one_line(result) == f"swords: error: {path}: row 1 (id {table.column('id')[0].as_py()!r}): 'offset' is null"
    assert result.stdout.count("\n") == 1  # the figures are not printed: nothing was counted


@pytest.mark.parametrize("kind", ["folder", "FIFO", "link to /dev/zero"])
@pytest.mark.slow  # 12 s on two cores
def test_a_folder_fifo_or_device_at_a_parquet_path_is_named_as_such(dataset_copy, kind):
    """A folder was read as an empty table (eleven MISMATCH lines); a FIFO must never be waited on."""
    path = dataset_copy / swords_dataset.parquet_path("semeval07", "trial")
    path.unlink()
    if kind == "folder":
        path.mkdir()
        said = "a folder"
    elif kind == "FIFO":
        os.mkfifo(path)
        said = "a FIFO"
    else:
        path.symlink_to("/dev/zero")
        said = "a character device (a symbolic link to /dev/zero)"
    result, seconds, _ = verify(dataset_copy, timeout=60)
    assert one_line(result) == f"swords: error: {path} is {said}, not a regular file"
    assert "MISMATCH" not in result.stdout and seconds < 30


@pytest.mark.slow  # 7 s on two busy cores (load 4-6)
def test_a_card_that_disagrees_with_the_configs_is_one_line(tmp_path):
    """The installed package's card without a config that CONFIGS has: `datasets` raised its own ValueError and
    verify printed a traceback. Here a copy of the package, its card edited, run as the installed one is."""
    package = tmp_path / "site" / "swords_dataset"
    shutil.copytree(SHIPPED, package, ignore=shutil.ignore_patterns("__pycache__", "*.references.json.gz"))
    card = package / "README.md"
    text = card.read_text(encoding="utf-8")
    start = text.index("- config_name: tsar2022_pt\n")
    end = text.index("\ndataset_info:", start)
    card.write_text(text[:start] + text[end + 1 :], encoding="utf-8")
    expected = f"{card}: no config 'tsar2022_pt', which the toolkit has"
    assert card_problem(package).startswith(expected)
    assert card_problem(SHIPPED) is None
    env = {**os.environ, "PYTHONPATH": str(package.parent), "HF_DATASETS_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "swords_lexsub.cli", "data", "verify"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=env,
    )
    assert one_line(done).startswith(f"swords: error: {expected}; "), done.stderr


@pytest.mark.slow  # 5 s on two busy cores (load 4-6)
def test_an_unwritable_datasets_cache_is_one_line(tmp_path):
    """HF_HOME read-only (root's override dropped, as a user without rights runs it): one line naming the cache."""
    if shutil.which("capsh") is None:
        pytest.skip("capsh is not installed (apt-get install libcap2-bin)")
    home = tmp_path / "hf-home"
    home.mkdir()
    home.chmod(0o555)
    env = {key: value for key, value in os.environ.items() if key != "HF_DATASETS_CACHE"}
    command = f"exec {sys.executable} -m swords_lexsub.cli data verify"
    done = subprocess.run(
        ["capsh", "--drop=cap_dac_override,cap_dac_read_search,cap_fowner", "--", "-c", command],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO_ROOT,
        env={**env, "HF_HOME": str(home)},
    )
    assert one_line(done) == (
        f"swords: error: the datasets cache {home / 'datasets'}: cannot write in it (Permission "
        "denied); set HF_HOME or HF_DATASETS_CACHE to a folder you can write"
    )
