"""`swords hub export DIR`: every Hub repository of the release (swords_dataset/hub.py) as `DIR/<folder>/`.

DIR is new or empty, or one an earlier export wrote, recognised by content: its manifest `swords-hub-export.json`
lists every file the export wrote with its sha256, and each of DIR's other entries is a repository folder whose
every file is listed, unchanged. Anything else (a user's file, a file edited since) is refused, naming it, before
any work. The repositories are written into a scratch folder inside DIR and moved into place once all are
complete, so a failure leaves the previous export (or nothing) and no half folder.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path

from .errors import SwordsError
from .files import SPECIAL_ROOTS, atomic_write
from .hub import HubRepo, Release, check_wheel, hub_repos
from .sources import sha256_of

MANIFEST = "swords-hub-export.json"
_WRITTEN_BY = "swords hub export"
_MAX_MANIFEST_BYTES = 2**20
_SCRATCH_PREFIX = ".swords-hub-export-"
_SCRATCH_MARK = ".swords-hub-export-scratch"
_SCRATCH_MARK_TEXT = b"scratch folder of `swords hub export`; removed when the export ends\n"


class ExportFolderError(SwordsError):
    """The export folder cannot take an export (one line naming the folder or the entry at fault)."""


def _regular_file_bytes(path: Path, limit: int) -> bytes | None:
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


def read_manifest(path: Path) -> dict[str, set[str]] | None:
    """relative path -> the sha256s an export recorded for it, if `path` is a manifest an export wrote; else None."""
    content = _regular_file_bytes(path, _MAX_MANIFEST_BYTES)
    try:
        manifest = json.loads(content) if content is not None else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(manifest, dict) or manifest.get("written_by") != _WRITTEN_BY:
        return None
    recorded: dict[str, set[str]] = {}
    for key in ("files", "previous"):  # "previous": the files being replaced, while an export swaps its new ones in
        listed = manifest.get(key, {})
        if not isinstance(listed, dict):
            return None
        for relative, digests in listed.items():
            if not isinstance(digests, list) or not all(isinstance(d, str) for d in digests):
                return None
            recorded.setdefault(relative, set()).update(digests)
    return recorded


def _manifest_bytes(files: dict[str, str], previous: dict[str, set[str]] | None = None) -> bytes:
    manifest: dict = {"written_by": _WRITTEN_BY, "files": {relative: [digest] for relative, digest in files.items()}}
    if previous:
        manifest["previous"] = {relative: sorted(digests) for relative, digests in previous.items()}
    return (json.dumps(manifest, indent=1, sort_keys=True, allow_nan=False) + "\n").encode("utf-8")


def _is_scratch(entry: Path) -> bool:
    return (entry.name.startswith(_SCRATCH_PREFIX) and entry.is_dir() and not entry.is_symlink()
            and _regular_file_bytes(entry / _SCRATCH_MARK, len(_SCRATCH_MARK_TEXT)) == _SCRATCH_MARK_TEXT)


def check_export_folder(target: Path) -> dict[str, set[str]]:
    """What an earlier export recorded in `target` (empty for a new or empty folder); ExportFolderError naming the
    first entry the export did not write, or that changed since."""
    target = Path(target)
    resolved = Path(os.path.abspath(target)).resolve()
    if any(resolved == root or resolved.is_relative_to(root) for root in SPECIAL_ROOTS):
        raise ExportFolderError(f"{target}: an export cannot go under /dev, /proc or /sys")
    if not os.path.lexists(target):
        return {}
    if target.is_symlink() or not target.is_dir():
        raise ExportFolderError(f"{target}: not a folder; export into a new or empty folder, or one the export wrote")
    entries = sorted(Path(entry.path) for entry in os.scandir(target))
    entries = [entry for entry in entries if not _is_scratch(entry)]  # a killed export's, removed when it resumes
    if not entries:
        return {}
    recorded = read_manifest(target / MANIFEST)
    refusal = "export into a new or empty folder, or one `swords hub export` wrote"
    if recorded is None:
        first = target / MANIFEST if os.path.lexists(target / MANIFEST) else entries[0]
        raise ExportFolderError(f"{target}: {first} was not written by `swords hub export`; {refusal}")
    folders = {relative.split("/", 1)[0] for relative in recorded}
    for entry in entries:
        if entry.name == MANIFEST:
            continue
        if entry.name not in folders or entry.is_symlink() or not entry.is_dir():
            raise ExportFolderError(f"{target}: {entry} was not written by `swords hub export`; {refusal}")
        for root, subfolders, files in os.walk(entry):
            for name in sorted(subfolders + files):
                path = Path(root) / name
                relative = path.relative_to(target).as_posix()
                if path.is_symlink() or (path.is_dir() and not any(r.startswith(relative + "/") for r in recorded)):
                    raise ExportFolderError(f"{target}: {path} was not written by `swords hub export`; {refusal}")
                if path.is_file() and (relative not in recorded or sha256_of(path) not in recorded[relative]):
                    why = "changed since the export wrote it" if relative in recorded else "not in its manifest"
                    raise ExportFolderError(f"{target}: {path} was not written by `swords hub export` ({why}); "
                                            f"{refusal}")
    return recorded


def repository_files(folder: Path) -> list[tuple[str, int]]:
    """(path relative to the repository folder, size in bytes) of every file in it, sorted."""
    return [(path.relative_to(folder).as_posix(), path.stat().st_size)
            for path in sorted(folder.rglob("*")) if path.is_file()]


def export(target: Path, release: Release, repos: list[HubRepo] | None = None) -> dict[str, list[tuple[str, int]]]:
    """Write every repository into `target/<folder>/`; each repository's folder -> its files and sizes."""
    target = Path(target)
    check_wheel(release)
    repos = hub_repos() if repos is None else repos
    check_export_folder(target)
    created = not os.path.lexists(target)
    try:
        target.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(target, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as error:
        raise ExportFolderError(f"{target}: cannot create the folder ({error.strerror or error})") from None
    scratch = None
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ExportFolderError(f"{target}: another `swords hub export` is writing this folder") from None
        for entry in os.scandir(target):  # scratch folders a killed export left; with the lock, none is at work
            if _is_scratch(Path(entry.path)):
                shutil.rmtree(entry.path, ignore_errors=True)
        try:
            scratch = Path(tempfile.mkdtemp(dir=target, prefix=_SCRATCH_PREFIX))
        except OSError as error:
            raise ExportFolderError(f"{target}: cannot write in the folder ({error.strerror or error})") from None
        (scratch / _SCRATCH_MARK).write_bytes(_SCRATCH_MARK_TEXT)
        listing = {}
        for repo in repos:
            (scratch / repo.folder).mkdir()
            repo.write(scratch / repo.folder, release)
            listing[repo.folder] = repository_files(scratch / repo.folder)
        new = {f"{folder}/{relative}": sha256_of(scratch / folder / relative)
               for folder, files in listing.items() for relative, _ in files}
        previous = check_export_folder(target)  # nothing of the user's arrived while the export worked
        atomic_write(target / MANIFEST, _manifest_bytes(new, previous))
        for folder in sorted({relative.split("/", 1)[0] for relative in previous}):
            if os.path.lexists(target / folder):
                (target / folder).rename(scratch / f"retired-{folder}")
        for folder in listing:
            (scratch / folder).rename(target / folder)
        atomic_write(target / MANIFEST, _manifest_bytes(new))
        return listing
    except BaseException:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
            scratch = None
        if created:
            try:
                target.rmdir()  # only if empty: what a failed export leaves of a folder it made
            except OSError:
                pass
        raise
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
        os.close(descriptor)
