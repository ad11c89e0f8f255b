"""The package as users get it: the sdist and wheel built from the clone's files, the Space repository written
with that wheel, and a fresh virtual environment holding only what the Space's requirements.txt installs.

Built once a test run (tests/release/ runs on one worker: GROUP_FILES in tests/conftest.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import REPO_ROOT

BUILD_TIMEOUT = 300
INSTALL_TIMEOUT = 1200  # a cold install downloads gradio, transformers and datasets; torch comes from pip's finders
TORCH_PIN = "torch==2.13.0"  # the CPU build CI installs first (.ci/run); anything else would download CUDA


def clone_files() -> list[str]:
    """The files a release is built from: the clone's tracked and new (not ignored) files, as they are on disk."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.decode()
    return [name for name in listed.split("\0") if name and (REPO_ROOT / name).is_file()]


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> dict[str, Path]:
    """`python -m build` (the sdist, then the wheel from the sdist) on a copy of the clone, so nothing is written
    into the clone: {"sdist": …, "wheel": …, "source": the copy}."""
    if shutil.which("git") is None:
        pytest.skip("git is needed to list the clone's files")
    pytest.importorskip("build", reason="pip install build (the test extra)")
    work = tmp_path_factory.mktemp("release")
    source, out = work / "source", work / "dist"
    for name in clone_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO_ROOT / name, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (sdist,), (wheel,) = out.glob("*.tar.gz"), out.glob("*.whl")
    return {"sdist": sdist, "wheel": wheel, "source": source}


@pytest.fixture(scope="session")
def space_repo(dist, tmp_path_factory) -> Path:
    """The Space repository as `swords hub export` writes it, with the wheel beside its requirements.txt."""
    from swords_dataset import __version__
    from swords_lexsub.hub.repos import Release
    from swords_space.hub_repo import SPACE_REPO

    folder = tmp_path_factory.mktemp("space-repo")
    SPACE_REPO.write(folder, Release(__version__, dist["wheel"]))
    return folder


def user_env(venv: Path, **extra: str) -> dict[str, str]:
    """A user's environment with `venv` activated: nothing of this clone's (no PYTHONPATH, no $SWORDS_* paths)."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("SWORDS_") and name not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    }
    env.update(
        VIRTUAL_ENV=str(venv),
        PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        GRADIO_ANALYTICS_ENABLED="False",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def installed(space_repo, tmp_path_factory) -> dict:
    """A fresh virtual environment (`python -m venv`, no system site packages, nothing editable) where only
    `pip install -r SPACE/requirements.txt` ran, from a folder outside the clone; torch held to the CPU build CI
    has (a constraints file). {"venv", "bin", "home", "seconds"}."""
    import time

    work = tmp_path_factory.mktemp("installed")
    venv, home = work / "venv", work / "home"
    home.mkdir()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    constraints = work / "constraints.txt"
    constraints.write_text(TORCH_PIN + "\n")
    started = time.perf_counter()
    # PyTorch's CPU index (requirements.txt's --extra-index-url) is unreachable here: one try, not five per package.
    done = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            # No bytecode compiled at install time (Python writes it at first import): what is installed, and how
            # it runs, is the same; the install takes 80 s instead of 194 s on two busy cores (torch's files).
            "--no-compile",
            "-r",
            str(space_repo / "requirements.txt"),
            "-c",
            str(constraints),
        ],
        cwd=home,
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT,
        env=user_env(venv, PIP_RETRIES="0"),
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return {"venv": venv, "bin": venv / "bin", "home": home, "seconds": time.perf_counter() - started}


@pytest.fixture(scope="session")
def extra_envs(dist, tmp_path_factory):
    """A fresh environment per extra, the wheel with that one extra (extras_envs.py), all begun at first use."""
    from .extras_envs import ExtraEnvironments

    envs = ExtraEnvironments(dist["wheel"], tmp_path_factory.mktemp("extras"))
    yield envs
    envs.close()
