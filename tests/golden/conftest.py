"""The golden tests' shared set-up: the test-made files every case scores (inputs.py), made once a test run for
every worker (`made_once`), and the `swords` command run in this process with its streams captured."""

from __future__ import annotations

import contextlib
import io
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..conftest import REPO_ROOT, made_once
from .inputs import make_inputs, make_judged
from .recording import Volatile


@pytest.fixture(scope="session", autouse=True)
def one_blas_thread():
    """Every case on one BLAS thread, with `-n 0` as under pytest-xdist (whose workers tests/conftest.py gives one):
    the bootstrap's sums of resampled statistics are OpenBLAS matrix products, whose last bit varies with the number
    of threads that split them (a TSAR-2022 paired-test interval, -0.3276206434316356 or …355), and the intervals
    are recorded to the bit. (threadpoolctl comes with scikit-learn, which lm-eval and sentence-transformers bring.)"""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # without it, the recordings hold for a run on one BLAS thread (OMP_NUM_THREADS=1)
        yield
        return
    with threadpool_limits(limits=1, user_api="blas"):
        yield


@pytest.fixture(scope="session")
def inputs(tmp_path_factory) -> Path:
    """The folder of the test-made files the cases score (read-only to the cases)."""
    return made_once(tmp_path_factory, "golden-inputs", make_inputs)


@pytest.fixture(scope="session")
def judged(tmp_path_factory) -> Path:
    """The folder of the judgments and the run they judge (inputs.make_judged), made for the cases that use them."""
    return made_once(tmp_path_factory, "golden-judged", make_judged)


def placed(text: str, request: pytest.FixtureRequest) -> tuple[str, dict[str, Path]]:
    """`text` with `{judged}` made the judgments' folder (made when a case first names it), and the placeholder of
    each folder it now names."""
    if "{judged}" not in text:
        return text, {}
    folder = request.getfixturevalue("judged")
    return text.replace("{judged}", str(folder)), {"<judged>": folder}


@pytest.fixture(scope="session")
def volatile(inputs) -> Volatile:
    """The folders an output may name, as placeholders: the inputs' folder, the clone."""
    return Volatile({"<inputs>": inputs, "<repo>": REPO_ROOT})


@pytest.fixture
def out(tmp_path) -> Path:
    """The case's own folder for what a command writes (`{out}` in its arguments)."""
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


@pytest.fixture
def in_inputs(inputs, monkeypatch) -> Path:
    """The case runs in the inputs' folder (its arguments name the files as there), at a terminal width of 100
    columns (argparse's usage lines)."""
    monkeypatch.chdir(inputs)
    monkeypatch.setenv("COLUMNS", "100")
    return inputs


@dataclass
class Ran:
    argv: list[str]
    status: int
    stdout: str
    stderr: str


def swords_in_process(argv: list[str]) -> Ran:
    """`swords ARGV` through the console command's own `main`, in this process (the same parser, checks and
    printing as the installed command; argparse's refusals exit through SystemExit, caught here)."""
    from swords_lexsub.cli import main

    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            status = main(argv)
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
    return Ran(argv, status, stdout.getvalue(), stderr.getvalue())


def command_text(ran: Ran, shown_argv: list[str] | None = None) -> str:
    """A command's run as text: the command line, its exit status, its stdout and its stderr."""
    line = shlex.join(["swords", *(shown_argv or ran.argv)])
    return f"$ {line}\nexit {ran.status}\n--- stdout\n{stream(ran.stdout)}--- stderr\n{stream(ran.stderr)}"


def stream(text: str) -> str:
    """A stream's text, its last line ended (one that was not is marked so)."""
    return text if not text or text.endswith("\n") else text + "\n\\ no newline at end\n"
