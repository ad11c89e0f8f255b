"""Fixtures shared by the files of tests/metric: the official scorers (for the test_metric_parity_* files)
and Debian's WordNet 3.0 database (for the test_lemmatize_* files)."""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

import pytest

from ..conftest import made_once
from .reference_scorers import GAP_SCORER, PERL_SCORER, SCORERS

WORDNET_DIR = Path(os.environ.get("SWORDS_WORDNET_DIR", "/usr/share/wordnet"))


@pytest.fixture(scope="module")
def perl() -> str:
    if not SCORERS.is_dir() or not PERL_SCORER.is_file():
        pytest.skip(f"reference scorers not found at {SCORERS}")
    executable = shutil.which("perl")
    if executable is None:
        pytest.skip("perl is not installed")
    return executable


@pytest.fixture(scope="module")
def gap_calc():
    if not SCORERS.is_dir() or not GAP_SCORER.is_file():
        pytest.skip(f"reference scorers not found at {SCORERS}")
    spec = importlib.util.spec_from_file_location("reference_generalized_average_precision", GAP_SCORER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.GeneralizedAveragePrecision.calc


@pytest.fixture(scope="session")
def debian_wordnet() -> Path:
    if not (WORDNET_DIR / "index.noun").is_file():
        pytest.skip(
            f"WordNet 3.0 database not found at {WORDNET_DIR}: apt-get install wordnet-base (or set SWORDS_WORDNET_DIR)"
        )
    return WORDNET_DIR


@pytest.fixture(scope="session")
def real_systems(tmp_path_factory) -> Mapping:
    """SWORDS test predictions of real systems (real_systems.py): name -> a file or a mapping, each made when a test
    first asks for it; a system whose data is absent is left out."""
    import swords_dataset

    from .real_systems import RealSystems

    return RealSystems(
        swords_dataset.rows("swords", "test"), lambda name, make: made_once(tmp_path_factory, f"system-{name}", make)
    )
