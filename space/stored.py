"""The stored runs the Score and Leaderboard tabs offer: the files `swords run` wrote in the results folder, found
and read as the runner names and reads them. The folder is the host's and may hold anything: a file that fails is
skipped with one log line naming it, once per version of the file."""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime
from pathlib import Path

from swords_baselines.run.files import output_paths
from swords_baselines.run.metrics_file import UnusableMetrics, read_metrics_file
from swords_lexsub.terminal import clipped, shown
from swords_space import SPACE_DIR, benchmarks
from swords_space.errors import SpaceError

RESULTS_ENV = "SWORDS_SPACE_RESULTS"
log = logging.getLogger("swords_space")
_reported: set[tuple] = set()  # (path, size, modified) of the unusable files already logged


# A file of the results folder the tabs cannot use; str(error) says why (the runner's reader of its metrics files).
UnusableFile = UnusableMetrics


SYSTEM_CHARS = 60  # a run's system name as the tabs show it: past this many characters, cut (terminal.clipped)
SETTING_CHARS = 24  # a setting that tells two runs of one system apart, past this: cut at its start


def system_label(run: dict, most: int = SYSTEM_CHARS) -> str:
    """A run header's system name as the tabs show it: escaped, cut with "…" past `most` characters, its length said."""
    return clipped(shown(run["system"]), most)


def _setting(value: object) -> str:
    """A run option's value, short (a long model path is cut: its end names it)."""
    text = shown(value if isinstance(value, str) else json.dumps(value, sort_keys=True))
    return text if len(text) <= SETTING_CHARS else "…" + text[-(SETTING_CHARS - 1) :]


def told_apart(runs: list[tuple[dict, dict, Path]]) -> None:
    """Rows of one system's several runs, told apart (row, its metrics file, its path): each one's system name gets
    the settings in which its run differs from the others' (`model=…`), its source the file's name and the date it
    was written (UTC), so that two runs of one system are never two identical-looking rows."""
    by_system: dict[str, list[tuple[dict, dict, Path]]] = {}
    for run in runs:
        by_system.setdefault(run[0]["system"], []).append(run)
    for same in by_system.values():
        if len(same) < 2:
            continue
        options = [metrics["run"].get("options") or {} for _, metrics, _ in same]
        keys = sorted({key for opts in options for key in opts})
        differ = [key for key in keys if len({json.dumps(o.get(key), sort_keys=True) for o in options}) > 1]
        for (row, _, path), opts in zip(same, options, strict=True):
            settings = ", ".join(f"{shown(key)}={_setting(opts[key])}" for key in differ if key in opts)
            if settings:
                row["system"] += f" ({settings})"
            try:
                written = datetime.fromtimestamp(path.stat().st_mtime, UTC).strftime("%Y-%m-%d %H:%M UTC")
            except OSError:
                written = "date unknown"
            row["source"] += f"; {shown(path.name)}, {written}"


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


def read_metrics(path: Path) -> dict | None:
    """A metrics file as `swords run` writes it, read by the runner's reader; None, logged once, for anything else."""
    try:
        return read_metrics_file(path)
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
    return (read_metrics(metrics_path) or {}).get("run", {}) if os.path.lexists(metrics_path) else {}


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
        label = f"{system_label(run)} · {run['dataset']} {run['split']}" if run else shown(path.name)
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
