"""The OpenAI Batch API's files, which vLLM's `run_batch` reads and writes alike: a run's requests written as its
input file, and the output file read back as each request's answer or why it has none.

A custom_id is a digest of the item's id (a target, a judging task's candidate), the request and the run's settings,
so an answer is taken only for the very request this run would send: an output of another export, other settings or
another split is refused in one line, before anything is imported. Its 39 characters of [a-z0-9-] are what every
batch API takes (some take no more than 64).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_writer, check_output_file, file_kind, open_regular
from swords_lexsub.terminal import shown

URLS = {"completions": "/v1/completions", "chat": "/v1/chat/completions"}
_PREFIX = "swords-"  # custom_id = swords-DIGEST
_DIGEST_CHARS = 32  # 128 bits: another run's request is never taken for this one's
# The largest output file read: OpenAI's Batch API takes input files up to 200 MB and 50,000 requests; an answer
# with log-probabilities is a few kB, so 1 GiB holds any batch it can return. Checked before a byte is read.
MAX_OUTPUT_BYTES = 2**30
MAX_LINE_BYTES = 16 * 2**20 + 2**16  # a server's answer as the client reads it (16 MB) and its envelope
_MAX_OWNED_BYTES = 2**30  # a requests file of ours is ~10 kB a request; a larger file is not ours
_REASON_CHARS = 80


def custom_id(item_id: str, endpoint: str, body: dict, settings: dict) -> str:
    """The custom_id of one request: a digest of the item's id, the URL, the body and the run's settings."""
    request = {"item": item_id, "url": URLS[endpoint], "body": body, "settings": settings}
    text = json.dumps(request, sort_keys=True, ensure_ascii=True, allow_nan=False)
    return f"{_PREFIX}{hashlib.sha256(text.encode()).hexdigest()[:_DIGEST_CHARS]}"


def _is_ours(request: object) -> bool:
    """Whether a parsed line is a request with a custom_id of ours."""
    name = request.get("custom_id") if isinstance(request, dict) else None
    if not isinstance(name, str) or not name.startswith(_PREFIX):
        return False
    digest = name[len(_PREFIX) :]
    return len(digest) == _DIGEST_CHARS and all(c in "0123456789abcdef" for c in digest)


def request_line(name: str, endpoint: str, body: dict) -> bytes:
    """One line of a Batch API input file."""
    line = {"custom_id": name, "method": "POST", "url": URLS[endpoint], "body": body}
    return (json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8", "surrogatepass")


def requests_file_is_ours(path: Path) -> bool:
    """Whether the file at `path` is a requests file an export wrote: every line a request with our custom_id."""
    try:
        if path.stat().st_size > _MAX_OWNED_BYTES:
            return False
        with open(path, "rb") as f:
            return all(_is_ours(json.loads(line)) for line in f)
    except (OSError, ValueError, RecursionError):
        return False


def check_export_path(path: Path, force: bool, what: str = "--batch-export") -> None:
    """Before any work: `path` can take the requests file (another file only with --force, a link never)."""
    if path.is_symlink():
        raise SwordsError(f"{what} {path}: it is {file_kind(path)}; an export never writes through a link: name a file")
    check_output_file(path, f"{what} {path}", create_folder=True)
    if path.exists() and not force and not requests_file_is_ours(path):
        raise SwordsError(
            f"{what} {path}: the file exists and no export wrote it (or it was changed since); name another file, or "
            "pass --force to replace it"
        )


def write_requests(path: Path, lines: Iterable[bytes]) -> int:
    """The requests file, written atomically (a reader sees no part of it); returns the number of lines."""
    count = 0
    with atomic_writer(path) as f:
        for line in lines:
            f.write(line)
            count += 1
    return count


@dataclass
class Outcome:
    """A request's answer in an output file: its line, and the response body or why there is none."""

    line: int
    body: dict | None = None
    failure: str | None = None


@dataclass
class Outputs:
    """An output file as read: each item's outcome, and the lines that name no request (unreadable)."""

    path: Path
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    unreadable: list[tuple[int, str]] = field(default_factory=list)


def _short(text: object) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= _REASON_CHARS else text[: _REASON_CHARS - 3] + "..."


def _failure(record: dict) -> tuple[dict | None, str | None]:
    """(response body, None) of an answered request, else (None, why not)."""
    error = record.get("error")
    if error:
        if isinstance(error, dict):
            return None, _short(f"error {error.get('code') or ''}: {error.get('message') or ''}".replace(" :", ":"))
        return None, _short(f"error: {error}")
    response = record.get("response")
    if not isinstance(response, dict):
        return None, "no response"
    status, body = response.get("status_code"), response.get("body")
    if status != 200:
        error = body.get("error") if isinstance(body, dict) else None
        message = error.get("message") if isinstance(error, dict) else error
        message = message if isinstance(message, str) else ""
        return None, _short(f"HTTP {status}" + (f": {message}" if message else ""))
    return (None, "no response body") if not isinstance(body, dict) else (body, None)


def read_outputs(path: Path, expected: dict[str, str], what: str = "--batch-import") -> Outputs:
    """The outcomes of an output file by item id (`expected`: this run's custom_ids' items); a line not JSON or with no
    custom_id is unreadable; another run's request, or one answered twice, is one SwordsError naming FILE:LINE."""
    named = f"{what} {path}"
    try:
        handle = open_regular(path, what)
    except FileNotFoundError:
        raise SwordsError(f"{named}: no such file") from None
    outputs = Outputs(path)
    with handle:
        size = os.fstat(handle.fileno()).st_size
        if size > MAX_OUTPUT_BYTES:
            raise SwordsError(
                f"{named}: {size:,} bytes, past the {MAX_OUTPUT_BYTES:,} an output file may hold; split the batch"
            )
        number = 0
        while True:
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            number += 1
            if len(raw) > MAX_LINE_BYTES:
                raise SwordsError(
                    f"{shown(path)}:{number}: a line of more than {MAX_LINE_BYTES:,} bytes; nothing was imported"
                )
            if not raw.strip():
                continue
            try:
                record = json.loads(raw)
            except (ValueError, RecursionError):
                outputs.unreadable.append((number, "not JSON"))
                continue
            name = record.get("custom_id") if isinstance(record, dict) else None
            if not isinstance(name, str):
                outputs.unreadable.append((number, "no custom_id"))
                continue
            item = expected.get(name)
            if item is None:
                raise SwordsError(
                    f"{shown(path)}:{number}: custom_id {shown(_short(name))} is not a request of this run (an output "
                    "of another export: other settings or other targets); nothing was imported"
                )
            body, failure = _failure(record)
            earlier = outputs.outcomes.get(item)
            if earlier is not None and earlier.failure is None:
                if failure is not None:
                    continue  # answered earlier in the file: a failed retry changes nothing
                raise SwordsError(
                    f"{shown(path)}:{number}: custom_id {shown(_short(name))} is answered twice (also at line "
                    f"{earlier.line}); nothing was imported"
                )
            outputs.outcomes[item] = Outcome(number, body, failure)
    return outputs


def summary(
    outputs: Outputs,
    failures: dict[str, str],
    missing: list[str],
    answered: int,
    total: int,
    noun: str = "targets",
    then: str = "the journal keeps every answer: import a file with the rest, or rerun without --batch-import to "
    "ask the server",
) -> str:
    """The one line naming what an import left unanswered: failed and unreadable lines, the items missing; `then`."""
    lines = [
        (outputs.outcomes[item].line, f"line {outputs.outcomes[item].line} ({item}): {reason}")
        for item, reason in failures.items()
        if item in outputs.outcomes
    ]
    lines += [(number, f"line {number}: {reason}") for number, reason in outputs.unreadable]
    parts = [text for _, text in sorted(lines)]
    named = parts[:3] + ([f"{len(parts) - 3} more"] if len(parts) > 3 else [])
    absent = [item for item in missing if item not in outputs.outcomes]
    if absent:
        named.append(f"{len(absent)} not in the file (first: {absent[0]})")
    return (
        f"{outputs.path}: {answered} of {total} {noun} answered, {total - answered} left unanswered ("
        + "; ".join(named)
        + f"); {then}"
    )
