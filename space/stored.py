"""The stored runs the Score and Leaderboard tabs offer: the files `swords run` wrote in the results folder,
found by the runner's own file naming (swords_baselines.run_files.output_paths)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from swords_baselines.run_files import output_paths

from . import SPACE_DIR, data
from .errors import SpaceError

RESULTS_ENV = "SWORDS_SPACE_RESULTS"


def results_dir(folder: str | Path | None = None) -> Path:
    """Where stored baseline results live: the argument, else $SWORDS_SPACE_RESULTS, else space/results."""
    return Path(folder or os.environ.get(RESULTS_ENV) or SPACE_DIR / "results")


def read_metrics(path: Path) -> dict:
    """A metrics file as `swords run` writes it; {} for anything unreadable or not an object."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def metrics_files(folder: str | Path | None = None) -> list[Path]:
    return sorted(results_dir(folder).glob("*.metrics.json"))


def _run(predictions: Path) -> dict:
    """The run header of the metrics file beside a stored predictions file ({} without one)."""
    return read_metrics(output_paths(predictions)["metrics"]).get("run", {})


def stored_predictions(folder: str | Path | None = None) -> list[tuple[str, str]]:
    """(label, file name) of the baseline predictions stored in the results folder."""
    choices = []
    for path in sorted(results_dir(folder).glob("*.jsonl")):
        run = _run(path)
        label = f"{run['system']} · {run['dataset']} {run['split']}" if run.get("system") else path.name
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
    if run.get("dataset") and run.get("split"):
        return data.split_label(run["dataset"], run["split"])
    return None
