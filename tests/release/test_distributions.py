"""The release's built distributions, the sdist and the wheel built from it (`python -m build` on a copy of the
clone): `twine check --strict` passes on both, the wheel holds every file of the five package folders under its
import name, and the sdist holds what a build needs and nothing of the clone's tests or runs."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from .conftest import clone_files
from .installed import COINCO_ORACLE, RESULTS

PACKAGE_FOLDERS = {
    "swords_lexsub": "swords_lexsub",
    "swords_dataset": "swords_dataset",
    "swords_metric": "swords_metric",
    "baselines": "swords_baselines",
    "space": "swords_space",
}  # folder in the clone: import name


def test_twine_check_passes_on_the_sdist_and_the_wheel(dist):
    pytest.importorskip("twine", reason="pip install twine (the test extra)")
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(dist["sdist"]), str(dist["wheel"])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2


def test_the_wheel_holds_every_file_of_the_packages_and_the_sdist_what_a_build_needs(dist):
    """Every file of the five package folders (code and data: a file in them is read at run time or imported)
    is in the wheel under its import name; the sdist holds the build's configuration and the release's papers.
    (The wheel itself was built from the sdist: the fixture's `python -m build` does that.)"""
    with zipfile.ZipFile(dist["wheel"]) as wheel:
        in_wheel = set(wheel.namelist())
    expected = set()
    for name in clone_files():
        folder, _, rest = name.partition("/")
        if folder in PACKAGE_FOLDERS and rest and not rest.startswith("__pycache__"):
            expected.add(f"{PACKAGE_FOLDERS[folder]}/{rest}")
    assert expected and not expected - in_wheel
    assert {
        "swords_dataset/data/swords/test.parquet",
        "swords_metric/wordnet/wordnet-3.0-graph.zip",
        "swords_baselines/harness/tasks/swords_gen.yaml",
        f"{RESULTS}/{COINCO_ORACLE}",
        *(f"{name}/py.typed" for name in PACKAGE_FOLDERS.values()),
    } <= in_wheel
    with tarfile.open(dist["sdist"]) as sdist:
        in_sdist = {Path(*Path(member).parts[1:]).as_posix() for member in sdist.getnames()}
    assert {"setup.cfg", "pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "CITATION.cff"} <= in_sdist
    assert not {name for name in in_sdist if name.startswith((".ci/", "tests/", "runs/", "artifacts/"))}
