"""Which folder `swords hub export DIR` may write into: new or empty, or one an earlier export wrote, recognised by
content (its manifest `swords-hub-export.json` lists every file written with its sha256; every other entry is a
repository folder of listed, unchanged files). Anything else is refused before any work, naming it. A scratch folder
(`.swords-hub-export-XXXX/`) holds a mark file, removed last, so it is recognised until it is gone."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from swords_lexsub.errors import SwordsError
from swords_lexsub.files import SPECIAL_ROOTS, file_kind, sha256_of
from swords_lexsub.owned_folder import MAX_MANIFEST_BYTES, Ownership, regular_file_bytes

OWNERSHIP = Ownership(
    "swords hub export",
    "swords-hub-export.json",
    ".swords-hub-export-",
    b"scratch folder of `swords hub export`; removed when the export ends\n",
)
MANIFEST, SCRATCH_PREFIX = OWNERSHIP.manifest, OWNERSHIP.scratch_prefix
_REFUSAL = "export into a new or empty folder, or one `swords hub export` wrote"
_SHOWN_KEY = 80  # characters of a manifest's key shown in a refusal (a forged one may be a megabyte)


class ExportFolderError(SwordsError):
    """The export folder cannot take an export (one line naming the folder or the entry at fault)."""


def _key_fault(relative: str) -> str | None:
    """Why a manifest's key is not the path of a file inside a repository folder (FOLDER/…/NAME); None if it is."""
    parts = relative.split("/")
    if not relative:
        return "empty"
    if relative.startswith("/"):
        return "absolute"
    if any(part in ("", ".", "..") for part in parts) or "\0" in relative:
        return "not a plain relative path (an empty, '.' or '..' part)"
    if len(parts) < 2 or parts[0] == MANIFEST or parts[0].startswith(SCRATCH_PREFIX):
        return "not inside a repository folder"
    return None


def read_manifest(path: Path) -> dict[str, set[str]] | None:
    """relative path -> the sha256s an export recorded, if `path` is a manifest an export wrote; else None. A path
    outside its repository folders is an ExportFolderError (acting on it would move or delete what lies outside)."""

    def check_key(relative: str, section: str) -> None:
        if fault := _key_fault(relative):
            shown = relative if len(relative) <= _SHOWN_KEY else f"{relative[:_SHOWN_KEY]}…"
            raise ExportFolderError(
                f"{path}: the path {shown!r} in {section!r} is {fault}; an export lists only files inside its "
                f"repository folders (remove {path} and its folders, or export elsewhere)"
            )

    return OWNERSHIP.read_manifest(path, check_key)


def manifest_bytes(files: dict[str, str], previous: dict[str, set[str]] | None = None) -> bytes:
    return OWNERSHIP.manifest_bytes({relative: [digest] for relative, digest in files.items()}, previous)


def manifest_content(target: Path) -> bytes | None:
    """The manifest's bytes as they are (to put back if an export fails while it swaps its folders in)."""
    return regular_file_bytes(target / MANIFEST, MAX_MANIFEST_BYTES)


def remove_scratch(scratch: Path) -> None:
    """Remove a scratch folder, its mark last (so one not removed whole stays recognised); else ExportFolderError."""
    failures: list[tuple[str, OSError]] = []

    def failed(function: object, path: str, exc_info: tuple) -> None:
        failures.append((path, exc_info[1]))  # rmtree's own error names a file relative to its folder

    try:
        entries = list(os.scandir(scratch))
    except OSError as error:
        entries = []
        failures.append((str(scratch), error))
    for entry in entries:
        if entry.name == OWNERSHIP.mark:
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, onerror=failed)
        else:
            try:
                os.unlink(entry.path)
            except OSError as error:
                failures.append((entry.path, error))
    if not failures:
        try:
            (scratch / OWNERSHIP.mark).unlink(missing_ok=True)
            scratch.rmdir()
        except OSError as error:
            failures.append((str(scratch), error))
    if failures:
        path, error = failures[0]
        raise ExportFolderError(
            f"{scratch}: the scratch folder of `swords hub export` cannot be removed ({path}: "
            f"{error.strerror or error}); make it writable (chmod -R u+rwX) or remove it"
        )


def _lacks(folder: Path) -> str:
    """What of reading, writing and searching `folder` this process may not do, in words ('' when it may all)."""
    lacking = [
        word
        for flag, word in ((os.R_OK, "readable"), (os.W_OK, "writable"), (os.X_OK, "searchable"))
        if not os.access(folder, flag)
    ]
    return " or ".join([", ".join(lacking[:-1]), lacking[-1]] if len(lacking) > 1 else lacking)


def _replaceable(target: Path, folder: Path) -> None:
    """Each folder in a repository folder the export moves away and removes is readable, writable and searchable."""
    if lacks := _lacks(folder):
        raise ExportFolderError(
            f"{target}: {folder} is not {lacks}, and an export replaces it whole; make it "
            "writable (chmod -R u+rwX) or export elsewhere"
        )


def _refuse(target: Path, path: Path, why: str) -> ExportFolderError:
    return ExportFolderError(f"{target}: {path} was not written by `swords hub export` ({why}); {_REFUSAL}")


def _refuse_kind(target: Path, path: Path) -> ExportFolderError:
    """A symbolic link, FIFO, socket or device: never the export's, and never removed by it."""
    return ExportFolderError(
        f"{target}: {path} is {file_kind(path)}, not a file or folder `swords hub export` writes; {_REFUSAL}"
    )


def _check_repository_folder(target: Path, entry: Path, recorded: dict[str, set[str]]) -> None:
    """Every entry under a repository folder is a folder or regular file the export wrote, unchanged, and every
    folder can be removed."""

    def stopped(error: OSError) -> None:
        raise error

    _replaceable(target, entry)
    for root, subfolders, files in os.walk(entry, onerror=stopped):
        for name in sorted(subfolders + files):
            path = Path(root) / name
            relative = path.relative_to(target).as_posix()
            mode = os.lstat(path).st_mode
            if stat.S_ISDIR(mode):
                if not any(r.startswith(relative + "/") for r in recorded):
                    raise _refuse(target, path, "a folder not in its manifest")
                _replaceable(target, path)
            elif not stat.S_ISREG(mode):
                raise _refuse_kind(target, path)
            elif relative not in recorded:
                raise _refuse(target, path, "not in its manifest")
            else:
                try:
                    digest = sha256_of(path)
                except (OSError, SwordsError) as error:
                    cause = error.__cause__ if isinstance(error.__cause__, OSError) else error  # open_regular's
                    reason = getattr(cause, "strerror", None) or cause
                    raise ExportFolderError(
                        f"{target}: {path} cannot be read ({reason}), so it "
                        "cannot be recognised as the export's; make it readable or export "
                        "elsewhere"
                    ) from None
                if digest not in recorded[relative]:
                    raise _refuse(target, path, "changed since the export wrote it")


def check_export_folder(target: Path) -> dict[str, set[str]]:
    """What an earlier export recorded in `target` (empty for a new or empty folder); ExportFolderError naming the
    first entry the export did not write, changed since, or cannot replace."""
    target = Path(target)
    resolved = Path(os.path.abspath(target)).resolve()
    if any(resolved == root or resolved.is_relative_to(root) for root in SPECIAL_ROOTS):
        raise ExportFolderError(f"{target}: an export cannot go under /dev, /proc or /sys")
    if not os.path.lexists(target):
        return {}
    if target.is_symlink():
        raise ExportFolderError(f"{target}: {file_kind(target)}; export into the folder itself, not a link to it")
    if not target.is_dir():
        raise ExportFolderError(f"{target}: {file_kind(target)}, not a folder; {_REFUSAL}")
    if lacks := _lacks(target):
        raise ExportFolderError(f"{target}: the folder is not {lacks}; an export writes in it")
    try:
        entries = sorted(Path(entry.path) for entry in os.scandir(target))
        entries = [
            entry for entry in entries if not OWNERSHIP.is_scratch(entry)
        ]  # a killed export's, removed when it resumes
        if not entries:
            return {}
        recorded = read_manifest(target / MANIFEST)
        if recorded is None:
            if not os.path.lexists(target / MANIFEST):
                raise _refuse(target, entries[0], f"{target} has no {MANIFEST}")
            if os.path.islink(target / MANIFEST) or not (target / MANIFEST).is_file():
                raise _refuse_kind(target, target / MANIFEST)
            raise _refuse(target, target / MANIFEST, "not its manifest")
        folders = {relative.split("/", 1)[0] for relative in recorded}
        for entry in entries:
            if entry.name == MANIFEST:
                continue
            if entry.is_symlink() or not (entry.is_dir() or entry.is_file()):
                raise _refuse_kind(target, entry)
            if not entry.is_dir():
                raise _refuse(target, entry, "a file beside its folders")
            if entry.name not in folders:
                raise _refuse(target, entry, "not in its manifest")
            _check_repository_folder(target, entry, recorded)
    except OSError as error:  # a folder that vanished or cannot be listed while it is checked
        raise ExportFolderError(f"{target}: {error.filename} cannot be read ({error.strerror or error})") from None
    return recorded
