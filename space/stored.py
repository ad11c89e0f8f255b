"""The stored runs the Score and Leaderboard tabs offer: the files `swords run` wrote in the results folder,
found by the runner's own file naming (swords_baselines.run.files.output_paths).

The folder is the host's, and anything may be in it: a metrics file is read only if it is a regular file of at
most MAX_METRICS_BYTES (a pipe, a device, /dev/zero behind a symlink or a huge file is never read), parsed as
standard JSON (no NaN; nesting of any depth is an error, not a crash) and checked for what the tabs use (the
run's header: system, benchmark, split). A file that fails is skipped with one log line naming it, once per
version of the file, and the tabs show the rest."""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path

from swords_baselines.run.files import output_paths
from swords_lexsub.errors import SwordsError
from swords_lexsub.terminal import shown
from swords_space import SPACE_DIR, benchmarks
from swords_space.errors import SpaceError

RESULTS_ENV = "SWORDS_SPACE_RESULTS"
MAX_METRICS_BYTES = 2**20  # a metrics file of `swords run` is about 8 kB
MAX_NAME_CHARS = 200  # a system's, a benchmark's or a split's name in a run header
log = logging.getLogger("swords_space")
_reported: set[tuple] = set()  # (path, size, modified) of the unusable files already logged


class UnusableFile(Exception):
    """A file of the results folder the tabs cannot use; str(error) says why."""


def results_dir(folder: str | Path | None = None) -> Path:
    """Where stored baseline results live: the argument, else $SWORDS_SPACE_RESULTS, else space/results."""
    return Path(folder or os.environ.get(RESULTS_ENV) or SPACE_DIR / "results")


def skipped(path: Path, reason: str) -> None:
    """Log once (per version of the file) that `path` is skipped, and why."""
    try:
        info = path.stat()
        version = (str(path), info.st_size, info.st_mtime_ns)
    except OSError:
        version = (str(path), None, None)
    if version not in _reported:
        _reported.add(version)
        log.warning("results folder: skipped %s: %s", shown(path), shown(reason))


def read_bounded(path: Path, limit: int = MAX_METRICS_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes: anything else (a folder, a pipe, a device) is refused
    from its stat before it is opened, and checked again once open (it may have been replaced), without blocking
    on a pipe; the descriptor is closed whatever happens."""
    try:
        info = path.stat()
    except OSError as error:
        raise UnusableFile(f"cannot be read ({error.strerror})") from None
    _check_regular(info, limit)
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a pipe swapped in opens at once, refused below
    except OSError as error:
        raise UnusableFile(f"cannot be opened ({error.strerror})") from None
    try:
        _check_regular(os.fstat(descriptor), limit)
        content = b""
        while len(content) <= limit and (block := os.read(descriptor, limit + 1 - len(content))):
            content += block
    finally:
        os.close(descriptor)
    if len(content) > limit:  # it grew while read
        raise UnusableFile(f"over the {limit:,} bytes a metrics file may have")
    return content


def _check_regular(info: os.stat_result, limit: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise UnusableFile("a folder, not a metrics file")
    if not stat.S_ISREG(info.st_mode):
        raise UnusableFile("not a regular file (a pipe, a socket or a device)")
    if info.st_size > limit:
        raise UnusableFile(f"{info.st_size:,} bytes, over the {limit:,} a metrics file may have")


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number standard JSON allows")


def _name(run: dict, key: str) -> str:
    value = run.get(key)
    if not isinstance(value, str) or not value or len(value) > MAX_NAME_CHARS:
        raise UnusableFile(f'its run header has no "{key}" name')
    return value


def parse_metrics(content: bytes) -> dict:
    """A metrics file of `swords run`, checked for what the tabs read: an object whose "run" header names the
    system and a benchmark split. UnusableFile says what is wrong."""
    try:
        metrics = json.loads(content, parse_constant=_no_constant)
    except RecursionError:
        raise UnusableFile("JSON nested too deeply") from None
    except ValueError as error:  # not JSON, not UTF-8, NaN
        raise UnusableFile(f"not standard JSON ({str(error)[:120]})") from None
    if not isinstance(metrics, dict):
        raise UnusableFile("not a JSON object")
    run = metrics.get("run")
    if not isinstance(run, dict):
        raise UnusableFile('no run header ("run": {…}) of `swords run`')
    dataset, split = _name(run, "dataset"), _name(run, "split")
    _name(run, "system")
    try:
        benchmarks.parse_split_label(f"{dataset} {split}")
    except SwordsError:
        raise UnusableFile(f"its run is on {dataset[:40]!r} {split[:40]!r}, not a benchmark split here") from None
    return metrics


def read_metrics(path: Path) -> dict | None:
    """A metrics file as `swords run` writes it, checked (parse_metrics); None, logged once, for anything else."""
    try:
        return parse_metrics(read_bounded(path))
    except UnusableFile as error:
        skipped(path, str(error))
        return None


def _offerable(path: Path) -> bool:
    """A file name the browser can be sent and send back (UTF-8: not raw bytes a terminal escaped)."""
    try:
        path.name.encode("utf-8")
    except UnicodeEncodeError:
        skipped(path, "its name is not UTF-8 text")
        return False
    return True


def metrics_files(folder: str | Path | None = None) -> list[Path]:
    return sorted(results_dir(folder).glob("*.metrics.json"))


def _run(predictions: Path) -> dict:
    """The run header of the metrics file beside a stored predictions file ({} without a usable one)."""
    metrics_path = output_paths(predictions)["metrics"]
    if not os.path.lexists(metrics_path):
        return {}
    return (read_metrics(metrics_path) or {}).get("run", {})


def stored_predictions(folder: str | Path | None = None) -> list[tuple[str, str]]:
    """(label, file name) of the baseline predictions stored in the results folder: regular files only."""
    choices = []
    for path in sorted(results_dir(folder).glob("*.jsonl")):
        if not _offerable(path):
            continue
        if not path.is_file():
            skipped(path, "not a regular file (a pipe, a device or a folder)")
            continue
        run = _run(path)
        label = f"{shown(run['system'])} · {run['dataset']} {run['split']}" if run else shown(path.name)
        choices.append((label, path.name))
    return choices


def stored_path(name: str, folder: str | Path | None = None) -> Path:
    known = {file_name for _, file_name in stored_predictions(folder)}
    if name not in known:  # only the listed files: a name is never a path to elsewhere
        raise SpaceError(f"No stored predictions named {name!r}.")
    return results_dir(folder) / name


def stored_split(name: str | None, folder: str | Path | None = None) -> str | None:
    """The benchmark split a stored predictions file was made for (its metrics file says)."""
    if not name:
        return None
    run = _run(stored_path(name, folder))
    return benchmarks.split_label(run["dataset"], run["split"]) if run else None
