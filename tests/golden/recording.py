"""The golden files: where a case's recorded output lives, how an output is written as text (JSON, tables, a
command's streams), what of it is normalised (only what is volatile: the test's temporary folders, the clone's
path), and the comparison, or, under SWORDS_GOLDEN_RECORD=1, the recording."""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

RECORDED = Path(__file__).resolve().parent / "recorded"
RECORD_ENV = "SWORDS_GOLDEN_RECORD"
REPO_ROOT = Path(__file__).resolve().parents[2]
WHOLE_FILE_CHARS = 24_000  # a written file up to this size is recorded whole, a larger one summarised
HEAD_LINES, HEAD_CHARS = 5, 400  # of a summarised file: its first lines, each clipped
DIFF_LINES = 200  # of a mismatch's unified diff, shown in the failure (the whole diff: record and `git diff`)


def recording() -> bool:
    return os.environ.get(RECORD_ENV, "") not in ("", "0")


class Volatile:
    """The folders a case's output may name that differ from run to run (or clone to clone), each written as its
    placeholder: longest first, so that a folder inside another is replaced as itself."""

    def __init__(self, folders: Mapping[str, Path | str]) -> None:
        pairs = []
        for placeholder, folder in folders.items():
            for form in {str(folder), str(Path(folder).resolve())}:
                pairs.append((form, placeholder))
        self.pairs = sorted(pairs, key=lambda pair: -len(pair[0]))

    def __call__(self, text: str) -> str:
        for folder, placeholder in self.pairs:
            text = text.replace(folder, placeholder)
        return text

    def with_folders(self, folders: Mapping[str, Path | str]) -> Volatile:
        joined = Volatile(folders)
        joined.pairs = sorted(self.pairs + joined.pairs, key=lambda pair: -len(pair[0]))
        return joined


def json_text(value: object) -> str:
    """A dict of ours as a readable, stable text: pretty-printed, keys sorted; floats as Python writes them (every
    bit), a NaN or infinity as JSON cannot (`NaN`), tuples as lists."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=_jsonable) + "\n"


def _jsonable(value: object) -> object:
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    if hasattr(value, "item"):  # a numpy scalar
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    return repr(value)


def frame_text(frame) -> str:
    """A pandas DataFrame as CSV (its index when it is not the default one, its dtypes named), floats as Python
    writes them."""
    import pandas as pd

    plain = isinstance(frame.index, pd.RangeIndex) and frame.index.start == 0 and frame.index.step == 1
    dtypes = ", ".join(f"{column}: {dtype}" for column, dtype in frame.dtypes.items())
    body = frame.to_csv(index=not plain, lineterminator="\n", float_format=_float)
    return f"# {len(frame)} rows; dtypes: {dtypes or 'none'}\n{body}"


def _float(value: float) -> str:
    return repr(float(value)) if math.isfinite(value) else str(value)


def styler_text(styler) -> str:
    """A pandas Styler as the page shows it: each row's cells as displayed (Gradio's own rendering of the Styler: the
    Styler's formats, blanks) and its style (one for the row when every cell has it), then the data beneath it."""
    import gradio as gr

    shown = gr.Dataframe(value=styler).value
    metadata = shown.get("metadata") or {}
    cells, styles = metadata.get("display_value") or shown["data"], metadata.get("styling")
    lines = [" | ".join(map(str, shown["headers"]))]
    for number, row in enumerate(cells):
        line = " | ".join(map(str, row))
        if styles:
            row_styles = styles[number]
            style = row_styles[0] if len(set(row_styles)) == 1 else " / ".join(row_styles)
            line += f"  {{{style}}}" if style else ""
        lines.append(line)
    return "## shown\n" + "\n".join(lines) + f"\n## data\n{frame_text(styler.data)}"


def value_text(value: object) -> str:
    """Any output of a handler as text: a string as it is; a table, a Styler or a dict in their forms above; a
    Gradio component update by what it sets."""
    import pandas as pd
    from pandas.io.formats.style import Styler

    if value is None:
        return "None\n"
    if isinstance(value, str):
        return value if value.endswith("\n") else value + "\n"
    if isinstance(value, Styler):
        return styler_text(value)
    if isinstance(value, pd.DataFrame):
        return frame_text(value)
    if isinstance(value, Mapping | list | tuple | int | float | bool):
        return json_text(value)
    return component_text(value)


def component_text(component) -> str:
    """A Gradio component returned as an update: its class and the properties the handler gave it (visible, column
    widths, …), then its value in the forms above."""
    given = dict((getattr(component, "_constructor_args", None) or [{}])[0])
    value = given.pop("value", None)
    settings = ", ".join(f"{key}={given[key]!r}" for key in sorted(given))
    head = f"{type(component).__name__}({settings})\n"
    return head if value is None else head + value_text(value)


def sections(parts: Iterable[tuple[str, str]]) -> str:
    """Named parts of one case's output, one after another, each under `=== name`."""
    out = []
    for name, text in parts:
        out.append(f"=== {name}\n{text if text.endswith(chr(10)) or not text else text + chr(10)}")
    return "".join(out)


def path_of(surface: str, case: str) -> Path:
    return RECORDED / surface / f"{case}.txt"


def check(surface: str, case: str, produced: str) -> None:
    """The case's output against its recorded file, byte for byte (a unified diff on a mismatch); under
    SWORDS_GOLDEN_RECORD=1, the file is written instead."""
    path = path_of(surface, case)
    if recording():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != produced.encode("utf-8"):
            path.write_bytes(produced.encode("utf-8"))
        return
    if not path.exists():
        pytest.fail(f"{path.relative_to(REPO_ROOT)}: not recorded; record with {RECORD_ENV}=1 pytest tests/golden")
    recorded = path.read_bytes().decode("utf-8")
    if recorded == produced:
        return
    diff = list(
        difflib.unified_diff(
            recorded.splitlines(keepends=True),
            produced.splitlines(keepends=True),
            f"recorded/{surface}/{case}.txt",
            "produced now",
        )
    )
    shown = "".join(diff[:DIFF_LINES]) + (
        f"\n… {len(diff) - DIFF_LINES} more diff lines\n" if len(diff) > DIFF_LINES else ""
    )
    pytest.fail(f"{case}: the output differs from its recording\n{shown}", pytrace=False)


def check_recorded_set(surface: str, cases: Iterable[str]) -> None:
    """Every recorded file of the surface is a case's and every case has one; recording removes the files of
    cases that are gone."""
    names = set(cases)
    folder = RECORDED / surface
    files = {path.stem: path for path in folder.glob("*.txt")} if folder.is_dir() else {}
    stale = sorted(set(files) - names)
    if recording():
        for name in stale:
            files[name].unlink()
        return
    missing = sorted(names - set(files))
    assert not stale, f"recorded/{surface}: files of no case (record again to remove them): {stale}"
    assert not missing, f"recorded/{surface}: cases not recorded (record with {RECORD_ENV}=1): {missing}"


def written_files(folder: Path, normalise, whole: int | None = WHOLE_FILE_CHARS) -> list[tuple[str, str]]:
    """(name, text) of every file a command wrote in `folder`, hidden ones too, by name: text files as they are
    (normalised), Parquet files by their schema, metadata and rows (the bytes name the writing library's version).
    A text file over `whole` characters (None: no limit) is summarised: its size, lines and sha256, and its first
    lines, clipped."""
    parts = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = path.relative_to(folder).as_posix()
        if path.suffix == ".parquet":
            parts.append((f"file {name}", parquet_text(path)))
            continue
        text = normalise(path.read_bytes().decode("utf-8"))
        if whole is None or len(text) <= whole:
            parts.append((f"file {name}", text))
            continue
        lines = text.splitlines()
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        head = "".join(_clipped(line) + "\n" for line in lines[:HEAD_LINES])
        summary = f"{len(text):,} characters, {len(lines):,} lines, sha256 {digest} (normalised); its first lines:\n"
        parts.append((f"file {name} (summarised)", summary + head))
    return parts


def _clipped(line: str) -> str:
    return line if len(line) <= HEAD_CHARS else f"{line[:HEAD_CHARS]}… ({len(line):,} characters)"


def parquet_text(path: Path) -> str:
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    metadata = {key.decode(): value.decode() for key, value in (table.schema.metadata or {}).items()}
    rows = "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in table.to_pylist())
    schema = table.schema.remove_metadata()
    return f"## schema\n{schema}\n## metadata\n{json_text(metadata)}## {table.num_rows} rows\n{rows}"
