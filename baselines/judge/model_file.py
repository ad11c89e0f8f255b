"""A local model file known by its content: the judge's id and its answers' cache name the GGUF file's sha256, so
another file of the same name or size is another judge.

Hashing the shipped 98 MB model takes 0.12 s (0.35 s cold), a 7B model's 4 GB some seconds: the digest is kept a
path, reused while the file's stamp holds: what a rewrite cannot keep (size and mtime, which `cp -p` carries over;
device and inode; ctime, set at every write, rename or utime). A file changed under SETTLE_NS before its hash (a file
clock's tick: two seconds on FAT) keeps no digest: it could be rewritten within the tick, stamp unchanged."""

from __future__ import annotations

import hashlib
import json
import os
import time
from contextlib import suppress
from pathlib import Path

from swords_baselines.llm.config import default_cache_dir
from swords_lexsub.files import atomic_write, sha256_of

_HEX = set("0123456789abcdef")
SETTLE_NS = 2 * 10**9  # FAT's clock, the coarsest in use, ticks every 2 s


def _stamp(path: Path, stat: os.stat_result) -> dict:
    return {
        "path": str(path),
        "device": stat.st_dev,
        "inode": stat.st_ino,
        "size": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
        "ctime_ns": stat.st_ctime_ns,
    }


def content_sha256(path: Path, folder: Path | None = None) -> str:
    """The sha256 of the file at `path`, from the digest kept for its stamp, else computed (and kept if it can be)."""
    path = Path(path).resolve()
    folder = default_cache_dir().parent / "model-sha256" if folder is None else folder
    stamp = _stamp(path, path.stat())
    kept = folder / (hashlib.sha256(str(path).encode("utf-8", "surrogateescape")).hexdigest() + ".json")
    with suppress(OSError, ValueError, KeyError, AttributeError, RecursionError):
        found = json.loads(kept.read_bytes())
        digest = found.pop("sha256")
        if found == stamp and isinstance(digest, str) and len(digest) == 64 and set(digest) <= _HEX:
            return digest
    started = time.time_ns()
    digest = sha256_of(path, "--model")
    settled = max(stamp["mtime_ns"], stamp["ctime_ns"]) <= started - SETTLE_NS
    if settled and _stamp(path, os.stat(path)) == stamp:  # not changed while it was read
        with suppress(OSError):
            atomic_write(kept, json.dumps({**stamp, "sha256": digest}).encode("utf-8"), durable=False)
    return digest
