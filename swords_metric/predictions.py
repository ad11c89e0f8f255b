"""Reading and writing prediction files: the upstream SWORDS result format and JSONL.

Upstream:  {"substitutes_lemmatized": bool, "substitutes": {target_id: [[substitute, score], ...]}}
JSONL:     one {"id": target_id, "substitutes": [...]} a line; substitutes as strings (ranked by position),
           [substitute, score] pairs or {"substitute": ..., "score": ...} objects.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from pathlib import Path

from .core import MetricInputError, normalize_prediction_items

Predictions = dict[str, list[tuple[str, float]]]


def _open_text(path: Path):
    return gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else open(path, encoding="utf-8")


def read_predictions(path: str | Path) -> tuple[Predictions, dict]:
    """(target id -> [(substitute, score)], {"format": ..., "substitutes_lemmatized": ...}).

    Every problem is a MetricInputError whose message names the file and the line or target."""
    path = Path(path)
    if not path.is_file():
        raise MetricInputError(f"{path}: no such file")
    try:
        with _open_text(path) as f:
            text = f.read()
    except (OSError, UnicodeDecodeError, EOFError) as error:
        raise MetricInputError(f"{path}: cannot read as UTF-8 text ({error})") from None
    if not text.strip():
        raise MetricInputError(f"{path}: empty file")
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    upstream = isinstance(whole, dict) and (
        "substitutes_lemmatized" in whole or isinstance(whole.get("substitutes"), dict)
    )  # a one-line JSONL file is a JSON object too, with an id and a list
    if upstream:
        return _read_upstream(path, whole), {
            "format": "upstream",
            "substitutes_lemmatized": bool(whole.get("substitutes_lemmatized", False)),
        }
    if whole is not None and not isinstance(whole, dict):
        raise MetricInputError(
            f"{path}: expected a JSON object with 'substitutes' or JSON lines, got a {type(whole).__name__}"
        )
    return _read_jsonl(path, text), {"format": "jsonl", "substitutes_lemmatized": False}


def _read_upstream(path: Path, whole: dict) -> Predictions:
    substitutes = whole["substitutes"]
    if not isinstance(substitutes, dict):
        raise MetricInputError(f"{path}: 'substitutes' must map target ids to lists, got {type(substitutes).__name__}")
    try:
        return {str(tid): normalize_prediction_items(items, str(tid)) for tid, items in substitutes.items()}
    except MetricInputError as error:
        raise MetricInputError(f"{path}: {error}") from None


def _read_jsonl(path: Path, text: str) -> Predictions:
    predictions: Predictions = {}
    for line_number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise MetricInputError(f"{path}:{line_number}: not JSON ({error.msg})") from None
        if not isinstance(record, dict) or "id" not in record or "substitutes" not in record:
            raise MetricInputError(f"{path}:{line_number}: expected an object with 'id' and 'substitutes'")
        target_id = str(record["id"])
        if target_id in predictions:
            raise MetricInputError(f"{path}:{line_number}: target {target_id} appears twice")
        try:
            predictions[target_id] = normalize_prediction_items(record["substitutes"], target_id)
        except MetricInputError as error:
            raise MetricInputError(f"{path}:{line_number}: {error}") from None
    return predictions


def write_predictions(path: str | Path, predictions: Predictions, substitutes_lemmatized: bool = False) -> None:
    """Write atomically (temp file + rename); the format follows the suffix: .jsonl(.gz) or upstream .json(.gz)."""
    path = Path(path)
    name = path.name[:-3] if path.name.endswith(".gz") else path.name
    if name.endswith(".jsonl"):
        body = "".join(
            json.dumps({"id": tid, "substitutes": [[s, score] for s, score in items]}, ensure_ascii=False) + "\n"
            for tid, items in predictions.items()
        )
    else:
        body = json.dumps(
            {
                "substitutes_lemmatized": substitutes_lemmatized,
                "substitutes": {tid: [[s, score] for s, score in items] for tid, items in predictions.items()},
            },
            ensure_ascii=False,
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes the file private; the output is an ordinary file
    try:
        with os.fdopen(descriptor, "wb") as f:
            data = body.encode("utf-8")
            f.write(gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
