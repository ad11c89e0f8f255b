"""The folder `swords data build --output DIR` writes, and which of what is in it the build may replace.

The build writes `data/`, `README.md` (the card) and `swords-build.json`, its manifest of every file it wrote with
its sha256. Before any work each of the three that exists must be the build's, by content (every file under
`data/` and the README listed with its current sha256); a user's, an added or an edited file is refused in one line
naming it. Anything else in DIR is left alone. A build holds a lock on DIR: a second is refused at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from pathlib import Path

from swords_lexsub.errors import SwordsError
from swords_lexsub.files import SPECIAL_ROOTS, atomic_write, file_kind, sha256_of, unwritable
from swords_lexsub.owned_folder import Ownership

OWNERSHIP = Ownership(
    "swords data build",
    "swords-build.json",
    ".swords-build-",
    b"scratch folder of `swords data build`; removed when the build ends\n",
)
MANIFEST = OWNERSHIP.manifest
DATA, CARD = "data", "README.md"


class BuildFolderError(SwordsError):
    """The output folder cannot take a build (one line, naming the folder or the file at fault)."""


def files_under(folder: Path) -> dict[str, str]:
    """Every file the build wrote in a scratch folder (its data/ and card), relative path -> sha256."""
    found = {CARD: sha256_of(folder / CARD)}
    for path in sorted((folder / DATA).rglob("*")):
        if path.is_file():
            found[path.relative_to(folder).as_posix()] = sha256_of(path)
    return found


def _foreign(folder: Path) -> tuple[Path, str] | None:
    """The first of the build's names in `folder` the build did not write (or changed since), and why; else None."""
    manifest_path, data, card = folder / MANIFEST, folder / DATA, folder / CARD
    recorded: dict[str, set[str]] = {}
    if os.path.lexists(manifest_path):
        manifest = OWNERSHIP.read_manifest(manifest_path)
        if manifest is None:
            return manifest_path, "not a manifest of the build's"
        recorded = manifest
    listed_folders = {parent.as_posix() for relative in recorded for parent in Path(relative).parents}

    def check_file(path: Path) -> tuple[Path, str] | None:
        relative = path.relative_to(folder).as_posix()
        if path.is_symlink() or not path.is_file():
            return path, f"{file_kind(path)}, not a regular file"
        if relative not in recorded:
            return path, f"not listed in {folder / MANIFEST}" if recorded else f"{folder} has no {MANIFEST}"
        if sha256_of(path) not in recorded[relative]:
            return path, "changed since the build wrote it"
        return None

    if os.path.lexists(card) and (found := check_file(card)):
        return found
    if os.path.lexists(data):
        if data.is_symlink() or not data.is_dir():
            return data, f"{file_kind(data)}, not a folder"
        for root, folders, files in os.walk(data):
            for name in sorted(folders):
                path = Path(root) / name
                if path.is_symlink() or path.relative_to(folder).as_posix() not in listed_folders:
                    return path, "a folder the build does not make"
            for name in sorted(files):
                if found := check_file(Path(root) / name):
                    return found
    return None


def check_folder_path(folder: Path, what: str) -> None:
    """Before any work: `folder` can be a folder (not under /dev, /proc, /sys; not a file)."""
    resolved = Path(os.path.abspath(folder)).resolve()
    for root in SPECIAL_ROOTS:
        if resolved == root or resolved.is_relative_to(root):
            raise BuildFolderError(f"{what}: the dataset cannot go under {root}; name a folder")
    if folder.exists() and not folder.is_dir():
        raise BuildFolderError(f"{what}: {folder} is a file, not a folder")
    for ancestor in folder.parents:
        if ancestor.exists():
            if not ancestor.is_dir():
                raise BuildFolderError(f"{what}: {ancestor} is a file, not a folder")
            break


class BuildFolder:
    """The output folder of one build, checked and locked on entry, unlocked on exit (removed if this build made it
    and left nothing in it)."""

    def __init__(self, folder: str | os.PathLike, what: str | None = None) -> None:
        self.folder = Path(folder)
        self.what = what or f"--output {folder}"
        self._descriptor: int | None = None
        self._created = False

    def __enter__(self) -> BuildFolder:
        check_folder_path(self.folder, self.what)
        self._created = not self.folder.exists()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._descriptor = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
        except OSError as error:
            raise BuildFolderError(f"{self.what}: cannot create the folder ({error.strerror or error})") from None
        try:
            try:
                fcntl.flock(self._descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise BuildFolderError(
                    f"{self.what}: another `swords data build` is writing this folder; wait for it to finish"
                ) from None
            for entry in os.scandir(self.folder):  # scratch folders a killed build left (by their mark's content)
                if OWNERSHIP.is_scratch(Path(entry.path)):
                    shutil.rmtree(entry.path, ignore_errors=True)
            self.check()
            if (reason := unwritable(self.folder)) is not None:
                raise BuildFolderError(f"{self.what}: cannot write in the folder ({reason})")
            self._check_replaceable()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)  # the lock goes with it
            self._descriptor = None
        if self._created:
            with contextlib.suppress(OSError):
                self.folder.rmdir()  # only if empty: what a failed build leaves of a folder it made

    def check(self) -> None:
        """Refuse, naming it, the first of the build's names in the folder that the build did not write."""
        if (found := _foreign(self.folder)) is not None:
            path, why = found
            raise BuildFolderError(
                f"{self.what}: {path} was not written by `swords data build` ({why}); build into "
                "a new or empty folder, or one the build wrote"
            )

    def _check_replaceable(self) -> None:
        """Before any work: the previous data/ can be moved aside and removed (data/ and every folder in it take a
        new file), which a build would find out only when it swaps its new files in."""
        data = self.folder / DATA
        if data.is_symlink() or not data.is_dir():
            return
        for root, _, _ in os.walk(data):
            if (reason := unwritable(root)) is not None:
                raise BuildFolderError(
                    f"{self.what}: {root} cannot be written ({reason}); a rebuild "
                    "replaces it: make it writable, or build into a new folder"
                )

    def scratch(self) -> Path:
        """A new scratch folder inside the folder (same file system: its contents are moved into place)."""
        return OWNERSHIP.new_scratch(self.folder)

    def replace_with(self, scratch: Path) -> None:
        """Move a complete build (scratch/data, scratch/README.md) in, replacing the previous files, the manifest
        listing both meanwhile (a build killed halfway leaves a folder the next build recognises)."""
        self.check()  # nothing of the user's arrived while the build worked
        new = files_under(scratch)
        previous = OWNERSHIP.read_manifest(self.folder / MANIFEST) or {}
        atomic_write(self.folder / MANIFEST, OWNERSHIP.manifest_bytes(new, previous))
        data = self.folder / DATA
        retired = scratch / "retired-data"
        if os.path.lexists(data):
            data.rename(retired)
        try:
            (scratch / DATA).rename(data)
        except OSError:
            if os.path.lexists(retired):
                retired.rename(data)  # the previous dataset back in place, not removed with the scratch folder
            raise
        (scratch / CARD).replace(self.folder / CARD)
        atomic_write(self.folder / MANIFEST, OWNERSHIP.manifest_bytes(new))
        shutil.rmtree(retired, ignore_errors=True)
