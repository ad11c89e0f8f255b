"""Fixtures of the dataset's build tests: one build from the raw sources, shared; a copy of the sources to spoil."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from swords_dataset.builder.sources import BUILD_SOURCES

from ..conftest import made_once, run_swords


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
