"""The on-disk response cache: one JSON file per request, keyed by everything that decides the answer
(endpoint, the server's public URL or identity, the full request body), so a rerun costs nothing. No
credential is ever part of a key or a file (the client redacts the records it stores)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from swords_dataset.credentials import public_url
from swords_dataset.files import atomic_write

CACHE_VERSION = 1


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
        path = self.path(key)
        if path is None or not path.is_file():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return None  # unreadable (e.g. a foreign file): asked again and overwritten

    def put(self, key: str, record: dict) -> None:
        path = self.path(key)
        if path is not None:
            atomic_write(path, json.dumps(record, ensure_ascii=False).encode("utf-8"), durable=False)
