"""The on-disk response cache: one JSON file per request, keyed by everything that decides the answer
(endpoint, the server's public URL or identity, the full request body), so a rerun costs nothing. No
credential is ever part of a key or a file (the client redacts the records it stores)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from swords_lexsub.credentials import public_url
from swords_lexsub.files import atomic_write

CACHE_VERSION = 1
MAX_ENTRY_BYTES = 32 * 2**20  # a response as read (MAX_BODY_BYTES of swords_lexsub.bounded_body) and its request


class ResponseCache:
    """One JSON file per request under `folder` (None: no cache), written atomically."""

    def __init__(self, folder: str | Path | None) -> None:
        self.folder = Path(folder).expanduser() if folder else None

    @staticmethod
    def key(endpoint: str, base_url: str, body: dict) -> str:
        identity = {"v": CACHE_VERSION, "endpoint": endpoint, "base_url": public_url(base_url), "body": body}
        return hashlib.sha256(json.dumps(identity, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    def path(self, key: str) -> Path | None:
        return self.folder / key[:2] / f"{key}.json" if self.folder else None

    def get(self, key: str) -> dict | None:
        """The record stored for `key` (an object holding a "response" object); anything else is None (asked again)."""
        path = self.path(key)
        if path is None or not path.is_file():
            return None
        try:
            if path.stat().st_size > MAX_ENTRY_BYTES:
                return None
            record = json.loads(path.read_bytes(), parse_constant=_not_json)
        except (OSError, ValueError, RecursionError):
            return None
        return record if isinstance(record, dict) and isinstance(record.get("response"), dict) else None

    def put(self, key: str, record: dict) -> None:
        path = self.path(key)
        if path is not None:  # ASCII JSON: a lone surrogate a server sent stays an escape, which UTF-8 could not hold
            atomic_write(path, json.dumps(record, allow_nan=False).encode("ascii"), durable=False)


def _not_json(constant: str) -> None:
    raise ValueError(f"{constant} is not JSON")
