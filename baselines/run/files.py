"""The files of a run and where they may go: `NAME.jsonl` (predictions), `NAME.json` (upstream format),
`NAME.metrics.json`, and while it works `NAME.jsonl.partial` (its journal) and `.NAME.lock`; their checks before any
work, and the files written in place (journal, lock), never through a symbolic link.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path

from swords_lexsub.errors import SwordsError
from swords_lexsub.files import check_output_file

JOURNAL_SUFFIX = ".partial"
PREDICTION_FILES = ("jsonl", "upstream")
OUTPUT_SUFFIXES = (".jsonl", ".json")


def output_paths(output: Path) -> dict[str, Path]:
    """The files of a run, by role."""
    output = Path(output)
    name = next((output.name[: -len(s)] for s in OUTPUT_SUFFIXES if output.name.endswith(s)), output.name)
    return {
        "jsonl": output.with_name(name + ".jsonl"),
        "upstream": output.with_name(name + ".json"),
        "metrics": output.with_name(name + ".metrics.json"),
        "journal": output.with_name(name + ".jsonl" + JOURNAL_SUFFIX),
        "lock": output.with_name("." + name + ".lock"),
    }


def written_files(paths: dict[str, Path]) -> str:
    """The files a finished run leaves, as one phrase for the terminal."""
    return f"{paths['jsonl']} (predictions), {paths['upstream']} (upstream format), {paths['metrics']} (metrics)"


def check_location(output: Path, paths: dict[str, Path]) -> None:
    """Before any work: the run's files can be ordinary files (no symbolic link) in a folder, made if missing."""
    for path in paths.values():
        if path.is_symlink():
            raise SwordsError(
                f"--output {output}: {path} is a symbolic link (to {os.readlink(path)}); a run never "
                "writes through a link: remove it or choose another --output"
            )
        check_output_file(path, f"--output {output}", create_folder=True, kind="run files")


def open_in_place(path: Path, flags: int) -> int:
    """A descriptor of `path` (a journal, a lock) written in place: a regular file with no other name (a hard link's
    would be written too), never through a symbolic link; else one SwordsError."""
    try:
        descriptor = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise SwordsError(
                f"{path} is a symbolic link; a run never writes through a link: remove it or choose another --output"
            ) from None
        raise SwordsError(f"cannot open the run's file {path} ({error.strerror or error})") from None
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink > 1:
        os.close(descriptor)
        what = "has another name (a hard link)" if stat.S_ISREG(info.st_mode) else "is not a regular file"
        raise SwordsError(
            f"{path} {what}; a run writes only files of its own there: remove it or choose another --output"
        )
    os.set_blocking(descriptor, True)
    return descriptor


def whole_lines(journal: Path) -> bytes:
    """A journal's bytes up to its last newline, a last line cut short cut off the file first."""
    data = journal.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) != len(data):
        descriptor = open_in_place(journal, os.O_WRONLY)
        try:
            os.ftruncate(descriptor, len(complete))
        finally:
            os.close(descriptor)
    return complete


class RunLock:
    """An exclusive lock on an output, held for the whole run; a second run on it is refused at once."""

    def __init__(self, paths: dict[str, Path], command: str = "swords run") -> None:
        self.path, self.output, self.command = paths["lock"], paths["jsonl"], command
        self.handle = None

    def __enter__(self) -> RunLock:
        self.handle = os.fdopen(open_in_place(self.path, os.O_RDWR | os.O_CREAT), "r+")
        try:
            fcntl.flock(self.handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.handle.seek(0)
            owner = self.handle.read(32).strip() or "another process"
            self.handle.close()
            raise SwordsError(
                f"another `{self.command}` (process {owner}) is writing {self.output}; wait for it to finish or choose "
                "another --output"
            ) from None
        self.handle.seek(0)
        self.handle.truncate()
        self.handle.write(str(os.getpid()))
        self.handle.flush()
        return self

    def __exit__(self, *exc) -> None:
        self.path.unlink(missing_ok=True)  # while still held: a waiting run is refused, not confused
        self.handle.close()
