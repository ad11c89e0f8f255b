"""What a command owns in a folder it writes (`swords data build --output`, `swords hub export`), known by content:
its manifest lists each file it wrote with its sha256 (and, while new files are swapped in, the ones they replace),
and a scratch folder it works in holds a mark file, removed last, so a killed command's scratch folder is known."""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

MAX_MANIFEST_BYTES = 2**20  # a manifest lists a few dozen files; a larger file is not one


def regular_file_bytes(path: Path, limit: int) -> bytes | None:
    """The file's content if it is a regular file (not a symlink, pipe or device) of at most `limit` bytes."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None
        content = f.read(limit + 1)
    return content if len(content) <= limit else None


@dataclass(frozen=True)
class Ownership:
    """One command's manifest and scratch folders. A manifest: {"written_by": command, "files": {path: sha256 or
    [sha256]}, "previous": {path: [sha256, …]}}, paths relative to the folder."""

    command: str  # e.g. "swords data build"
    manifest: str  # the manifest's file name
    scratch_prefix: str  # a scratch folder's name starts so
    mark_text: bytes  # the mark file's content

    @property
    def mark(self) -> str:
        return self.scratch_prefix + "scratch"

    def read_manifest(
        self, path: Path, check_key: Callable[[str, str], None] | None = None
    ) -> dict[str, set[str]] | None:
        """relative path -> the sha256s recorded, if `path` is a manifest this command wrote; else None.
        `check_key(path, section)` may refuse a listed path."""
        try:
            content = regular_file_bytes(path, MAX_MANIFEST_BYTES)
            manifest = json.loads(content) if content is not None else None
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(manifest, dict) or manifest.get("written_by") != self.command:
            return None
        recorded: dict[str, set[str]] = {}
        for section in ("files", "previous"):
            listed = manifest.get(section, {})
            if not isinstance(listed, dict):
                return None
            for relative, digests in listed.items():
                if check_key is not None:
                    check_key(relative, section)
                digests = [digests] if isinstance(digests, str) else digests
                if not isinstance(digests, list) or not all(isinstance(d, str) for d in digests):
                    return None
                recorded.setdefault(relative, set()).update(digests)
        return recorded

    def manifest_bytes(self, files: dict[str, object], previous: dict[str, set[str]] | None = None) -> bytes:
        manifest: dict = {"written_by": self.command, "files": files}
        if previous:
            manifest["previous"] = {relative: sorted(digests) for relative, digests in previous.items()}
        return (json.dumps(manifest, indent=1, sort_keys=True, allow_nan=False) + "\n").encode("utf-8")

    def new_scratch(self, folder: Path) -> Path:
        """A new scratch folder in `folder`, marked; none left if the mark cannot be written (a full disk)."""
        scratch = Path(tempfile.mkdtemp(dir=folder, prefix=self.scratch_prefix))
        try:
            (scratch / self.mark).write_bytes(self.mark_text)
        except BaseException:
            shutil.rmtree(scratch, ignore_errors=True)
            raise
        return scratch

    def is_scratch(self, entry: Path) -> bool:
        """Whether `entry` is a scratch folder of this command's (a folder, not a link, holding its mark)."""
        return (
            entry.name.startswith(self.scratch_prefix)
            and entry.is_dir()
            and not entry.is_symlink()
            and regular_file_bytes(entry / self.mark, len(self.mark_text)) == self.mark_text
        )
