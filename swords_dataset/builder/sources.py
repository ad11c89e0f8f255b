"""Raw upstream sources, pinned by sha256, laid out as in the project's shared data folder."""

from __future__ import annotations

import os
from pathlib import Path

from swords_lexsub.errors import SwordsError
from swords_lexsub.files import sha256_of

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
    # ProLex (Zhang et al. 2024) @ f54ba0f, and its repository's license (Apache-2.0), shipped beside the data.
    "prolex/ProLex_v1.0_dev.csv": "fe3490c30a85c9aceaeef2336603a4bdd0dbd8ca96afab1dc98039bef93eac50",
    "prolex/ProLex_v1.0_test.csv": "04cf4771989e14a66f0af8bd9f1939ea04d164d1630b36b6d367731ef03e66fa",
    "reference-scorers/prolex/LICENSE": "c71d239df91726fc519c6eb72d318ec65820627232b2f796219e87dcf35d0ab4",
    # TSAR-2022 (Saggion et al. 2022) @ 089c266: gold files and the unlabelled inputs they must match, and
    # the data's license (CC-BY-NC-SA-4.0), shipped beside the data.
    "tsar2022/LICENSE-data-CC-BY-NC-SA-4.0": "e66c269d4819aaab34b49ef5220c4ddab6756f21bb5180761a4eb8561f2b7bbd",
    "tsar2022/trial/tsar2022_en_trial_gold.tsv": ("8c13d40363bb74152beb34f58150af248465c4d25492189f3eeebeb5fb11bd41"),
    "tsar2022/trial/tsar2022_en_trial_none.tsv": ("63bb6f05726097bcfc82447a66b55d0d245e002959861fdfd35054c29f52d63f"),
    "tsar2022/trial/tsar2022_es_trial_gold.tsv": ("d8e7a4ee3ad3cb47b2850ffe7cf96a5c97113eb41568eec077dc83e43c159dca"),
    "tsar2022/trial/tsar2022_es_trial_none.tsv": ("db56dfc647f44a73cbafe00287a8dfc55ac796ad30dd4dc78f96acb089735bbe"),
    "tsar2022/trial/tsar2022_pt_trial_gold.tsv": ("466d246d495af9e289f005d9cb4a2b8b83f9473d1693aadd896713ca375191be"),
    "tsar2022/trial/tsar2022_pt_trial_none.tsv": ("76e96a341bd458bb45c7d8de4314ab6e46e43dba83bb78f33f71777acd942e19"),
    "tsar2022/test/tsar2022_en_test_gold.tsv": ("57390b78a3e5adc6967865455b8b652e06a1809e62331899fcbef21660bbfaa9"),
    "tsar2022/test/tsar2022_en_test_none.tsv": ("923abc1fa7a55e3a71d42ae2ef75d2a3dc682b7e577f0eec48ea69f5f0bf7b72"),
    "tsar2022/test/tsar2022_es_test_gold.tsv": ("ce6ebab652566f7beaa93007205fdb65e63f9702fa3d4d122aadb6d679f712d0"),
    "tsar2022/test/tsar2022_es_test_none.tsv": ("1f4dcc394971418f6fb6fdfd28343ddfabd7408e6572bfb3b6e038c112a418f2"),
    "tsar2022/test/tsar2022_pt_test_gold.tsv": ("83139b7ac1c3f30c3a3d98dabfc64743f66cfa68dc6e2eacdfe5ad5724cfd611"),
    "tsar2022/test/tsar2022_pt_test_none.tsv": ("52e3e7d00155228706a9761c49e303a519e62720053c1b0b27c5d9d20e22e6d4"),
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
    repo_root = Path(__file__).resolve().parents[2]  # swords_dataset/builder/sources.py
    for base in (repo_root, Path.cwd()):
        candidate = base.parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return repo_root.parent / "shared" / "data"


def checked_sources(sources_dir: Path, pinned: dict[str, str] = BUILD_SOURCES) -> dict[str, Path]:
    """Every pinned file's path, all checked; SourceError naming the first missing, irregular or changed one."""
    paths = {}
    for relative, expected in pinned.items():
        path = Path(sources_dir) / relative
        try:
            actual = sha256_of(path, "source")
        except FileNotFoundError:
            raise SourceError(f"missing source {path} (expected sha256 {expected})") from None
        except SwordsError as error:
            raise SourceError(f"{error} (expected sha256 {expected})") from None
        if actual != expected:
            raise SourceError(f"corrupted source {path}: sha256 {actual}, expected {expected}")
        paths[relative] = path
    return paths
