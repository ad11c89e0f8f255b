"""Reading back a metrics file `swords run` wrote, from a folder that may hold anything: only a regular file of at
most MAX_METRICS_BYTES (never a pipe, a device, /dev/zero behind a symlink), as standard JSON (no NaN; any nesting an
error, not a crash), with its run header. UnusableMetrics says what is wrong, after the file's name."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import swords_dataset
from swords_lexsub.errors import SwordsError

MAX_METRICS_BYTES = 2**20  # a metrics file of `swords run` is about 8 kB
MAX_NAME_CHARS = 200  # a benchmark's or a split's name in a run header (a system's: any length, cut where shown)


class UnusableMetrics(SwordsError):
    """A file that is not a usable metrics file of `swords run`; str(error) says why."""


def read_bounded(path: Path, limit: int = MAX_METRICS_BYTES) -> bytes:
    """A regular file of at most `limit` bytes, checked before and after opening (never blocking on a pipe)."""
    try:
        info = path.stat()
    except OSError as error:
        raise UnusableMetrics(f"cannot be read ({error.strerror})") from None
    _check_regular(info, limit)
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a pipe swapped in opens at once, refused below
    except OSError as error:
        raise UnusableMetrics(f"cannot be opened ({error.strerror})") from None
    try:
        _check_regular(os.fstat(descriptor), limit)
        content = b""
        while len(content) <= limit and (block := os.read(descriptor, limit + 1 - len(content))):
            content += block
    finally:
        os.close(descriptor)
    if len(content) > limit:  # it grew while read
        raise UnusableMetrics(f"over the {limit:,} bytes a metrics file may have")
    return content


def _check_regular(info: os.stat_result, limit: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise UnusableMetrics("a folder, not a metrics file")
    if not stat.S_ISREG(info.st_mode):
        raise UnusableMetrics("not a regular file (a pipe, a socket or a device)")
    if info.st_size > limit:
        raise UnusableMetrics(f"{info.st_size:,} bytes, over the {limit:,} a metrics file may have")


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number standard JSON allows")


def _name(run: dict, key: str, most: int | None = MAX_NAME_CHARS) -> str:
    value = run.get(key)
    if not isinstance(value, str) or not value:
        raise UnusableMetrics(f'its run header has no "{key}" name')
    if most is not None and len(value) > most:
        raise UnusableMetrics(
            f'its run header\'s "{key}" name is {len(value):,} characters long, over the {most:,} one may have'
        )
    return value


def parse_metrics(content: bytes) -> dict:
    """A metrics file of `swords run`, checked: its "run" header names the system and a benchmark split."""
    try:
        metrics = json.loads(content, parse_constant=_no_constant)
    except RecursionError:
        raise UnusableMetrics("JSON nested too deeply") from None
    except ValueError as error:  # not JSON, not UTF-8, NaN
        raise UnusableMetrics(f"not standard JSON ({str(error)[:120]})") from None
    if not isinstance(metrics, dict):
        raise UnusableMetrics("not a JSON object")
    run = metrics.get("run")
    if not isinstance(run, dict):
        raise UnusableMetrics('no run header ("run": {…}) of `swords run`')
    dataset, split = _name(run, "dataset"), _name(run, "split")
    _name(run, "system", most=None)  # a long name is the run's all the same: readers show it cut (stored.py)
    try:
        swords_dataset.check_config(dataset, split)
    except SwordsError:
        raise UnusableMetrics(f"its run is on {dataset[:40]!r} {split[:40]!r}, not a benchmark split here") from None
    return metrics


def read_metrics_file(path: Path, limit: int = MAX_METRICS_BYTES) -> dict:
    """A metrics file of `swords run`, read within `limit` bytes and checked (read_bounded, parse_metrics)."""
    return parse_metrics(read_bounded(path, limit))
