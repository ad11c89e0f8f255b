"""The toolkit as a user installs it: the built wheel, installed by the Space repository's requirements.txt into
a fresh virtual environment, run from a folder outside the clone. Its commands, its metric and its Space answer
as the development install does, import from the environment's site-packages, and open no file of the clone
(every open(2) is traced with strace where the machine has it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from ..conftest import REPO_ROOT, free_port
from .conftest import clone_files, user_env
from .processes import start, stop, wait_for_http

COMMAND_TIMEOUT = 600
PACKAGE_FOLDERS = {
    "swords_lexsub": "swords_lexsub",
    "swords_dataset": "swords_dataset",
    "swords_metric": "swords_metric",
    "baselines": "swords_baselines",
    "space": "swords_space",
}  # folder in the clone: import name
RESULTS = "swords_space/results"
COINCO_ORACLE = "coinco-oracle.swords.test.jsonl"


def _strace_works() -> bool:
    if shutil.which("strace") is None:
        return False
    probe = subprocess.run(["strace", "-f", "-qq", "-o", os.devnull, "true"], capture_output=True, timeout=30)
    return probe.returncode == 0  # ptrace may be forbidden in a container


STRACE = _strace_works()


def traced(command: list[str], log: Path) -> list[str]:
    """`command` with every file it (or a child) opens written to `log`, when strace can run here."""
    if not STRACE:
        return command
    # -y: each descriptor with its path, so a relative open shows where it landed
    return [
        "strace",
        "-f",
        "-qq",
        "-y",
        "-e",
        "trace=open,openat,openat2",
        "-e",
        "signal=none",
        "-o",
        str(log),
        *command,
    ]


def assert_nothing_opened_in_the_clone(log: Path) -> None:
    if not STRACE:
        return
    clone = (f'"{REPO_ROOT}/', f"<{REPO_ROOT}/", f"<{REPO_ROOT}>")  # a path asked for, opened, or the cwd
    opened = [line for line in log.read_text(errors="replace").splitlines() if any(mark in line for mark in clone)]
    assert not opened, "opened in the clone:\n" + "\n".join(opened[:20])


def run_installed(installed: dict, *args: str, log: Path) -> subprocess.CompletedProcess:
    """A command of the fresh environment, from a folder outside the clone."""
    return subprocess.run(
        traced([str(installed["bin"] / args[0]), *args[1:]], log),
        cwd=installed["home"],
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
        env=user_env(installed["venv"]),
    )


def site_packages(installed: dict) -> Path:
    (found,) = (installed["venv"] / "lib").glob("python3*/site-packages")
    return found


# -- the built distributions ----------------------------------------------------------------------------------


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


# -- the installed environment ---------------------------------------------------------------------------------


def test_the_packages_are_imported_from_the_fresh_environment(installed, tmp_path):
    log = tmp_path / "opened.txt"
    script = (
        "import json, swords_dataset, swords_metric, swords_baselines, swords_space; "
        "from importlib.metadata import version; "
        "print(json.dumps({m.__name__: m.__file__ for m in (swords_dataset, swords_metric, swords_baselines, "
        "swords_space)} | {'version': version('swords-lexsub')}))"
    )
    done = run_installed(installed, "python", "-c", script, log=log)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    from swords_dataset import __version__

    assert found.pop("version") == __version__
    packages = site_packages(installed)
    for module, file in found.items():
        assert Path(file).is_relative_to(packages), (module, file)
        assert not Path(file).resolve().is_relative_to(REPO_ROOT), (module, file)
    assert_nothing_opened_in_the_clone(log)
    print(f"pip install -r requirements.txt into a fresh venv: {installed['seconds']:.0f} s")


def test_swords_data_verify_from_the_installed_wheel(installed, tmp_path):
    log = tmp_path / "opened.txt"
    done = run_installed(installed, "swords", "data", "verify", log=log)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "35 figures match, 5 differ as explained, 0 mismatch"
    assert_nothing_opened_in_the_clone(log)


def test_swords_evaluate_on_a_shipped_result_file_gives_the_recorded_metrics(installed, tmp_path):
    """The CoInCo oracle's predictions shipped in the wheel, scored by the installed `swords evaluate`: equal to
    the metrics `swords run` recorded beside them and to the development install's Scorer."""
    log = tmp_path / "opened.txt"
    predictions = site_packages(installed) / RESULTS / COINCO_ORACLE
    done = run_installed(
        installed,
        "swords",
        "evaluate",
        "--dataset",
        "swords",
        "--split",
        "test",
        "--predictions",
        str(predictions),
        "--json",
        "--no-analysis",
        log=log,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    scored = json.loads(done.stdout)
    recorded = json.loads((REPO_ROOT / "space" / "results" / "coinco-oracle.swords.test.metrics.json").read_text())
    from swords_metric import Scorer, read_predictions

    here = Scorer.from_dataset("swords", "test").score(
        read_predictions(REPO_ROOT / "space" / "results" / COINCO_ORACLE)[0]
    )
    numbers = [key for key, value in scored.items() if isinstance(value, (int, float))]
    assert {"lenient_a_f@10", "strict_c_f@10", "gap", "best_p", "oot_mode_r", "lexsubgen_p@1"} <= set(numbers)
    for key in numbers:
        assert scored[key] == recorded[key] == here[key], key
    assert scored["signature"] == recorded["signature"]
    assert_nothing_opened_in_the_clone(log)


def test_swords_run_wordnet_from_the_installed_wheel_equals_the_development_install(installed, tmp_path):
    """`swords run --system wordnet` on SWORDS test (762 targets, a few seconds; the command has no --limit):
    the installed wheel's predictions and metrics are the development install's, byte for byte."""
    log = tmp_path / "opened.txt"
    command = ["run", "--system", "wordnet", "--dataset", "swords", "--split", "test", "--no-progress", "--json"]
    done = run_installed(installed, "swords", *command, "--output", str(tmp_path / "wheel" / "w.jsonl"), log=log)
    assert done.returncode == 0, done.stderr[-3000:]
    here = subprocess.run(
        [sys.executable, "-m", "swords_lexsub.cli", *command, "--output", str(tmp_path / "dev" / "w.jsonl")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
    )
    assert here.returncode == 0, here.stderr[-3000:]
    assert json.loads(done.stdout) == json.loads(here.stdout)
    assert json.loads(done.stdout)["lenient_a_f@10"] > 0
    assert (tmp_path / "wheel" / "w.jsonl").read_bytes() == (tmp_path / "dev" / "w.jsonl").read_bytes()
    assert_nothing_opened_in_the_clone(log)


def test_swords_lm_eval_path_without_the_extra_names_it_and_the_tasks_ship(installed, tmp_path):
    """The Space installs [space,baselines], not lm-eval: `swords lm-eval path` says which extra in one line;
    the task files it would print are in the installed package."""
    done = run_installed(installed, "swords", "lm-eval", "path", log=tmp_path / "opened.txt")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "swords: error: the lm-eval tasks need lm-eval: pip install 'swords-lexsub[lm-eval]'"
    ]
    tasks = site_packages(installed) / "swords_baselines" / "harness" / "tasks"
    assert {path.name for path in tasks.glob("*.yaml")} == {
        path.name for path in (REPO_ROOT / "baselines" / "harness" / "tasks").glob("*.yaml")
    }


def test_the_metric_module_in_the_installed_wheel_computes_the_development_figures(installed, tmp_path):
    log = tmp_path / "opened.txt"
    script = (
        "import json, swords_dataset, swords_metric\n"
        "from swords_metric import read_predictions\n"
        "import swords_space\n"
        "test = swords_dataset.load('swords', split='test')\n"
        f"predictions = read_predictions(swords_space.SPACE_DIR / 'results' / {COINCO_ORACLE!r})[0]\n"
        "results = swords_metric.load().compute(predictions=predictions, references=test)\n"
        "print(json.dumps({k: v for k, v in results.items() if isinstance(v, (int, float, str))}))\n"
    )
    done = run_installed(installed, "python", "-c", script, log=log)
    assert done.returncode == 0, done.stderr[-3000:]
    import swords_dataset
    import swords_metric
    from swords_metric import read_predictions

    predictions = read_predictions(REPO_ROOT / "space" / "results" / COINCO_ORACLE)[0]
    here = swords_metric.load().compute(predictions=predictions, references=swords_dataset.load("swords", split="test"))
    there = json.loads(done.stdout)
    assert there["lenient_a_f@10"] > 0 and len(there) > 20
    assert there == {key: here[key] for key in there}
    assert_nothing_opened_in_the_clone(log)


# -- the demo and the Space ------------------------------------------------------------------------------------


def test_swords_demo_from_the_installed_wheel_answers_http(installed, tmp_path):
    port = free_port()
    env = user_env(installed["venv"], GRADIO_TEMP_DIR=str(tmp_path / "uploads"))
    log = tmp_path / "demo.log"
    demo = start([str(installed["bin"] / "swords"), "demo", "--port", str(port)], installed["home"], env, log)
    try:  # it prints its address once it is up, and answers there
        wait_for_http(f"http://127.0.0.1:{port}/", demo, log, line=f"The demo is running at http://127.0.0.1:{port}/")
    finally:
        stop(demo)
    assert "Traceback" not in log.read_text(errors="replace")


def test_the_space_repository_runs_the_browser_tests(installed, space_repo, tmp_path):
    """`python app.py` in the Space repository, with the fresh environment's Python and the port in
    $GRADIO_SERVER_PORT (as Spaces passes it), driven by tests/space/test_space_e2e_browser.py's browser tests
    through $SWORDS_SPACE_URL. The app opens nothing in the clone, and its log holds no traceback."""
    chromium = os.environ.get("SWORDS_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).is_file() and not shutil.which(chromium):
        pytest.skip(f"no Chromium at {chromium}: apt-get install -y chromium (or set SWORDS_CHROMIUM)")
    pytest.importorskip("playwright.sync_api", reason="pip install playwright (no `playwright install`)")
    port = free_port()
    log, opened = tmp_path / "app.log", tmp_path / "opened.txt"
    env = user_env(installed["venv"], GRADIO_SERVER_PORT=str(port), GRADIO_TEMP_DIR=str(tmp_path / "uploads"))
    app = start(traced([str(installed["bin"] / "python"), "app.py"], opened), space_repo, env, log)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for_http(url, app, log)
        browser_tests = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-n",
                "0",  # in this process: one app, one browser, as a person uses them
                "-k",
                "test_browser",
                str(REPO_ROOT / "tests" / "space" / "test_space_e2e_browser.py"),
            ],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
            env={**os.environ, "SWORDS_SPACE_URL": url, "SWORDS_SPACE_LOG": str(log)},
        )
    finally:
        stop(app)
    summary = browser_tests.stdout.strip().splitlines()[-1]
    assert browser_tests.returncode == 0, browser_tests.stdout[-5000:]
    assert " 5 passed" in f" {summary}" and "skipped" not in summary, summary
    assert "Traceback" not in log.read_text(errors="replace")
    assert_nothing_opened_in_the_clone(opened)
