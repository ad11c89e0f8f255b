"""What `swords data build` needs of the machine, checked before any work: a built folder whose data/ (or a folder
in it) is read-only, too little room on the device, a file-size limit (`ulimit -f`), a source that is a FIFO, a
folder or a link to a device. And when the disk fills or the limit is met while it writes: one line, nothing
changed. Real folders, real permissions (root's override dropped with capsh), a real full disk, a real limit."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time

import pytest

from swords_dataset.builder.sources import BUILD_SOURCES

from ..conftest import REPO_ROOT
from .test_build_faults import BEFORE_WORK_SECONDS, contents, one_line, timed_build

DROP_OVERRIDE = ["capsh", "--drop=cap_dac_override,cap_dac_read_search,cap_fowner", "--", "-c"]


def shipped_dataset_bytes() -> tuple[int, int]:
    """(all, largest) bytes of the dataset folder as shipped: data/ and the card."""
    from swords_dataset import DATASET_DIR

    sizes = [p.stat().st_size for p in (DATASET_DIR / "data").rglob("*") if p.is_file()]
    sizes.append((DATASET_DIR / "README.md").stat().st_size)
    return sum(sizes), max(sizes)


def timed_capsh(command: str) -> tuple[subprocess.CompletedProcess, float]:
    started = time.monotonic()
    done = subprocess.run([*DROP_OVERRIDE, command], capture_output=True, text=True, timeout=300, cwd=REPO_ROOT)
    return done, time.monotonic() - started


@pytest.mark.parametrize("read_only", ["data", "data/coinco"])
def test_a_rebuild_into_a_read_only_data_folder_is_refused_before_any_work(rebuilt, tmp_path, nltk35_path, read_only):
    """It failed after 38 s of work with a traceback, when it moved the previous data/ aside."""
    if shutil.which("capsh") is None:
        pytest.skip("capsh is not installed (apt-get install libcap2-bin)")
    output = tmp_path / "built"
    shutil.copytree(rebuilt, output)
    (output / read_only).chmod(0o555)
    before = contents(output)
    command = f"exec {sys.executable} -m swords_lexsub.cli data build --output {output} --nltk35 {nltk35_path}"
    try:
        result, seconds = timed_capsh(command)
    finally:
        (output / read_only).chmod(0o755)
    assert one_line(result) == (
        f"swords: error: --output {output}: {output / read_only} cannot be written (Permission "
        "denied); a rebuild replaces it: make it writable, or build into a new folder"
    )
    assert seconds < BEFORE_WORK_SECONDS and contents(output) == before


def test_a_disk_without_room_for_the_dataset_is_refused_before_any_work(small_disk, nltk35_path):
    """16 kB free where the dataset takes 7 MB: said at once (it took 20 s of work to find out)."""
    output = small_disk / "dataset"
    stats = os.statvfs(small_disk)
    result, seconds = timed_build(output, "--nltk35", str(nltk35_path))
    needed, _ = shipped_dataset_bytes()
    assert one_line(result) == (
        f"swords: error: --output {output}: no space left on the device for it "
        f"({stats.f_bavail * stats.f_frsize:,} bytes free, {needed:,} needed); nothing was "
        "changed"
    )
    assert seconds < BEFORE_WORK_SECONDS and not output.exists()


def test_a_file_size_limit_below_the_largest_file_is_refused_before_any_work(tmp_path, nltk35_path):
    """`ulimit -f 100` (102,400 bytes) where the largest file the build writes is 2 MB."""
    output = tmp_path / "dataset"
    _, largest = shipped_dataset_bytes()

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (102_400, resource.RLIM_INFINITY))

    command = [
        sys.executable,
        "-m",
        "swords_lexsub.cli",
        "data",
        "build",
        "--output",
        str(output),
        "--nltk35",
        str(nltk35_path),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=REPO_ROOT, preexec_fn=limited)
    assert one_line(done) == (
        f"swords: error: --output {output}: the file-size limit (ulimit -f) is 102,400 bytes, "
        f"and files of up to {largest:,} bytes are to be written; nothing was changed"
    )
    assert not output.exists()


# The build's writing, run on the rows it would write (the shipped ones), in a process of its own: what happens
# when the disk fills or the file-size limit is met while it writes, past the checks made before any work.
WRITE = """
import resource, sys
from pathlib import Path
import swords_dataset
from swords_dataset.builder.pipeline import write_into
from swords_dataset.builder.folder import BuildFolder
from swords_dataset.builder.sources import BUILD_SOURCES
output, sources, limit = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
rows = {c: {s: swords_dataset.rows(c, s) for s in splits} for c, splits in swords_dataset.CONFIGS.items()}
paths = {relative: sources / relative for relative in BUILD_SOURCES}
if limit:
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
try:
    with BuildFolder(output) as folder:
        write_into(folder, rows, paths)
except swords_dataset.SwordsError as error:
    print(error)
"""


@pytest.mark.parametrize("fault", ["full disk", "file-size limit"])
@pytest.mark.slow  # 11 s on two cores
def test_a_disk_that_fills_while_the_build_writes_changes_nothing(small_disk, tmp_path, sources_dir, fault):
    if fault == "full disk":
        output, limit = small_disk / "dataset", 0
        reason = "no space left on the device (No space left on device)"
    else:
        output, limit = tmp_path / "dataset", 102_400
        reason = "larger than the file-size limit allows (ulimit -f: 102,400 bytes)"
    done = subprocess.run(
        [sys.executable, "-c", WRITE, str(output), str(sources_dir), str(limit)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO_ROOT,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.stdout == f"--output {output}: cannot write the dataset: {reason}; nothing was changed\n"
    assert not output.exists()  # the build made it; it leaves nothing, its scratch folder included


@pytest.mark.parametrize("kind", ["FIFO", "folder", "link to /dev/zero"])
@pytest.mark.slow  # 4 s on two cores
def test_a_source_that_is_not_a_regular_file_is_named_as_such(sources_copy, tmp_path, nltk35_path, kind):
    """It was "missing"; a FIFO must be named, never waited on."""
    relative = "semeval07/lst_test.gold"
    source = sources_copy / relative
    source.unlink()
    if kind == "FIFO":
        os.mkfifo(source)
        said = "a FIFO"
    elif kind == "folder":
        source.mkdir()
        said = "a folder"
    else:
        source.symlink_to("/dev/zero")
        said = "a character device (a symbolic link to /dev/zero)"
    output = tmp_path / "out"
    result, seconds = timed_build(output, "--nltk35", str(nltk35_path), "--sources", str(sources_copy))
    assert one_line(result) == (
        f"swords: error: source {source} is {said}, not a regular file (expected sha256 {BUILD_SOURCES[relative]})"
    )
    assert seconds < BEFORE_WORK_SECONDS and not output.exists()
