"""Where a details file may go, and which existing file it may replace: only one `swords evaluate` wrote and nobody
changed since. A details file is recognised by its content (formats.py's marks), and what was written is recorded
beside it (`.NAME.swords-record.json`: the sha256 and size of the file as written), just before the finished file
is renamed into place, listing both the new file and the one it replaces, so that whichever a kill leaves in place
still matches.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_write, check_output_file
from swords_metric.details.formats import EXTENSIONS, FORMATS, HEADER_LINES, PARQUET_METADATA_KEY
from swords_metric.errors import MetricInputError

RECORD_FORMAT = "swords-lexsub details record"
RECORD_VERSION = 1
_RECORD_LIMIT = 1 << 16  # a record is a few hundred bytes; anything far larger is not one


def record_path(path: str | Path) -> Path:
    """Where the record of the details file at `path` is kept."""
    path = Path(path)
    return path.with_name(f".{path.name}.swords-record.json")


def is_details_file(path: str | Path) -> bool:
    """Whether `path` has the content of a details or comparison file this toolkit writes (changed since or not)."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            first = f.readline(1 << 20)
        if first.startswith(b"PAR1"):
            import pyarrow.parquet as pq

            metadata = pq.read_schema(path).metadata or {}
            return PARQUET_METADATA_KEY in metadata
        if first.rstrip(b"\r\n") in HEADER_LINES:
            return True
        header = json.loads(first)
    except Exception:  # unreadable, not JSON, not Parquet: not ours
        return False
    return isinstance(header, dict) and header.get("kind") == "header" and header.get("format") in FORMATS


def read_record(path: str | Path) -> list[dict] | None:
    """The fingerprints the record beside `path` lists, or None: no record, or a file in its place that is not one."""
    where = record_path(path)
    try:
        if where.is_symlink() or not where.is_file() or where.stat().st_size > _RECORD_LIMIT:
            return None
        record = json.loads(where.read_bytes())
    except (OSError, ValueError):
        return None
    if not (
        isinstance(record, dict) and record.get("format") == RECORD_FORMAT and isinstance(record.get("written"), list)
    ):
        return None
    return [
        entry
        for entry in record["written"]
        if isinstance(entry, dict) and isinstance(entry.get("sha256"), str) and isinstance(entry.get("bytes"), int)
    ]


@dataclass
class DetailsPlace:
    """A checked place for a details file, and how messages name its option and say-so (`--details`, `--force`)."""

    path: Path
    force: bool = False
    option: str = "details"
    force_option: str = "details_force=True"
    kept: dict | None = field(default=None, repr=False)  # the fingerprint of the file in place, if ours

    @property
    def what(self) -> str:
        return f"{self.option} {self.path}"

    def check_replaceable(self) -> None:
        """Refuse, naming it, a file at `path` that is not a details file, or changed since written and not forced."""
        path = self.path
        self.kept = None
        if path.is_symlink():
            raise MetricInputError(
                f"{self.what}: a symbolic link (to {os.readlink(path)}); writing would replace "
                "the link, not the file it points to: name the file itself"
            )
        if not path.exists():
            return
        if not is_details_file(path):
            raise MetricInputError(
                f"{self.what}: the file exists and was not written by swords evaluate --details; "
                "it is left as it is (choose another name, or remove it yourself)"
            )
        if self.force:
            return
        written = read_record(path)
        if written is None:
            raise MetricInputError(
                f"{self.what}: a details file with no record of what swords evaluate wrote there (an earlier "
                f"release wrote it, or {record_path(path).name} was removed), so it may have been edited: it is "
                f"left as it is ({self.force_option} replaces it)"
            )
        size = path.stat().st_size
        if any(entry["bytes"] == size for entry in written):  # hashed only then
            with open(path, "rb") as f:
                now = {"sha256": hashlib.file_digest(f, "sha256").hexdigest(), "bytes": os.fstat(f.fileno()).st_size}
            if now in written:
                self.kept = now
                return
        raise MetricInputError(
            f"{self.what}: changed since swords evaluate wrote it (edited, appended to or "
            f"re-written): it is left as it is ({self.force_option} replaces it)"
        )

    def record(self, written: dict) -> None:
        """Check again what is there (it may have changed meanwhile), then record `written` and the file it replaces."""
        self.check_replaceable()
        entries = [written] + ([self.kept] if self.kept is not None and self.kept != written else [])
        body = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "file": self.path.name, "written": entries}
        try:
            atomic_write(record_path(self.path), (json.dumps(body, indent=1, allow_nan=False) + "\n").encode())
        except SwordsError as error:  # a full disk
            raise MetricInputError(str(error)) from None


def details_place(
    path: str | Path, option: str = "details", force: bool = False, force_option: str = "details_force=True"
) -> DetailsPlace:
    """Before any work: a DetailsPlace at `path`, or a MetricInputError naming option and path."""
    path = Path(path)
    what = f"{option} {path}"
    suffix = path.suffix.lower()
    if suffix not in EXTENSIONS:
        shown = f"extension {suffix!r}" if suffix else "no extension"
        raise MetricInputError(f"{what}: {shown}; a details file is .jsonl, .csv or .parquet")
    place = DetailsPlace(path, bool(force), option, force_option)
    if path.is_symlink():
        place.check_replaceable()  # names the link, before check_output_file looks through it
    try:
        check_output_file(path, what, kind="details files")
    except SwordsError as error:
        raise MetricInputError(str(error)) from None
    record = record_path(path)
    if record.is_symlink() or (record.exists() and read_record(path) is None):
        raise MetricInputError(
            f"{what}: {record} is in the way of the record of what swords evaluate writes (it "
            "is not one); it is left as it is (move it, or choose another name)"
        )
    place.check_replaceable()
    return place


def check_details_path(path: str | Path, option: str = "details", force: bool = False) -> Path:
    """details_place, for callers that want only the checked path."""
    return details_place(path, option, force).path
