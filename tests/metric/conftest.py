"""Fixtures shared by the files of tests/metric: the official scorers (for the test_metric_parity_* files), Debian's
WordNet 3.0 database (for the test_lemmatize_* files), SWORDS test's rows (as `datasets` loads them, for
test_metric_scores.py, test_metric_properties.py and test_metric_cli.py, with the thesaurus oracle on them and its
published figures; as `swords_dataset.rows` reads them, for test_metric_files_*.py), and real systems' predictions."""

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

# SWORDS paper (arXiv version), thesaurus oracle on SWORDS v1.1 test: Table 4 (lenient F@10, Fc@10) and
# Table 8 (best, best-mode, oot, oot-mode recall; P@1 = strict conceivable precision at 1).
THESAURUS_PUBLISHED = {
    "lenient_a_f@10": 12.0,
    "lenient_c_f@10": 44.9,
    "best_r": 2.1,
    "best_mode_r": 7.9,
    "oot_r": 24.1,
    "oot_mode_r": 24.6,
    "strict_c_p@1": 63.0,
}


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
def swords_test() -> list[dict]:
    """SWORDS test's rows as `swords_dataset.rows` reads them. Read-only to tests."""
    import swords_dataset

    return swords_dataset.rows("swords", "test")


@pytest.fixture(scope="session")
def coinco_test() -> list[dict]:
    """CoInCo test's rows as `swords_dataset.rows` reads them. Read-only to tests."""
    import swords_dataset

    return swords_dataset.rows("coinco", "test")


@pytest.fixture(scope="session")
def swords_test_rows(dataset_rows):
    return dataset_rows[("swords", "test")]


@pytest.fixture(scope="session")
def thesaurus_oracle(swords_test_rows, sources_dir):
    """Roget's substitutes of the target lemma, senses whose POS includes the target's, thesaurus order. Read-only to
    tests."""
    from swords_baselines.classic.thesaurus import thesaurus_substitutes

    return {
        row["id"]: [s for s in thesaurus_substitutes(row["target_lemma"], row["pos"]) if s.strip()]
        for row in swords_test_rows
    }


@pytest.fixture(scope="session")
def real_systems(tmp_path_factory) -> Mapping:
    """SWORDS test predictions of real systems (real_systems.py): name -> a file or a mapping, each made when a test
    first asks for it; a system whose data is absent is left out."""
    import swords_dataset

    from .real_systems import RealSystems

    return RealSystems(
        swords_dataset.rows("swords", "test"), lambda name, make: made_once(tmp_path_factory, name, make)
    )
