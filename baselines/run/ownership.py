"""Which of a run's files a run wrote, known by their content, not their name, and how a run writes its prediction
files so that they stay known: a user's file is never replaced (`--force` is the user's say-so).

A metrics file holds a run header (`"run": {"system": …}`, with `files`: its prediction files' sha256); a prediction
file is a run's when its sha256 is in that header (a header without `files` vouches for its siblings as they are)
or in the journal, which records the files' sha256 before they are moved into place (so a run stopped before its
metrics file still knows them); a journal starts with a run's header line; a lock holds nothing but a process id.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import IO

from swords_baselines.run.files import PREDICTION_FILES
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_write, sha256_of

_MAX_METRICS_BYTES = 64 * 2**20  # a metrics file is a few hundred kB; a larger one is not ours
_MAX_HEADER_BYTES = 2**20
_SHA256 = re.compile(r"[0-9a-f]{64}")
# The folder the outputs are written in before they are moved into place: mkdtemp's eight random characters.
_STAGING_INFIX = ".swords-staging-"
_STAGING_RANDOM = re.compile(r"[a-z0-9_]{8}")


def run_header(paths: dict[str, Path]) -> dict | None:
    """The run header of the metrics file, if that file is a run's."""
    path, metrics = paths["metrics"], None
    with suppress(OSError, ValueError, RecursionError):
        metrics = None if path.stat().st_size > _MAX_METRICS_BYTES else json.loads(path.read_bytes())
    run = metrics.get("run") if isinstance(metrics, dict) else None
    return run if isinstance(run, dict) and isinstance(run.get("system"), str) else None


def strict_json(data: bytes | str) -> object:
    """JSON as its other readers take it: NaN, Infinity and 1e999, which Python's json reads, a ValueError."""
    return json.loads(data, parse_constant=_not_a_number, parse_float=_finite)


def _not_a_number(constant: str) -> None:
    raise ValueError(f"{constant} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is past a number's range")
    return value


def first_line_json(path: Path) -> object:
    """The JSON of a file's first line (a journal's header, read within _MAX_HEADER_BYTES), or None."""
    try:
        with open(path, "rb") as f:
            return json.loads(f.readline(_MAX_HEADER_BYTES))
    except (OSError, ValueError, RecursionError):
        return None


def journal_header(path: Path) -> dict | None:
    """The header line of a run's journal, if the file is one."""
    header = first_line_json(path)
    is_header = isinstance(header, dict) and isinstance(header.get("system"), str) and "options" in header
    return header if is_header else None


def one_key_record(line: bytes | str, key: str) -> object | None:
    """The value of a journal line that is `{key: value}` and nothing else (read as JSON only when it opens so: a
    journal's answer lines are never parsed twice), else None."""
    if isinstance(line, str):
        line = line.encode("utf-8", "surrogatepass")
    if not line.startswith(b'{"' + key.encode() + b'": '):
        return None
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return record.get(key) if isinstance(record, dict) and len(record) == 1 else None


def outputs_record(line: bytes | str) -> dict[str, str] | None:
    """The sha256 in a journal's outputs record (`{"outputs": {"jsonl": SHA256, "upstream": SHA256}}`), else None."""
    hashes = one_key_record(line, "outputs")
    if not isinstance(hashes, dict) or set(hashes) != set(PREDICTION_FILES):
        return None
    valid = all(isinstance(value, str) and _SHA256.fullmatch(value) for value in hashes.values())
    return hashes if valid else None


def journal_outputs(path: Path) -> list[dict[str, str]]:
    """Every outputs record in a run's journal (none if the file is not a journal)."""
    if journal_header(path) is None:
        return []
    try:
        with open(path, "rb") as f:
            return [record for record in map(outputs_record, f) if record is not None]
    except OSError:
        return []


def is_lock(path: Path) -> bool:
    """Whether a lock file is as a run leaves it: empty, or nothing but a process id."""
    try:
        if path.stat().st_size > 32:
            return False
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return False
    return text == "" or text.isdigit()


def prediction_file_is_ours(paths: dict[str, Path], role: str, header: dict | None = None) -> bool:
    """Whether the prediction file `role` ("jsonl" or "upstream") is as a run wrote it (the module docstring)."""
    header = run_header(paths) if header is None else header
    if header is not None and not isinstance(header.get("files"), dict):
        return True  # written before runs recorded their files' hashes
    recorded = [header["files"]] if header is not None else []
    recorded += journal_outputs(paths["journal"])
    if not recorded:
        return False
    try:
        actual = sha256_of(paths[role], "run file")
    except (OSError, SwordsError):  # gone, unreadable, or not a regular file: not vouched for
        return False
    return any(hashes.get(role) == actual for hashes in recorded)


def foreign_files(paths: dict[str, Path]) -> list[Path]:
    """The existing files among a run's that no run wrote (or that were changed since)."""
    header = run_header(paths)
    ours = {
        "metrics": lambda: header is not None,
        **{role: functools.partial(prediction_file_is_ours, paths, role, header) for role in PREDICTION_FILES},
        "journal": lambda: journal_header(paths["journal"]) is not None,
        "lock": lambda: is_lock(paths["lock"]),
    }
    return [paths[role] for role, is_ours in ours.items() if paths[role].exists() and not is_ours()]


def check_ownership(paths: dict[str, Path], force: bool) -> None:
    """Before any work: refuse to replace a file no run wrote, unless --force says to."""
    foreign = [] if force else foreign_files(paths)
    if foreign:
        more = f" (and {', '.join(str(p) for p in foreign[1:])})" if len(foreign) > 1 else ""
        raise SwordsError(
            f"{foreign[0]}{more} exists and was not written by `swords run` (or was changed since); "
            "choose another --output, or pass --force to replace it"
        )


def file_hashes(paths: dict[str, Path]) -> dict[str, str]:
    return {role: sha256_of(paths[role]) for role in PREDICTION_FILES if paths[role].is_file()}


def record_outputs(paths: dict[str, Path], header: dict, hashes: dict[str, str] | None = None) -> dict:
    """Write (and return) the metrics file's header with the prediction files' sha256, before the journal goes."""
    recorded = {**header, "files": file_hashes(paths) if hashes is None else hashes}
    atomic_write(paths["metrics"], json.dumps({"run": recorded}, indent=2, allow_nan=False).encode("utf-8"))
    return recorded


def _staging_prefix(paths: dict[str, Path]) -> str:
    return f".{paths['jsonl'].name}{_STAGING_INFIX}"


def remove_stale_staging(paths: dict[str, Path]) -> None:
    """Remove the staging folders (holding only prediction files) a killed run left; under the run's lock."""
    folder, prefix = paths["jsonl"].parent, _staging_prefix(paths)
    names = {paths[role].name for role in PREDICTION_FILES}
    try:
        candidates = [entry for entry in os.scandir(folder) if entry.name.startswith(prefix)]
    except OSError:
        return
    for candidate in candidates:
        if not _STAGING_RANDOM.fullmatch(candidate.name[len(prefix) :]) or not candidate.is_dir(follow_symlinks=False):
            continue
        try:
            entries = list(os.scandir(candidate.path))
            ours = all(
                entry.is_file(follow_symlinks=False)
                and (entry.name in names or any(entry.name.startswith(f".{name}.swords-") for name in names))
                for entry in entries
            )
            if ours:
                shutil.rmtree(candidate.path)
        except OSError:
            continue


def write_outputs(
    paths: dict[str, Path], header: dict, journal: IO[str], write: Callable[[dict[str, Path]], None]
) -> dict:
    """Write a run's prediction files so that each is recognisably a run's at every moment: `write` makes them in a
    staging folder, their sha256 go into the journal (fsynced), they are moved into place, and the metrics file
    records them; a kill leaves the old files or the new, both known. Returns the header; the caller holds the lock."""
    remove_stale_staging(paths)
    staging = Path(tempfile.mkdtemp(dir=paths["jsonl"].parent, prefix=_staging_prefix(paths)))
    staged = {role: staging / paths[role].name for role in PREDICTION_FILES}
    try:
        try:
            write(staged)
        except SwordsError as error:  # no space: name the outputs, not the staging folder
            message = str(error)
            for role in PREDICTION_FILES:
                message = message.replace(str(staged[role]), str(paths[role]))
            raise SwordsError(message) from None
        hashes = {role: sha256_of(staged[role]) for role in PREDICTION_FILES}
        journal.write(json.dumps({"outputs": hashes}) + "\n")
        journal.flush()
        os.fsync(journal.fileno())
        for role in PREDICTION_FILES:
            os.replace(staged[role], paths[role])  # replaces whatever is at the name, never writes through it
        return record_outputs(paths, header, hashes)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
