"""`swords hub export DIR`: every Hub repository of the release as `DIR/<folder>/`, DIR checked first
(export_folder.py). The repositories are written into a scratch folder in DIR and moved into place once all are
complete, so a failure leaves the previous export (or nothing), never a half folder."""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from swords_lexsub.files import atomic_write, refuse_input_as_output, sha256_of
from swords_lexsub.hub.export_folder import (
    MANIFEST,
    OWNERSHIP,
    ExportFolderError,
    check_export_folder,
    manifest_bytes,
    manifest_content,
    remove_scratch,
)
from swords_lexsub.hub.repos import HubRepo, Release, hub_repos
from swords_lexsub.hub.wheel import check_wheel, stage_wheel

__all__ = ["MANIFEST", "ExportFolderError", "check_export_folder", "export", "repository_files"]

_STAGED_WHEEL = ".staged-wheel"  # in the scratch folder: the one copy of --wheel, linked into each repository


def repository_files(folder: Path) -> list[tuple[str, int]]:
    """(path relative to the repository folder, size in bytes) of every file in it, sorted."""
    return [
        (path.relative_to(folder).as_posix(), path.stat().st_size)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    ]


def _swap(target: Path, scratch: Path, folders: list[str], new: dict[str, str], previous: dict[str, set[str]]) -> None:
    """Swap the complete repositories in `scratch` with the previous ones in `target`, the manifest listing both
    meanwhile (a kill halfway leaves a folder the next export takes); a failure moves everything back."""
    before = manifest_content(target)
    atomic_write(target / MANIFEST, manifest_bytes(new, previous))
    retired: list[str] = []
    placed: list[str] = []
    try:
        for folder in sorted({relative.split("/", 1)[0] for relative in previous}):
            if os.path.lexists(target / folder):
                try:
                    (target / folder).rename(scratch / f"retired-{folder}")
                except OSError as error:  # e.g. a mount point: the folders moved before it go back
                    raise ExportFolderError(
                        f"{target}: cannot move {target / folder} aside to replace it "
                        f"({error.strerror or error}); nothing was changed"
                    ) from None
                retired.append(folder)
        for folder in folders:
            (scratch / folder).rename(target / folder)
            placed.append(folder)
        atomic_write(target / MANIFEST, manifest_bytes(new))
    except BaseException as error:
        try:
            for folder in reversed(placed):
                (target / folder).rename(scratch / folder)
            for folder in reversed(retired):
                (scratch / f"retired-{folder}").rename(target / folder)
            if before is None:
                (target / MANIFEST).unlink(missing_ok=True)
            else:
                atomic_write(target / MANIFEST, before)
        except OSError as undoing:  # the manifest still lists both: the next export takes whichever are in place
            raise ExportFolderError(
                f"{target}: the export stopped while it swapped its folders in ({error}) and "
                f"could not move the earlier ones back ({undoing.strerror or undoing}); export "
                "again"
            ) from None
        raise


def _os_error_line(target: Path, scratch: Path | None, error: OSError) -> str:
    """One line for a failure of the system while exporting, naming the file (within its repository)."""
    named = [Path(name) for name in (error.filename, error.filename2) if name]  # a copy names its source first
    written = [path for path in named if scratch is not None and path.is_relative_to(scratch)]
    where = written[0].relative_to(scratch) if written else named[0] if named else "the export"
    return f"{target}: cannot write {where} ({error.strerror or error}); nothing was changed"


def export(target: Path, release: Release, repos: list[HubRepo] | None = None) -> dict[str, list[tuple[str, int]]]:
    """Write every repository into `target/<folder>/`; each repository's folder -> its files and sizes."""
    target = Path(target)
    check_wheel(release)
    repos = hub_repos() if repos is None else repos
    recorded = check_export_folder(target)
    replaced = [target / MANIFEST, *(target / relative for relative in recorded)]
    refuse_input_as_output([(str(target), path) for path in replaced], [(f"--wheel {release.wheel}", release.wheel)])
    created = not os.path.lexists(target)
    try:
        target.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(target, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as error:
        raise ExportFolderError(f"{target}: cannot create the folder ({error.strerror or error})") from None
    scratch, done = None, False
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ExportFolderError(f"{target}: another `swords hub export` is writing this folder") from None
        for entry in os.scandir(target):  # scratch folders a killed export left; with the lock, none is at work
            if OWNERSHIP.is_scratch(Path(entry.path)):
                remove_scratch(Path(entry.path))
        try:
            scratch = OWNERSHIP.new_scratch(target)
            shipped = stage_wheel(release, scratch / _STAGED_WHEEL) if release.wheel is not None else release
            listing = {}
            for repo in repos:
                (scratch / repo.folder).mkdir()
                repo.write(scratch / repo.folder, shipped)
                listing[repo.folder] = repository_files(scratch / repo.folder)
            new = {
                f"{folder}/{relative}": sha256_of(scratch / folder / relative)
                for folder, files in listing.items()
                for relative, _ in files
            }
            previous = check_export_folder(target)  # nothing of the user's arrived while the export worked
            _swap(target, scratch, list(listing), new, previous)
        except OSError as error:
            raise ExportFolderError(_os_error_line(target, scratch, error)) from None
        done = True
    finally:
        try:
            if scratch is not None:
                remove_scratch(scratch)  # what is left of it stays marked: the next export removes it
        except ExportFolderError as error:
            if done:  # else the error that stopped the export is the one to show
                raise ExportFolderError(f"{target}: exported, but {error}") from None
        finally:
            os.close(descriptor)
            if created and not done:
                with contextlib.suppress(OSError):
                    target.rmdir()  # only if empty: what a failed export leaves of a folder it made
    return listing
