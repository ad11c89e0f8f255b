"""The files of a run, where they may go, and which of them a run may replace.

A run writes `NAME.jsonl` (predictions), `NAME.json` (the upstream format), `NAME.metrics.json`, and while it
works `NAME.jsonl.partial` (its journal) and `.NAME.lock`. A user's files are never replaced: before any work,
every one of these that exists must be recognisably a run's own, by its content, not its name:
- the metrics file holds a run header (`"run": {"system": …}`), and since 0.1 the sha256 of the two
  prediction files it was written with (`run.files`);
- a prediction file is a run's when that header lists its current sha256 (a metrics file written before
  hashes were recorded vouches for its siblings as they are), or when a journal of a run is beside it (a run
  that stopped between writing its outputs and recording them);
- a journal starts with a run's header line; a lock file holds nothing but a process id.
Anything else is refused in one line naming the file; `--force` is the user's say-so to replace it.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from pathlib import Path

from swords_dataset.errors import SwordsError
from swords_dataset.files import atomic_write, check_output_file

JOURNAL_SUFFIX = ".partial"
PREDICTION_FILES = ("jsonl", "upstream")
_MAX_METRICS_BYTES = 64 * 2**20  # a metrics file is a few hundred kB; a larger one is not ours
_MAX_HEADER_BYTES = 2**20


def output_paths(output: Path) -> dict[str, Path]:
    """The files of a run: predictions as JSONL and in the upstream format, the metrics, the journal, and
    the lock that keeps two runs off the same output."""
    output = Path(output)
    name = output.name
    for suffix in (".jsonl", ".json"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return {
        "jsonl": output.with_name(name + ".jsonl"),
        "upstream": output.with_name(name + ".json"),
        "metrics": output.with_name(name + ".metrics.json"),
        "journal": output.with_name(name + ".jsonl" + JOURNAL_SUFFIX),
        "lock": output.with_name("." + name + ".lock"),
    }


def check_location(output: Path, paths: dict[str, Path]) -> None:
    """Before any work: the run's files can be ordinary files in an ordinary folder that takes files (made if
    missing)."""
    for path in paths.values():
        check_output_file(path, f"--output {output}", create_folder=True, kind="run files")


def _read_json(path: Path, limit: int) -> object:
    try:
        if path.stat().st_size > limit:
            return None
        return json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None


def run_header(paths: dict[str, Path]) -> dict | None:
    """The run header of the metrics file, if that file is a run's."""
    metrics = _read_json(paths["metrics"], _MAX_METRICS_BYTES)
    run = metrics.get("run") if isinstance(metrics, dict) else None
    return run if isinstance(run, dict) and isinstance(run.get("system"), str) else None


def journal_header(path: Path) -> dict | None:
    """The header line of a run's journal, if the file is one."""
    try:
        with open(path, "rb") as f:
            first = f.readline(_MAX_HEADER_BYTES)
        header = json.loads(first)
    except (OSError, ValueError, RecursionError):
        return None
    is_header = isinstance(header, dict) and isinstance(header.get("system"), str) and "options" in header
    return header if is_header else None


def _is_lock(path: Path) -> bool:
    try:
        if path.stat().st_size > 32:
            return False
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return False
    return text == "" or text.isdigit()


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def prediction_file_is_ours(paths: dict[str, Path], role: str, header: dict | None = None) -> bool:
    """Whether the run's prediction file `role` ("jsonl" or "upstream") is as a run wrote it."""
    header = run_header(paths) if header is None else header
    if header is not None:
        recorded = header.get("files")
        if not isinstance(recorded, dict):  # written before runs recorded their files' hashes
            return True
        if recorded.get(role) == sha256(paths[role]):
            return True
    return journal_header(paths["journal"]) is not None


def foreign_files(paths: dict[str, Path]) -> list[Path]:
    """The existing files among a run's that no run wrote (or that were changed since)."""
    foreign = []
    header = run_header(paths)
    if paths["metrics"].exists() and header is None:
        foreign.append(paths["metrics"])
    for role in PREDICTION_FILES:
        if paths[role].exists() and not prediction_file_is_ours(paths, role, header):
            foreign.append(paths[role])
    if paths["journal"].exists() and journal_header(paths["journal"]) is None:
        foreign.append(paths["journal"])
    if paths["lock"].exists() and not _is_lock(paths["lock"]):
        foreign.append(paths["lock"])
    return foreign


def check_ownership(paths: dict[str, Path], force: bool) -> None:
    """Before any work: refuse to replace a file no run wrote, unless --force says to."""
    foreign = [] if force else foreign_files(paths)
    if foreign:
        more = f" (and {', '.join(str(p) for p in foreign[1:])})" if len(foreign) > 1 else ""
        raise SwordsError(f"{foreign[0]}{more} exists and was not written by `swords run` (or was changed since); "
                          "choose another --output, or pass --force to replace it")


def file_hashes(paths: dict[str, Path]) -> dict[str, str]:
    return {role: sha256(paths[role]) for role in PREDICTION_FILES if paths[role].is_file()}


def record_outputs(paths: dict[str, Path], header: dict) -> dict:
    """Record that a run wrote its prediction files (the metrics file, with their sha256), before the journal
    that vouched for them goes. Returns the header with the hashes."""
    recorded = {**header, "files": file_hashes(paths)}
    atomic_write(paths["metrics"], json.dumps({"run": recorded}, indent=2).encode("utf-8"))
    return recorded


class RunLock:
    """An exclusive lock on an output, held for the whole run; a second run on it is refused at once."""

    def __init__(self, paths: dict[str, Path]) -> None:
        self.path, self.output = paths["lock"], paths["jsonl"]
        self.handle = None

    def __enter__(self) -> RunLock:
        try:
            self.handle = open(self.path, "a+")
        except OSError as error:
            raise SwordsError(f"cannot create the run's lock file {self.path} ({error.strerror or error})") from None
        try:
            fcntl.flock(self.handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.handle.seek(0)
            owner = self.handle.read().strip() or "another process"
            self.handle.close()
            raise SwordsError(
                f"another `swords run` (process {owner}) is writing {self.output}; wait for it to finish or choose "
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
