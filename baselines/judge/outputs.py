"""Which of `swords judge`'s output files the toolkit wrote, known by their content (tasks_file.py, run.py, and the
`written_by` of every record or judge here): any other is replaced only with --force, ours atomically. A symbolic
link at an output (/dev/stdout is one) is never written through nor replaced, even with --force.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from swords_baselines.run.ownership import first_line_json, is_lock, strict_json
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import SPECIAL_ROOTS, file_kind

JOURNAL_FORMAT = "swords-judge-llm-journal"
LLM_WRITER = "swords judge llm"
VALIDATE_WRITER = "swords judge validate"
MAX_OWNED_BYTES = 256 * 2**20  # a judgments file of ours is ~300 bytes a candidate; a larger file is not ours


def journal_header(path: Path) -> dict | None:
    header = first_line_json(path)
    return header if isinstance(header, dict) and header.get("format") == JOURNAL_FORMAT else None


def llm_record(line: bytes) -> dict | None:
    """A line's record if `swords judge llm` wrote it (a JSON object, its `written_by`), else None."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) and record.get("written_by") == LLM_WRITER else None


def llm_judgments(path: Path) -> list[dict] | None:
    """The records of a judgments file `swords judge llm` wrote, or None (nothing past MAX_OWNED_BYTES read)."""
    try:
        if path.stat().st_size > MAX_OWNED_BYTES:
            return None
        records = []
        with open(path, "rb") as f:
            for line in f:  # a user's file is known at its first line that is not ours: the rest is not parsed
                if (record := llm_record(line)) is None:
                    return None
                records.append(record)
    except OSError:
        return None
    return records


def entries_of(data: object) -> dict | None:
    """A validation file's JSON as its judges' entries, or None if `swords judge validate` did not write it."""
    if not isinstance(data, dict) or not all(
        isinstance(entry, dict) and entry.get("written_by") == VALIDATE_WRITER for entry in data.values()
    ):
        return None
    return data


def validation_entries(path: Path) -> dict | None:
    """The judges' entries of a validation file `swords judge validate` wrote, or None if it is not one."""
    try:
        if path.stat().st_size > MAX_OWNED_BYTES:
            return None
        return entries_of(strict_json(path.read_bytes()))  # NaN: edited by hand, never written by validate
    except (OSError, ValueError, RecursionError):
        return None


def refuse_foreign(path: Path, ours: bool, force: bool, command: str) -> None:
    """Before any work: a file at `path` that `command` did not write is replaced only with --force."""
    if path.exists() and not ours and not force:
        raise SwordsError(
            f"{path} exists and was not written by `{command}` (or was changed since); choose another --output, "
            "or pass --force to replace it"
        )


def lock_is_ours(path: Path) -> bool:
    return not path.exists() or is_lock(path)


def refuse_link(path: Path, what: str) -> None:
    """Before any work: a symbolic link at `path`, or a path under /dev, /proc or /sys as written, is refused."""
    if path.is_symlink():
        raise SwordsError(
            f"{what}: {path} is {file_kind(path)}; a judge command never writes through a link nor replaces one, "
            "even with --force: name a regular file"
        )
    absolute = Path(os.path.abspath(path))
    for root in SPECIAL_ROOTS:
        if absolute.is_relative_to(root):
            raise SwordsError(f"{what}: an output cannot go under {root}; name a file in an ordinary folder")
