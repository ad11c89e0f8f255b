"""Reading and writing prediction files: the upstream SWORDS result format and JSONL.

Upstream:  {"substitutes_lemmatized": bool, "substitutes": {target_id: [[substitute, score], ...]}}
JSONL:     one {"id": target_id, "substitutes": [...]} a line; substitutes as strings (ranked by position),
           [substitute, score] pairs or {"substitute": ..., "score": ...} objects.

Either may be gzipped (`.gz`) and may start with a UTF-8 byte-order mark. Target ids may be the dataset's
or the upstream library's (see Scorer). Reading is bounded: a file (or what a .gz expands to) larger than
`max_bytes` is refused before it is parsed.
"""

from __future__ import annotations

import gzip
import json
import stat
import zlib
from pathlib import Path

from swords_dataset.files import atomic_write

from .core import MetricInputError, normalize_prediction_items

Predictions = dict[str, list[tuple[str, float]]]

# Far above any real predictions file (CoInCo test with 100 substitutes a target is about 20 MB).
MAX_PREDICTIONS_BYTES = 1 << 30


class _DuplicateKey(Exception):
    def __init__(self, key: str):
        self.key = key


def _unique_object(pairs: list[tuple[str, object]]) -> dict:
    """json's object hook: a key given twice is an error (json itself would silently keep the last)."""
    result = dict(pairs)
    if len(result) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return result


def _shown(key: str) -> str:
    return repr(key if len(key) <= 80 else key[:77] + "...")


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    """The file's bytes (decompressed for .gz), refusing anything but a readable regular file of at most
    max_bytes (after decompression)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise MetricInputError(f"{path}: no such file") from None
    except OSError as error:
        raise MetricInputError(f"{path}: cannot open ({error.strerror or error})") from None
    if stat.S_ISDIR(mode):
        raise MetricInputError(f"{path}: is a directory, not a predictions file")
    if not stat.S_ISREG(mode):
        raise MetricInputError(f"{path}: not a regular file (a pipe, socket or device); give a predictions file")
    limit = f"{max_bytes / 2**20:,.0f} MB"
    try:
        if path.suffix == ".gz":
            data = bytearray()
            inflater = zlib.decompressobj(wbits=47)  # gzip or zlib header, auto-detected
            with open(path, "rb") as f:
                while block := f.read(1 << 20):
                    while block:
                        data += inflater.decompress(block, max_bytes + 1 - len(data))
                        if len(data) > max_bytes:
                            raise MetricInputError(f"{path}: expands past {limit}; not a predictions file")
                        block = inflater.unconsumed_tail
                    if inflater.eof and inflater.unused_data.strip(b"\0"):
                        raise MetricInputError(f"{path}: holds more than one gzip stream")
            if not inflater.eof:
                raise MetricInputError(f"{path}: the gzip data is truncated")
            return bytes(data)
        if path.stat().st_size > max_bytes:
            raise MetricInputError(f"{path}: larger than {limit}; not a predictions file")
        with open(path, "rb") as f:
            return f.read(max_bytes + 1)
    except PermissionError:
        raise MetricInputError(f"{path}: permission denied") from None
    except zlib.error as error:
        raise MetricInputError(f"{path}: not a readable gzip file ({error})") from None
    except OSError as error:
        raise MetricInputError(f"{path}: cannot read ({error.strerror or error})") from None


def _decode(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise MetricInputError(
            f"{path}:{line}: not UTF-8 text (byte 0x{data[error.start]:02x} at column {column})"
        ) from None


def _parse(text: str, where: str):
    """json.loads with duplicate keys refused and every failure a MetricInputError naming `where`."""
    try:
        return json.loads(text, object_pairs_hook=_unique_object)
    except _DuplicateKey as duplicate:
        raise MetricInputError(f"{where}: key {_shown(duplicate.key)} appears twice in one JSON object") from None
    except RecursionError:
        raise MetricInputError(f"{where}: JSON nested too deeply to be predictions") from None


def _single_json_value(text: str) -> bool:
    """Whether the text is one JSON value (an upstream file), not several lines of them."""
    stripped = text.strip()
    try:
        _, end = json.JSONDecoder().raw_decode(stripped)
    except (ValueError, RecursionError):
        return False
    return end == len(stripped)


def read_predictions(path: str | Path, max_bytes: int = MAX_PREDICTIONS_BYTES) -> tuple[Predictions, dict]:
    """(target id -> [(substitute, score)], {"format": ..., "substitutes_lemmatized": ...}).

    Every problem is a MetricInputError whose message names the file and the line or target."""
    path = Path(path)
    text = _decode(path, _read_bytes(path, max_bytes))
    if not text.strip():
        raise MetricInputError(f"{path}: empty file")
    try:
        whole = _parse(text, str(path))
    except MetricInputError:
        if _single_json_value(text):
            raise
        whole = None  # JSON lines, each read (and its problem named) below
    except ValueError:  # json.JSONDecodeError, or an integer of more digits than Python converts
        whole = None
    # A one-line JSONL file is a JSON object too, with an id and a list.
    upstream = isinstance(whole, dict) and (
        "substitutes_lemmatized" in whole or isinstance(whole.get("substitutes"), dict)
    )
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
    if "substitutes" not in whole:
        raise MetricInputError(f"{path}: an upstream result file needs 'substitutes' (target id -> substitutes)")
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
        where = f"{path}:{line_number}"
        try:
            record = _parse(line, where)
        except ValueError as error:
            raise MetricInputError(f"{where}: not JSON ({getattr(error, 'msg', error)})") from None
        if not isinstance(record, dict) or "id" not in record or "substitutes" not in record:
            raise MetricInputError(f"{where}: expected an object with 'id' and 'substitutes'")
        if not isinstance(record["id"], str | int) or isinstance(record["id"], bool):
            raise MetricInputError(f"{where}: 'id' must be a string, got {record['id']!r}")
        target_id = str(record["id"])
        if target_id in predictions:
            raise MetricInputError(f"{where}: target {_shown(target_id)} appears twice")
        try:
            predictions[target_id] = normalize_prediction_items(record["substitutes"], target_id)
        except MetricInputError as error:
            raise MetricInputError(f"{where}: {error}") from None
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
    data = body.encode("utf-8")
    atomic_write(path, gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)
