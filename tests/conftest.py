from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

# Bytecode is cached even where the shell says not to (PYTHONDONTWRITEBYTECODE, set on some CI machines): else each
# worker rewrites and compiles every test module (collection 84 s instead of 26 s at load 8), and each of the
# hundreds of `swords` commands the tests start compiles the project's modules again. Set before the project loads.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# A shell's background job (`.ci/run &`) starts with SIGINT ignored, and every command a test starts inherits that:
# the Ctrl-C tests' commands would ignore the signal they are tested with. A handler is not inherited by an exec'd
# command, which so starts with Python's own.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

import swords_dataset  # noqa: E402 (after the bytecode setting above)
from swords_dataset.builder.sources import default_sources_dir  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent

# Tests must never reach the Hub; everything they load ships with the repository or the shared folder.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# Under pytest-xdist each worker takes a core: PyTorch's own threads (one a core by default) would fight the
# other workers' (the default system's SWORDS test run took 243 s beside another worker, about 30 s alone).
if os.environ.get("PYTEST_XDIST_WORKER"):
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


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


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder `name`, made by `make(folder)` once for the whole test run: under pytest-xdist the first worker
    to ask makes it in the run's common temporary folder while the others wait on a file lock, then all read it.
    Read-only to tests. If `make` fails or skips, the next worker to ask tries again (and reports the same)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # pytest-N/popen-gwK: pytest-N is the run's, shared by its workers
    folder, done = root / name, root / f"{name}.done"
    with FileLock(str(root / f"{name}.lock")):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a failed attempt left
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def hub_export(tmp_path_factory) -> Path:
    """The release's Hub repositories as `swords hub export DIR` writes them, once per test run. Read-only to
    tests."""

    def export(folder: Path) -> None:
        result = run_swords("hub", "export", str(folder / "export"))
        assert result.returncode == 0, result.stderr

    return made_once(tmp_path_factory, "hub", export) / "export"


def build_site(config_dir: Path, site: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of the manual whose mkdocs.yml is in config_dir, into site."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=config_dir,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """The manual built once per session, as the test command builds it: (the site folder, the build)."""
    pytest.importorskip("mkdocs", reason="the manual needs the docs extra: pip install -e '.[docs]'")
    site = tmp_path_factory.mktemp("site")
    return site, build_site(REPO_ROOT, site)


# -- The lanes and the workers ---------------------------------------------------------------------------------

# What makes a test slow (pyproject's markers): each of these marks implies `slow`, so `pytest -m "not slow"`
# (the quick lane) leaves them out, and `pytest -m engine` (say) runs only that kind.
SLOW_KINDS = ("browser", "engine", "release", "hub_server", "parity")


# A test that uses one of these fixtures is of that kind without saying so.
FIXTURE_KINDS = {"browser": "browser", "dist": "release", "hub_server": "hub_server", "served_engine": "engine"}
# A test that uses one of these is slow without saying so: the dataset built from the raw sources (about 30 s).
SLOW_FIXTURES = ("rebuilt",)
# The files whose tests run on one worker together (any file's own tests always do): the release's build and fresh
# environment are made once a worker's session, and the embedded engine takes both cores (two engines at once, or
# one beside another engine test, each slow the other down several times). The scheduler reads these paths: with
# pytest 9, pytest-xdist's `xdist_group` marks no longer reach it (they change `item._nodeid`, which pytest 9
# no longer reads). A test of a kind below in a file not listed fails, naming the file.
GROUPS = {"release": "release", "engine": "engine"}
GROUP_FILES = {
    "tests/release/": "release",
    "tests/baselines/test_llm_local_runs.py": "engine",
    "tests/baselines/test_llm_local_engine.py": "engine",
    "tests/baselines/test_lm_eval.py": "engine",
    "tests/baselines/test_lm_eval_tsar.py": "engine",
    "tests/baselines/test_engine_options_refused.py": "engine",
    "tests/baselines/test_engine_model_refused.py": "engine",
    "tests/baselines/test_judge_engine.py": "engine",
    "tests/baselines/test_llm_priming.py": "engine",
    "tests/baselines/test_docs_engine_commands.py": "engine",
}


MISPLACED = pytest.StashKey[str]()


def group_of(path: str) -> str:
    """The worker group of the test file `path` (repository-relative): a GROUP_FILES group, else the file."""
    return next((group for prefix, group in GROUP_FILES.items() if path.startswith(prefix)), path)


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for fixture, kind in FIXTURE_KINDS.items():
            if fixture in item.fixturenames and not item.get_closest_marker(kind):
                item.add_marker(kind)
        kinds = [kind for kind in SLOW_KINDS if item.get_closest_marker(kind)]
        if kinds or any(fixture in item.fixturenames for fixture in SLOW_FIXTURES):
            item.add_marker(pytest.mark.slow)
        path = item.nodeid.split("::", 1)[0]
        for kind in kinds:
            if kind in GROUPS and group_of(path) != GROUPS[kind]:
                item.stash[MISPLACED] = (
                    f"{path}: {item.name} is a {kind} test: add the file to GROUP_FILES in tests/conftest.py "
                    f"(group {GROUPS[kind]!r}), so that it runs on the worker the other {kind} tests run on"
                )


def pytest_runtest_setup(item: pytest.Item) -> None:
    if MISPLACED in item.stash:
        pytest.fail(item.stash[MISPLACED], pytrace=False)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """`--dist loadgroup` (pyproject's addopts), grouped by test file: a file's tests run on one worker, in order, so
    its module-scoped fixtures (a server, a scorer) start once; the files of a GROUP_FILES group run on one worker
    together (the engine's tests, the release's)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class FileGroupScheduling(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid.split("@", 1)[0].split("::", 1)[0])

    return FileGroupScheduling(config, log)


class Begun:
    """Work begun in a thread before the test that checks it (a module fixture), so that the file's other tests run
    while it waits: for a test that spends a minute waiting on a default timeout. `result()` is what the work
    returned, or raises what it raised."""

    def __init__(self, work: Callable[[], object], limit: float) -> None:
        import threading

        self.limit, self.outcome = limit, {}
        self.thread = threading.Thread(target=self._run, args=(work,), daemon=True)
        self.thread.start()

    def _run(self, work: Callable[[], object]) -> None:
        try:
            self.outcome["value"] = work()
        except BaseException as error:  # noqa: BLE001 (raised again by result())
            self.outcome["error"] = error

    def result(self) -> object:
        self.thread.join(self.limit)
        assert not self.thread.is_alive(), f"the work begun early did not finish within {self.limit} s"
        if "error" in self.outcome:
            raise self.outcome["error"]
        return self.outcome["value"]


def begin_for(request: pytest.FixtureRequest, test_name: str, work: Callable[[], object], limit: float):
    """A module fixture's body (`yield from begin_for(...)`): `work` begun now (a Begun) when the test `test_name`
    of the requesting module is to run in this session, else None (a quick lane that leaves it out does not wait
    for it); at the module's end it is waited for, never left running past its file."""
    selected = any(
        item.name == test_name and getattr(item, "module", None) is request.module for item in request.session.items
    )
    begun = Begun(work, limit) if selected else None
    yield begun
    if begun is not None:
        begun.thread.join(limit)
