"""The habits a contributor expects, kept from drifting: the pre-commit hooks run the ruff that is installed (the
version the test extra pins) and the import contracts; every package ships py.typed; the package's one-line
description names every benchmark the toolkit serves."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml

from swords_dataset import CONFIGS

from ..conftest import REPO_ROOT

PRE_COMMIT_CONFIG = REPO_ROOT / ".pre-commit-config.yaml"
RUFF_HOOKS = "https://github.com/astral-sh/ruff-pre-commit"
# The benchmarks as their papers name them, by the config name they give CONFIGS (a config is BENCHMARK or
# BENCHMARK_…: swords_test_subset, tsar2022_es).
BENCHMARK_NAMES = {
    "swords": "SWORDS",
    "coinco": "CoInCo",
    "semeval07": "SemEval-2007",
    "prolex": "ProLex",
    "tsar2022": "TSAR-2022",
}


@pytest.fixture(scope="module")
def setup_cfg() -> configparser.ConfigParser:
    setup = configparser.ConfigParser()
    setup.read(REPO_ROOT / "setup.cfg")
    return setup


@pytest.fixture(scope="module")
def pre_commit() -> dict:
    return yaml.safe_load(PRE_COMMIT_CONFIG.read_text(encoding="utf-8"))


def test_the_pre_commit_config_names_the_installed_ruff(pre_commit, setup_cfg):
    installed = version("ruff")
    (ruff,) = [repo for repo in pre_commit["repos"] if repo["repo"] == RUFF_HOOKS]
    assert ruff["rev"] == f"v{installed}", (
        f".pre-commit-config.yaml has ruff {ruff['rev']}, ruff {installed} is installed"
    )
    assert [hook["id"] for hook in ruff["hooks"]] == ["ruff-check", "ruff-format"]
    # The test extra pins the same ruff, so a fresh install cannot drift from the hooks either.
    assert f"ruff=={installed}" in setup_cfg["options.extras_require"]["test"].split()
    done = subprocess.run([shutil.which("ruff") or "ruff", "--version"], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["ruff", installed], done.stdout


def test_the_pre_commit_config_is_valid_and_its_local_hook_runs_the_import_contracts(pre_commit, tmp_path):
    """pre-commit's own schema accepts the file; the local hook, run by pre-commit on this clone, is lint-imports
    (ruff's hooks come from GitHub, out of the tests' reach: only the local repository is run)."""
    pytest.importorskip("pre_commit", reason="pip install pre-commit (the test extra)")
    from pre_commit.clientlib import load_config

    load_config(str(PRE_COMMIT_CONFIG))
    if shutil.which("git") is None or not (REPO_ROOT / ".git").exists():
        pytest.skip("pre-commit runs hooks in a git clone")
    (local,) = [repo for repo in pre_commit["repos"] if repo["repo"] == "local"]
    assert [(hook["id"], hook["entry"]) for hook in local["hooks"]] == [("lint-imports", "lint-imports")]
    only_local = tmp_path / "local-hooks.yaml"
    only_local.write_text(yaml.safe_dump({"repos": [local]}), encoding="utf-8")
    bin_dir = str(Path(sys.executable).parent)  # lint-imports beside this interpreter
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--config", str(only_local), "--all-files", "lint-imports"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO_ROOT,
        env={
            **os.environ,
            "PRE_COMMIT_HOME": str(tmp_path / "cache"),
            "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        },
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "import contracts (lint-imports)" in done.stdout and "Passed" in done.stdout, done.stdout


def top_level_packages(setup: configparser.ConfigParser) -> dict[str, Path]:
    """import name: folder in the clone, of every top-level package setup.cfg installs."""
    folders = dict(
        line.replace(" ", "").split("=") for line in setup["options"]["package_dir"].strip().splitlines() if line
    )
    names = [name for name in setup["options"]["packages"].split() if "." not in name]
    return {name: REPO_ROOT / folders.get(name, name) for name in names}


def test_every_package_ships_py_typed(setup_cfg):
    packages = top_level_packages(setup_cfg)
    assert set(packages) == {"swords_lexsub", "swords_dataset", "swords_metric", "swords_baselines", "swords_space"}
    for name, folder in packages.items():
        assert (folder / "py.typed").is_file(), f"{folder.relative_to(REPO_ROOT)}/py.typed is missing"
        # package_data, so the wheel holds it (tests/release/test_distributions.py checks the built wheel)
        assert "py.typed" in setup_cfg["options.package_data"].get(name, "").split(), name


def test_the_description_names_every_benchmark(setup_cfg):
    benchmarks = {config.split("_")[0] for config in CONFIGS}
    assert benchmarks == set(BENCHMARK_NAMES), f"name the new benchmark in BENCHMARK_NAMES: {benchmarks}"
    description = setup_cfg["metadata"]["description"]
    missing = [name for name in BENCHMARK_NAMES.values() if name not in description]
    assert not missing, f"setup.cfg's description does not name {missing}: {description}"
