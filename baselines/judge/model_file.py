"""A local model file known by its content: the judge's id and its answers' cache name the sha256 of the GGUF file,
never its name or size, so another file of the same name (or size) is another judge.

Hashing the shipped 98 MB model takes 0.12 s (0.35 s when it is not in the page cache), a 7B model's 4 GB some
seconds: the digest is kept in a small file a path, reused while the file's stamp stays the same. The stamp is what
a rewrite cannot keep: besides the size and the modification time (which `cp -p`, `rsync -a` or a restore carry
over), the device and inode (a file put in the path's place is another inode) and the status-change time (ctime:
set by the system at every write, rename or utime, never settable by the user). A file clock ticks in steps (a few
milliseconds; a second, or two on FAT): a file changed less than SETTLE_NS before it was hashed could be rewritten
within the same tick with its stamp unchanged, so its digest is not kept and the next run hashes it again."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from swords_baselines.llm.config import default_cache_dir
from swords_lexsub.files import atomic_write, sha256_of

_HEX = set("0123456789abcdef")
SETTLE_NS = 2 * 10**9  # FAT's clock, the coarsest in use, ticks every 2 s


def digest_folder() -> Path:
    return default_cache_dir().parent / "model-sha256"


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
    """The sha256 of the file at `path`, from the digest kept for its stamp (see the module's docstring), else
    computed (and kept: a cache that cannot be written costs a hash the next time, nothing else)."""
    path = Path(path).resolve()
    folder = digest_folder() if folder is None else folder
    stamp = _stamp(path, path.stat())
    kept = folder / (hashlib.sha256(str(path).encode("utf-8", "surrogateescape")).hexdigest() + ".json")
    try:
        found = json.loads(kept.read_bytes())
        digest = found.pop("sha256")
        if found == stamp and isinstance(digest, str) and len(digest) == 64 and set(digest) <= _HEX:
            return digest
    except (OSError, ValueError, KeyError, AttributeError, RecursionError):
        pass
    started = time.time_ns()
    digest = sha256_of(path, "--model")
    settled = max(stamp["mtime_ns"], stamp["ctime_ns"]) <= started - SETTLE_NS
    if settled and _stamp(path, os.stat(path)) == stamp:  # not changed while it was read
        try:
            atomic_write(kept, json.dumps({**stamp, "sha256": digest}).encode("utf-8"), durable=False)
        except OSError:
            pass
    return digest
