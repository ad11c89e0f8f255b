"""Raw upstream sources, pinned by sha256, laid out as in the project's shared data folder."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .errors import SwordsError

# Relative path -> sha256. The build reads these; nothing else is read from the sources folder.
BUILD_SOURCES: dict[str, str] = {
    "swords/swords-v1.1_dev.json.gz": "bc3570786455a05f11fcb4fc7f54e117642d5fb5e98f19355028c5c7ee00c954",
    "swords/swords-v1.1_test.json.gz": "f94b6b73c52fd4bd549180bc119d44e9f9097ec78240a8b42363add158e58480",
    "swords/swords-v1.1_test-subset.json.gz": "3974c802f3437b115e3d3b1cdc26ee558146dc4f71df7ae4d7bc588d86b1f37e",
    "swords/swords-v1.1_test-subset_reannotated.json.gz": (
        "d63df1a32030895d71349dcfdd4efdbeead74da804714215c05f31c8aa1b84b1"
    ),
    "coinco/coinco_patched.xml.gz": "7f2b817a02a40bc9d8eb963acaeebe321902a3f3f86e3953e1d6d9279a8247d1",
    "coinco/coinco.no_problematic.candidates": "891e2e5bf87f7537ab839892e598996645246b9735601239429e9ce982e7fff4",
    "semeval07/lst_all.xml": "39f30c7f9dbc6f6490f3d3b0b6d0b22825fab163e6c9f4ecf2d85f3c2601bb0d",
    "semeval07/lst_trial.gold": "2c661d66d0da0470531d623ab4af053c800b4825ce89e0f525cee5c148d373dd",
    "semeval07/lst_test.gold": "038c987bee2c912318172bbb8706cc39276eb69201d6c9a5c8923736bb167d2d",
    "semeval07/lst.gold.candidates": "d7e8a198a24803639ee2207b2784079b8915ecdfef3f1524008bc257b49cd34f",
    # Upstream's SemEval-2007 test asset: its context strings, from which its target ids are computed.
    "upstream-swords/parsed/semeval07_test.upstream-ait.json.gz": (
        "2ab2105b55507614fbb9132769c8ab9a28409e5b1f32001efe06df870ac513ab"
    ),
}
SEMEVAL_UPSTREAM_ASSET = "upstream-swords/parsed/semeval07_test.upstream-ait.json.gz"

SOURCES_ENV = "SWORDS_SOURCES"
# A folder holding nltk 3.5 (upstream's SemEval-2007 trial contexts need its detokenizer).
NLTK35_ENV = "SWORDS_NLTK35_PATH"


class SourceError(SwordsError):
    """A raw source is missing or does not match its pinned checksum."""


def default_sources_dir() -> Path:
    """$SWORDS_SOURCES, else ../shared/data beside the repository (or the current directory)."""
    if os.environ.get(SOURCES_ENV):
        return Path(os.environ[SOURCES_ENV])
    repo_root = Path(__file__).resolve().parent.parent
    for base in (repo_root, Path.cwd()):
        candidate = base.parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return repo_root.parent / "shared" / "data"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def checked_sources(sources_dir: Path, pinned: dict[str, str] = BUILD_SOURCES) -> dict[str, Path]:
    """Every pinned file's path, after checking all of them; raises SourceError naming the first bad one."""
    paths = {}
    for relative, expected in pinned.items():
        path = Path(sources_dir) / relative
        if not path.is_file():
            raise SourceError(f"missing source {path} (expected sha256 {expected})")
        actual = sha256_of(path)
        if actual != expected:
            raise SourceError(f"corrupted source {path}: sha256 {actual}, expected {expected}")
        paths[relative] = path
    return paths
