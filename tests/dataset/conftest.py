"""Fixtures of the dataset's tests: one build from the raw sources, shared; a copy of the sources to spoil; the
splits the upstream SWORDS library builds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import swords_dataset
from swords_dataset.builder.sources import BUILD_SOURCES

from ..conftest import made_once, run_swords

# The benchmarks the upstream SWORDS library builds (POS, lemmas, its ids); ProLex and TSAR-2022:
# test_prolex_tsar2022.py.
UPSTREAM_CONFIGS = ("swords", "swords_test_subset", "swords_reannotated", "coinco", "semeval07")
UPSTREAM_SPLITS = [(c, s) for c in UPSTREAM_CONFIGS for s in swords_dataset.CONFIGS[c]]


@pytest.fixture(scope="session")
def rebuilt(sources_dir, nltk35_path, tmp_path_factory) -> Path:
    """A dataset folder `swords data build` wrote, into an empty folder that already existed; built once for the
    whole run, whichever worker asks first (about 30 s). Read-only to tests: copy it to change it."""

    def build(output: Path) -> None:
        result = run_swords(
            "data", "build", "--sources", str(sources_dir), "--output", str(output), "--nltk35", str(nltk35_path)
        )
        assert result.returncode == 0, result.stderr

    return made_once(tmp_path_factory, "rebuild", build)


@pytest.fixture
def sources_copy(sources_dir, tmp_path) -> Path:
    copy = tmp_path / "sources"
    for relative in BUILD_SOURCES:
        (copy / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(sources_dir / relative, copy / relative)
    return copy
