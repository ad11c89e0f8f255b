from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import swords_dataset
from swords_dataset.build.sources import default_sources_dir

REPO_ROOT = Path(__file__).resolve().parent.parent

# Tests must never reach the Hub; everything they load ships with the repository or the shared folder.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")


@pytest.fixture(scope="session")
def sources_dir() -> Path:
    path = default_sources_dir()
    if not (path / "SHA256SUMS").is_file():
        pytest.skip(f"raw sources not found at {path} (set SWORDS_SOURCES)")
    return path


@pytest.fixture(scope="session")
def nltk35_path() -> Path:
    """A folder holding nltk 3.5 (`pip install --no-deps --target DIR nltk==3.5`), as $SWORDS_NLTK35_PATH."""
    path = os.environ.get("SWORDS_NLTK35_PATH")
    if not path or not (Path(path) / "nltk" / "__init__.py").is_file():
        pytest.skip("nltk 3.5 not found (set SWORDS_NLTK35_PATH; .ci/run installs it)")
    return Path(path)


@pytest.fixture(scope="session")
def dataset_rows(tmp_path_factory) -> dict[tuple[str, str], list[dict]]:
    """Every config and split, loaded the way users load them, into a fresh cache."""
    cache = tmp_path_factory.mktemp("hf-cache")
    return {
        (config, split): swords_dataset.load(config, split=split, cache_dir=str(cache)).to_list()
        for config, splits in swords_dataset.CONFIGS.items()
        for split in splits
    }


def run_swords(*args: str, cwd: Path = REPO_ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    """The `swords` command as a user runs it, in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "swords_lexsub.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=600,
    )


UNPRIVILEGED = ["capsh", "--drop=cap_dac_override,cap_dac_read_search,cap_fowner", "--", "-c", 'exec "$0" "$@"']


def run_swords_unprivileged(*args: str, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess:
    """The `swords` command as a user without root's power to ignore permissions runs it: as root, under capsh with
    the capabilities that override them dropped, so a read-only folder really is (skipped where capsh is absent)."""
    command = [sys.executable, "-m", "swords_lexsub.cli", *args]
    if os.geteuid() == 0:
        if shutil.which("capsh") is None:
            pytest.skip("capsh is absent: as root, permissions cannot be tested without it")
        command = [*UNPRIVILEGED, *command]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.fixture
def small_disk(tmp_path):
    """A 16 kB filesystem (tmpfs), where the machine allows mounting one."""
    mount = tmp_path / "small"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def free_port() -> int:
    """A port nobody listens on, on 127.0.0.1 (for a server a test starts)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def hub_export(tmp_path_factory) -> Path:
    """The release's Hub repositories as `swords hub export DIR` writes them, once per session. Read-only to tests."""
    folder = tmp_path_factory.mktemp("hub") / "export"
    result = run_swords("hub", "export", str(folder))
    assert result.returncode == 0, result.stderr
    return folder


# The environment `mkdocs build` runs in: no notices from MkDocs' plugins about MkDocs 2 (they are not warnings
# about this manual, and they would read as such).
MKDOCS_ENV = {"NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}


def build_site(config_dir: Path, site: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of the manual whose mkdocs.yml is in config_dir, into site."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=config_dir,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **MKDOCS_ENV},
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """The manual built once per session, as the test command builds it: (the site folder, the build)."""
    pytest.importorskip("mkdocs", reason="the manual needs the docs extra: pip install -e '.[docs]'")
    site = tmp_path_factory.mktemp("site")
    return site, build_site(REPO_ROOT, site)
