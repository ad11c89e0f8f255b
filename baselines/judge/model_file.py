"""A local model file known by its content: the judge's id and its answers' cache name the sha256 of the GGUF file,
never its name or size, so another file of the same name (or size) is another judge. Hashing 100 MB takes a
fraction of a second, a 7B model's 4 GB tens of seconds: the digest is kept in a small file a path, reused while the
path's size and modification time (in nanoseconds) stay the same."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from swords_baselines.llm.config import default_cache_dir
from swords_lexsub.files import atomic_write, sha256_of

_HEX = set("0123456789abcdef")


def digest_folder() -> Path:
    return default_cache_dir().parent / "model-sha256"


def content_sha256(path: Path, folder: Path | None = None) -> str:
    """The sha256 of the file at `path`, from the digest kept for its path, size and mtime, else computed (and
    kept: a cache that cannot be written costs a hash the next time, nothing else)."""
    path = Path(path).resolve()
    folder = digest_folder() if folder is None else folder
    stat = path.stat()
    stamp = {"path": str(path), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    kept = folder / (hashlib.sha256(str(path).encode("utf-8", "surrogateescape")).hexdigest() + ".json")
    try:
        found = json.loads(kept.read_bytes())
        digest = found.pop("sha256")
        if found == stamp and isinstance(digest, str) and len(digest) == 64 and set(digest) <= _HEX:
            return digest
    except (OSError, ValueError, KeyError, AttributeError, RecursionError):
        pass
    digest = sha256_of(path, "--model")
    if os.stat(path).st_mtime_ns == stat.st_mtime_ns:  # not changed while it was read
        try:
            atomic_write(kept, json.dumps({**stamp, "sha256": digest}).encode("utf-8"), durable=False)
        except OSError:
            pass
    return digest
