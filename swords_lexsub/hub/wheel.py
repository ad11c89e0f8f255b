"""The release's wheel that `--wheel PATH` ships in the repositories until PyPI has the release. Its name goes into
requirements.txt, so it must parse strictly as a wheel of this distribution and release, and its METADATA say so;
file, zip directory and METADATA are bounded before they are read. Copied once (stage_wheel), linked in (ship_wheel)."""

from __future__ import annotations

import lzma
import os
import re
import shutil
import stat
import struct
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO

from swords_lexsub.errors import SwordsError
from swords_lexsub.files import mode_kind
from swords_lexsub.hub.repos import Release

DISTRIBUTION = "swords-lexsub"
MAX_WHEEL_BYTES = 64 * 2**20  # this release's wheel is 11 MB
MAX_WHEEL_ENTRIES = 10_000  # it holds 178 files
MAX_DIRECTORY_BYTES = 4 * 2**20  # its zip directory: 14 kB
MAX_METADATA_BYTES = 4 * 2**20  # its METADATA (the README is its long description): 114 kB
_BLOCK = 2**20
# What wheel names are made of (PEP 427 with PEP 440 versions); parse_wheel_filename alone lets spaces, newlines
# and escape sequences through in the tags.
_WHEEL_NAME = re.compile(r"[A-Za-z0-9_.+-]+\.whl")
_END_OF_DIRECTORY = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"


def _refused(wheel: Path, why: str) -> SwordsError:
    return SwordsError(f"--wheel {wheel}: {why}")


def check_wheel_name(release: Release) -> None:
    """The wheel's name is NAME-VERSION[-BUILD]-PYTHON-ABI-PLATFORM.whl of this release, of wheel names' characters."""
    from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

    wheel = Path(release.wheel)
    try:
        name, version, _, _ = parse_wheel_filename(wheel.name)
    except InvalidWheelFilename:
        raise _refused(wheel, "not a wheel's file name (NAME-VERSION-TAGS.whl)") from None
    if not (_WHEEL_NAME.fullmatch(wheel.name) and wheel.name.split("-")[1] == str(version)):  # no "v0.1.0"
        raise _refused(
            wheel,
            "not a wheel's file name (NAME-VERSION-TAGS.whl, in the letters, digits, '_' and '.' "
            "wheel names are made of)",
        )
    if canonicalize_name(name) != DISTRIBUTION or str(version) != release.version:
        raise _refused(wheel, f"a wheel of {name} {version}, not of {DISTRIBUTION} {release.version}")


@contextmanager
def _opened(wheel: Path) -> Iterator[BinaryIO]:
    """The wheel, open, once it is known to be a regular file of at most MAX_WHEEL_BYTES (never blocking on a pipe)."""
    try:
        descriptor = os.open(wheel, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise _refused(wheel, "no such file") from None
    except OSError as error:
        raise _refused(wheel, f"cannot be read ({error.strerror or error})") from None
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_WHEEL_BYTES:
        os.close(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise _refused(wheel, f"{mode_kind(info.st_mode)}, not a wheel file")
        raise _refused(wheel, f"{info.st_size:,} bytes, over the {MAX_WHEEL_BYTES:,} a wheel may have")
    with os.fdopen(descriptor, "rb") as f:
        yield f


def _check_directory(f: BinaryIO, wheel: Path, version: str) -> None:
    """Bound the zip's directory before zipfile reads it (an 82 MB zip of a million empty files costs it 540 MB),
    from the end-of-directory record; a ZIP64 archive is refused."""
    size = f.seek(0, os.SEEK_END)
    tail_size = min(size, 22 + 0xFFFF)  # the record (22 bytes) and the longest comment it may have
    f.seek(size - tail_size)
    tail = f.read(tail_size)
    found = (
        tail_size - 22 if tail[-22:-18] == _END_OF_DIRECTORY and tail[-2:] == b"\0\0" else tail.rfind(_END_OF_DIRECTORY)
    )
    if found < 0 or len(tail) - found < 22:
        raise _refused(wheel, f"not a wheel of {DISTRIBUTION} {version} (not a zip archive)")
    if found >= 20 and tail[found - 20 : found - 16] == _ZIP64_LOCATOR:
        raise _refused(wheel, "a ZIP64 archive, which a wheel of this release never is")
    entries, directory_bytes = struct.unpack("<HI", tail[found + 10 : found + 16])
    if entries > MAX_WHEEL_ENTRIES or directory_bytes > MAX_DIRECTORY_BYTES:
        raise _refused(
            wheel,
            f"its zip directory lists {entries:,} files in {directory_bytes:,} bytes, over the "
            f"{MAX_WHEEL_ENTRIES:,} files and {MAX_DIRECTORY_BYTES:,} bytes a wheel may have",
        )
    f.seek(0)


def _check_metadata(f: BinaryIO, wheel: Path, version: str) -> None:
    """The wheel's METADATA names this distribution and release (read up to MAX_METADATA_BYTES, whatever it says)."""
    metadata = f"{DISTRIBUTION.replace('-', '_')}-{version}.dist-info/METADATA"
    _check_directory(f, wheel, version)
    try:
        with zipfile.ZipFile(f) as archive:
            info = archive.getinfo(metadata)
            if info.file_size > MAX_METADATA_BYTES:
                raise _refused(
                    wheel,
                    f"its {metadata} declares {info.file_size:,} bytes, over the {MAX_METADATA_BYTES:,} it may have",
                )
            with archive.open(info) as member:  # stops at the declared size (a longer stream fails its CRC)
                content = member.read(MAX_METADATA_BYTES + 1)
        fields = content.decode("utf-8").split("\n\n", 1)[0].splitlines()
    except SwordsError:
        raise
    except KeyError:
        raise _refused(wheel, f"not a wheel of {DISTRIBUTION} {version} (it has no {metadata})") from None
    except (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, OSError, RuntimeError, ValueError) as error:
        if isinstance(error, NotImplementedError):  # a RuntimeError too
            reason = "it is compressed with a method zipfile cannot read"
        elif isinstance(error, RuntimeError):  # zipfile's word for a member that needs a password
            reason = "it is encrypted"
        else:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise _refused(
            wheel, f"not a wheel of {DISTRIBUTION} {version} ({metadata} cannot be read: {reason[:200]})"
        ) from None
    if f"Version: {version}" not in fields or f"Name: {DISTRIBUTION}" not in fields:
        raise _refused(wheel, f"its {metadata} is not {DISTRIBUTION} {version}'s")


def check_wheel(release: Release) -> None:
    """The wheel (if any) is one of this release, by name and metadata; else one SwordsError naming --wheel."""
    if release.wheel is None:
        return
    check_wheel_name(release)
    with _opened(Path(release.wheel)) as f:
        _check_metadata(f, Path(release.wheel), release.version)


def stage_wheel(release: Release, folder: Path) -> Release:
    """Copy the wheel once into `folder` (at most MAX_WHEEL_BYTES) and check the copy; the release with it as wheel."""
    wheel = Path(release.wheel)
    check_wheel_name(release)
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / wheel.name
    partial = folder / f".{wheel.name}.part"  # renamed once whole and checked: pip never sees half a wheel
    try:
        with _opened(wheel) as source, open(partial, "xb") as target:
            copied = 0
            while block := source.read(_BLOCK):
                copied += len(block)
                if copied > MAX_WHEEL_BYTES:  # it grew since it was opened
                    raise _refused(wheel, f"over the {MAX_WHEEL_BYTES:,} bytes a wheel may have")
                target.write(block)
        with open(partial, "rb") as f:
            _check_metadata(f, wheel, release.version)
        partial.replace(copy)
    finally:
        partial.unlink(missing_ok=True)
    return replace(release, wheel=copy, wheel_staged=True)


def ship_wheel(release: Release, folder: Path) -> None:
    """Put the release's wheel into the repository `folder`: a link to the staged copy (copied where links fail), else
    a checked copy of the user's file."""
    if release.wheel is None:
        return
    wheel = Path(release.wheel)
    if not release.wheel_staged:
        stage_wheel(release, folder)
        return
    try:
        os.link(wheel, folder / wheel.name)
    except OSError:
        shutil.copyfile(wheel, folder / wheel.name)
