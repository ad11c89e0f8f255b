"""`swords data build` against a user's files and a careless setup: an output folder holding the user's own
`data/` and `README.md`, a built folder the user added to or edited, symlinks, a second build at once, a
build killed halfway (kill -9); and what can stop a build (no nltk 3.5, the wrong nltk, a bad source, a bad
output folder) is refused before any heavy work. Run as a user runs it: real folders, real processes."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..conftest import REPO_ROOT, run_swords

# Refused before any heavy work: the whole process (interpreter, imports, checks) in about 1.3 s on a quiet
# 2-core machine and 160 MB, where the build's reading alone takes about 20 s and 670 MB.
BEFORE_WORK_SECONDS = 8
BEFORE_WORK_MB = 400


def contents(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by relative path (symlinks as their target's name)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[relative] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            found[relative] = path.read_bytes()
    return found


def timed_build(output: Path, *options: str, env: dict | None = None) -> tuple[subprocess.CompletedProcess, float]:
    """(result, seconds) of `swords data build --output OUTPUT` in its own process."""
    started = time.monotonic()
    result = run_swords("data", "build", "--output", str(output), *options, env=env)
    return result, time.monotonic() - started


def one_line(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


@pytest.mark.slow  # 4 s on two cores
def test_a_users_data_folder_and_readme_are_refused_before_any_work(tmp_path, nltk35_path):
    output = tmp_path / "mine"
    (output / "data").mkdir(parents=True)
    (output / "data" / "results.csv").write_text("system,score\nmine,1\n")
    (output / "data" / "notes").mkdir()
    (output / "data" / "notes" / "todo.txt").write_text("rerun\n")
    (output / "README.md").write_text("# My project\n")
    before = contents(output)
    result, seconds = timed_build(output, "--nltk35", str(nltk35_path))
    line = one_line(result)
    assert line.startswith(f"swords: error: --output {output}: ") and "was not written by `swords data build`" in line
    assert str(output / "README.md") in line and f"{output} has no swords-build.json" in line, line
    assert contents(output) == before and seconds < BEFORE_WORK_SECONDS, seconds
    # The README alone, or data/ alone: each is named.
    (output / "README.md").unlink()
    result, _ = timed_build(output, "--nltk35", str(nltk35_path))
    line = one_line(result)
    assert str(output / "data" / "notes") in line or str(output / "data" / "results.csv") in line, line
    shutil.rmtree(output / "data")
    (output / "README.md").write_text("# My project\n")
    result, _ = timed_build(output, "--nltk35", str(nltk35_path))
    assert str(output / "README.md") in one_line(result)
    assert contents(output) == {"README.md": b"# My project\n"}


def test_the_manifest_lists_every_file_the_build_wrote_with_its_sha256(rebuilt):
    manifest = json.loads((rebuilt / "swords-build.json").read_text())
    assert manifest["written_by"] == "swords data build" and "previous" not in manifest
    on_disk = {
        path.relative_to(rebuilt).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in rebuilt.rglob("*")
        if path.is_file() and path.name != "swords-build.json"
    }
    assert manifest["files"] == on_disk
    assert (
        "README.md" in on_disk
        and "data/swords/test.parquet" in on_disk
        and "data/swords/test.references.json.gz" in on_disk
    )


@pytest.mark.parametrize(
    "change",
    [
        "added file",
        "added folder",
        "edited parquet",
        "edited card",
        "symlinked file",
        "symlinked data",
        "foreign manifest",
        "manifest as a pipe",
    ],
)
def test_a_built_folder_the_user_changed_is_refused_naming_the_change(rebuilt, tmp_path, nltk35_path, change):
    output = tmp_path / "built"
    shutil.copytree(rebuilt, output)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "precious.parquet").write_bytes(b"PAR1 mine")
    named = {
        "added file": output / "data" / "swords" / "my-predictions.jsonl",
        "added folder": output / "data" / "mine",
        "edited parquet": output / "data" / "coinco" / "dev.parquet",
        "edited card": output / "README.md",
        "symlinked file": output / "data" / "swords" / "extra.parquet",
        "symlinked data": output / "data",
        "foreign manifest": output / "swords-build.json",
        "manifest as a pipe": output / "swords-build.json",
    }[change]
    if change == "added file":
        named.write_text('{"id": "t:1", "substitutes": ["x"]}\n')
    elif change == "added folder":
        named.mkdir()
    elif change.startswith("edited"):
        with open(named, "ab") as f:
            f.write(b"\n")
    elif change == "symlinked file":
        named.symlink_to(outside / "precious.parquet")
    elif change == "symlinked data":
        shutil.rmtree(named)
        named.symlink_to(outside)
    elif change == "foreign manifest":
        named.write_text(json.dumps({"files": {}}))
    else:
        named.unlink()
        os.mkfifo(named)
    before = contents(output) if change != "manifest as a pipe" else None
    result, seconds = timed_build(output, "--nltk35", str(nltk35_path))
    line = one_line(result)
    assert f": {named} was not written by `swords data build`" in line, line
    assert seconds < BEFORE_WORK_SECONDS, seconds
    if before is not None:
        assert contents(output) == before
    assert contents(outside) == {"precious.parquet": b"PAR1 mine"}


def test_a_second_build_into_the_same_folder_is_refused_at_once(tmp_path, nltk35_path):
    output = tmp_path / "busy"
    output.mkdir()
    held = os.open(output, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)  # as a build at work holds it
        result, seconds = timed_build(output, "--nltk35", str(nltk35_path))
    finally:
        os.close(held)
    assert one_line(result) == (
        f"swords: error: --output {output}: another `swords data build` is writing this folder; wait for it to finish"
    )
    assert seconds < BEFORE_WORK_SECONDS and list(output.iterdir()) == []


@pytest.mark.slow  # 7 s on two cores
def test_what_would_stop_the_build_is_refused_before_any_work(tmp_path, sources_copy, nltk35_path):
    """No nltk 3.5, another nltk, a corrupted source, an output that cannot be a folder: each one line within
    seconds, in little memory (it took 18 s and 670 MB to say nltk 3.5 was missing), and nothing written."""
    output = tmp_path / "out"
    other_nltk = tmp_path / "nltk38"
    (other_nltk / "nltk").mkdir(parents=True)
    (other_nltk / "nltk" / "__init__.py").write_text("")
    (other_nltk / "nltk" / "VERSION").write_text("3.8.1\n")
    with open(sources_copy / "semeval07" / "lst_test.gold", "a") as f:
        f.write("tampered\n")
    a_file = tmp_path / "a-file"
    a_file.write_text("mine\n")
    cases = [
        (["--nltk35", ""], {"SWORDS_NLTK35_PATH": ""}, "upstream's SemEval-2007 trial ids need nltk 3.5"),
        (["--nltk35", str(other_nltk)], {}, f"{other_nltk} holds nltk 3.8.1, not 3.5"),
        (["--nltk35", str(nltk35_path), "--sources", str(sources_copy)], {}, "corrupted source"),
    ]
    for options, env, expected in cases:
        result, seconds = timed_build(output, *options, env=env)
        assert expected in one_line(result), result.stderr
        assert seconds < BEFORE_WORK_SECONDS, (options, seconds)
        assert not output.exists()
    for where, expected in (
        (a_file, f"{a_file} is a file, not a folder"),
        (a_file / "sub", f"{a_file} is a file"),
        (Path("/dev/shm/swords-build"), "cannot go under /dev"),
    ):
        result, seconds = timed_build(where, "--nltk35", str(nltk35_path))
        assert expected in one_line(result) and seconds < BEFORE_WORK_SECONDS
    assert a_file.read_text() == "mine\n" and not Path("/dev/shm/swords-build").exists()


def test_refusals_cost_little_memory(tmp_path):
    """The process that refuses a missing nltk 3.5 peaks far below the build's reading (670 MB)."""
    code = (
        "import resource, subprocess, sys; p = subprocess.run([sys.executable, '-m', 'swords_lexsub.cli', "
        "'data', 'build', '--output', sys.argv[1], '--nltk35', '']); "
        "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO_ROOT,
        env={**os.environ, "SWORDS_NLTK35_PATH": ""},
    )
    status, peak = map(int, done.stdout.split())
    assert status == 2 and peak < BEFORE_WORK_MB, (status, peak)


def test_a_build_killed_halfway_leaves_a_folder_the_next_build_takes(rebuilt, sources_dir, nltk35_path, tmp_path):
    """kill -9 while the build writes its scratch folder: the dataset is as it was; the next build recognises
    the folder as its own, removes the killed build's scratch folder and leaves the user's other files alone."""
    output = tmp_path / "built"
    shutil.copytree(rebuilt, output)
    (output / "notes.txt").write_text("beside the dataset, not in it\n")
    before = contents(output)
    command = [
        sys.executable,
        "-m",
        "swords_lexsub.cli",
        "data",
        "build",
        "--sources",
        str(sources_dir),
        "--output",
        str(output),
        "--nltk35",
        str(nltk35_path),
    ]
    process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    scratch = []
    while not scratch and process.poll() is None and time.monotonic() < deadline:
        scratch = [p for p in output.iterdir() if p.name.startswith(".swords-build-")]
        time.sleep(0.05)
    assert scratch, "the build never made its scratch folder"
    os.kill(process.pid, signal.SIGKILL)
    process.wait(30)
    assert any(p.name.startswith(".swords-build-") for p in output.iterdir())  # left behind by the kill
    after_kill = {k: v for k, v in contents(output).items() if not k.startswith(".swords-build-")}
    assert after_kill == before
    result = run_swords(
        "data", "build", "--sources", str(sources_dir), "--output", str(output), "--nltk35", str(nltk35_path)
    )
    assert result.returncode == 0, result.stderr
    assert contents(output) == before  # byte-identical rebuild; notes.txt untouched; no scratch left


@pytest.mark.slow
def test_a_file_size_limit_too_small_for_the_build_is_one_line_and_leaves_nothing(sources_dir, nltk35_path, tmp_path):
    """ulimit -f 200 kB, below the larger Parquet files: refused before any work (SIGXFSZ ignored, as Python)."""

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))

    output = tmp_path / "built"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "swords_lexsub.cli",
            "data",
            "build",
            "--sources",
            str(sources_dir),
            "--output",
            str(output),
            "--nltk35",
            str(nltk35_path),
        ],
        preexec_fn=limited,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO_ROOT,
    )
    # checked before any work, so the limit is named with the largest file the build writes
    assert re.fullmatch(
        rf"swords: error: --output {re.escape(str(output))}: the file-size limit \(ulimit -f\) is "
        r"200,000 bytes, and files of up to [\d,]+ bytes are to be written; nothing was changed",
        one_line(result),
    ), one_line(result)
    assert not output.exists()
