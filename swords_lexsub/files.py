"""Writing files so that a crash, a kill or a full disk never leaves a half-written one in place."""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import re
import resource
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from swords_lexsub.errors import SwordsError
from swords_lexsub.terminal import shown

# errno values that mean "no room": a full disk or quota, or a file-size limit.
NO_SPACE = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
# Kernel file systems: a path there is a device or a view of the kernel, never a place for an output.
SPECIAL_ROOTS = (Path("/dev"), Path("/proc"), Path("/sys"))


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISREG, "a regular file"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def mode_kind(mode: int) -> str:
    """What a file of this `st_mode` is, in words: "a regular file", "a folder", "a FIFO" (a named pipe), ..."""
    return next((kind for test, kind in _KINDS if test(mode)), "a special file")


def file_kind(path: str | Path) -> str:
    """What is at `path`, in words, without following a link ("a symbolic link (to TARGET)") or opening anything."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return "nothing"
    if stat.S_ISLNK(mode):
        try:
            return f"a symbolic link (to {os.readlink(path)})"
        except OSError:
            return "a symbolic link"
    return mode_kind(mode)


def open_regular(path: str | Path, what: str) -> BinaryIO:
    """`path` opened for reading if it is a regular file (through a link too), without blocking; anything else is one
    SwordsError, "WHAT PATH is a FIFO, not a regular file"; FileNotFoundError when there is nothing there."""
    path = Path(path)
    named = f"{what} {path}" if what else str(path)
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as error:  # a socket (ENXIO), no permission, a loop of links
        kind = _followed_kind(path)
        if kind is not None:
            raise SwordsError(f"{named} is {kind}, not a regular file") from None
        raise SwordsError(f"{named}: cannot be read ({error.strerror or error})") from error
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        raise SwordsError(f"{named} is {mode_kind(mode)}{_through_link(path)}, not a regular file")
    os.set_blocking(descriptor, True)
    return os.fdopen(descriptor, "rb")


def _followed_kind(path: Path) -> str | None:
    """What `path` leads to, if it is not a regular file (links followed); None for a regular file or no answer."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return file_kind(path) if path.is_symlink() else None
    return None if stat.S_ISREG(mode) else mode_kind(mode) + _through_link(path)


def _through_link(path: Path) -> str:
    try:
        return f" (a symbolic link to {os.readlink(path)})" if path.is_symlink() else ""
    except OSError:
        return " (a symbolic link)"


def no_space(error: BaseException | None) -> bool:
    return isinstance(error, OSError) and error.errno in NO_SPACE


def no_space_reason(error: OSError) -> str:
    """What a NO_SPACE error means, in words: a file-size limit is not a full disk."""
    if error.errno == errno.EFBIG:
        return f"larger than the file-size limit allows (ulimit -f: {_size_limit():,} bytes)"
    return f"no space left on the device ({os.strerror(error.errno) if error.errno else error})"


def _size_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_FSIZE)[0]  # the soft limit


def check_room(folder: str | Path, needed: int, largest: int, what: str) -> None:
    """Before any work: the device holding `folder` has `needed` bytes free, and the file-size limit (ulimit -f)
    lets a file of `largest` bytes be written; else one SwordsError naming `what` and the figures."""
    stats = os.statvfs(folder)
    free = stats.f_bavail * stats.f_frsize
    if free < needed:
        raise SwordsError(
            f"{what}: no space left on the device for it ({free:,} bytes free, {needed:,} needed); nothing was changed"
        )
    limit = _size_limit()
    if limit != resource.RLIM_INFINITY and limit < largest:
        raise SwordsError(
            f"{what}: the file-size limit (ulimit -f) is {limit:,} bytes, and files of up to "
            f"{largest:,} bytes are to be written; nothing was changed"
        )


def _no_space_cause(error: BaseException) -> OSError | None:
    """The full-disk error behind `error`, if any: a writer such as pyarrow's re-raises it as its own."""
    for candidate in (error, error.__cause__, error.__context__):
        if no_space(candidate):
            return candidate
    return None


# The temporary file an atomic write goes through: `.NAME.swords-XXXXXXXX.tmp` beside NAME; its writer holds an
# exclusive flock on it, so one nobody holds was left by a killed writer and can go.
_TEMPORARY_INFIX = ".swords-"
_TEMPORARY_RANDOM = re.compile(r"[a-z0-9_]{8}")


def _temporary_prefix(path: Path) -> str:
    return f".{path.name}{_TEMPORARY_INFIX}"


def remove_stale_temporaries(path: str | Path) -> list[Path]:
    """Remove the temporary files killed atomic writes of `path` left (their name, no writer holding them);
    returns those removed."""
    path = Path(path)
    prefix = _temporary_prefix(path)
    removed = []
    try:
        names = [entry.name for entry in os.scandir(path.parent) if entry.name.startswith(prefix)]
    except OSError:
        return removed
    for name in names:
        middle = name[len(prefix) : -len(".tmp")] if name.endswith(".tmp") else ""
        if not _TEMPORARY_RANDOM.fullmatch(middle):
            continue
        candidate = path.parent / name
        try:
            descriptor = os.open(candidate, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue  # a symlink, or gone
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                continue
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # a writer holds it: still at work
        else:
            with suppress(OSError):
                candidate.unlink()
                removed.append(candidate)
        finally:
            os.close(descriptor)
    return removed


@contextmanager
def atomic_writer(path: str | Path, durable: bool = True) -> Iterator[BinaryIO]:
    """A binary file to write `path` through: a temporary file beside it, flushed and renamed over `path` when the block
    ends, so a reader sees the old file or the new, never a part (one a kill -9 left goes at the next write). A full
    disk is one SwordsError; permissions follow the umask. `durable=False` skips the flush (a cache entry)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(path)
    import tempfile  # here: it imports shutil, bz2 and lzma, 7 ms of a plain `swords evaluate` that writes nothing

    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=_temporary_prefix(path), suffix=".tmp")
    fcntl.flock(descriptor, fcntl.LOCK_EX)  # ours alone, and known to be at work, until it is closed
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes the file private; the output is an ordinary file
        with os.fdopen(descriptor, "wb") as f:
            yield f
            f.flush()
            if durable:
                os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        full = _no_space_cause(error)
        if full is not None:
            raise SwordsError(f"{path}: {no_space_reason(full)}") from None
        raise


def check_output_file(path: str | Path, what: str, create_folder: bool = False, kind: str = "files") -> None:
    """Before any work: `path` can become an ordinary file written atomically in a folder that takes files (made with
    `create_folder`); else one SwordsError naming `what` (e.g. "--output x.jsonl")."""
    path = Path(path)
    resolved = Path(os.path.abspath(path)).resolve()
    for root in SPECIAL_ROOTS:
        if resolved == root or resolved.is_relative_to(root):
            raise SwordsError(f"{what}: {kind} cannot go under {root}; name a file in an ordinary folder")
    folder = path.parent
    for ancestor in (folder, *folder.parents):
        if ancestor.exists() or ancestor.is_symlink():
            if not ancestor.is_dir():
                raise SwordsError(f"{what}: {ancestor} is a file, not a folder")
            break
    if path.is_dir():
        raise SwordsError(f"{what}: {path} is a folder; name a file")
    if path.exists() and not path.is_file():
        raise SwordsError(f"{what}: {path} exists and is not a regular file (a pipe, socket or device)")
    if not folder.is_dir() and not create_folder:
        raise SwordsError(f"{what}: the folder {folder} does not exist")
    if (reason := unwritable(folder, create=True)) is not None:
        raise SwordsError(f"{what}: cannot write in the folder {folder} ({reason})")


def unwritable(folder: str | Path, create: bool = False) -> str | None:
    """Why a new file cannot be made in `folder` (made first if missing, with `create`), as the OS says; None if it
    can. A probe file, ours, is made and removed at once."""
    try:
        if create:
            Path(folder).mkdir(parents=True, exist_ok=True)
        import tempfile

        descriptor, probe = tempfile.mkstemp(dir=folder, prefix=".swords-probe-")
        os.close(descriptor)
        os.unlink(probe)
    except OSError as error:
        return error.strerror or str(error)
    return None


def _identity(path: str | Path) -> tuple[int, int] | None:
    """(device, inode) of the file `path` leads to (links followed); None when there is nothing to compare."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):  # missing, unreadable, a NUL in the name: not a file this command reads
        return None
    return info.st_dev, info.st_ino


def _how_same(output: Path, read: Path) -> str:
    """How two names of one file are one: the path as written, a symbolic link, or another name altogether."""
    if os.path.abspath(output) == os.path.abspath(read):
        return "the same path"
    if os.path.realpath(output) == os.path.realpath(read):
        return "through a symbolic link"
    return "another name of it: a hard link or a bind mount"


def refuse_input_as_output(
    outputs: Iterable[tuple[str, str | Path]], inputs: Iterable[tuple[str, str | Path | None]]
) -> None:
    """Before any work: no file a command writes, replaces or removes (`outputs`) is one it reads (`inputs`), --force
    or not; each is (what names it, e.g. "--output x.jsonl", the path). Compared by device and inode, links followed
    (a hard link, a bind mount, `./x` caught too); an input not there is left to the command. One SwordsError."""
    read = [(what, Path(path), _identity(path)) for what, path in inputs if path is not None and str(path)]
    read = [(what, path, identity) for what, path, identity in read if identity is not None]
    for what, path in outputs:
        identity = _identity(path)  # None: a new file, which no input can be
        for input_what, input_path, input_identity in read:
            if identity is not None and identity == input_identity:
                named = "" if what.endswith(str(path)) else f": {shown(path)}"
                raise SwordsError(
                    f"{what}{named} is the same file as {input_what} ({_how_same(Path(path), input_path)}), which "
                    "this command reads; writing it would destroy its own input, so it is refused even with "
                    "--force: name another file"
                )


def check_writable_folder(folder: str | Path, what: str, hint: str = "") -> None:
    """Before any work: `folder` exists (made if missing) and takes a new file (a probe made and removed), or one
    SwordsError naming it and why, with `hint` after it."""
    if (reason := unwritable(folder, create=True)) is not None:
        raise SwordsError(f"{what} {folder}: cannot write in it ({reason})" + (f"; {hint}" if hint else ""))


def atomic_write(path: str | Path, data: bytes, durable: bool = True) -> None:
    """Write `data` to `path` atomically (see atomic_writer): a reader sees the old file or the new one."""
    with atomic_writer(path, durable) as f:
        f.write(data)


def sha256_of(path: Path, what: str = "file") -> str:
    """The file's sha256; a SwordsError naming a folder, FIFO, socket or device at `path` (never blocking on one)."""
    digest = hashlib.sha256()
    with open_regular(path, what) as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
