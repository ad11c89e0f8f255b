"""`swords hub export DIR` against a user's special files, read-only parts, a forged manifest, a full disk and a
file-size limit: each refused in one line before anything is moved, and an earlier export left exactly as it was.
Run as a user runs it: real FIFOs, sockets, devices, permissions (under capsh, as root cannot be refused them), a
real small file system and a real RLIMIT_FSIZE. Hostile wheels: test_hub_wheel.py."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import signal
import socket
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from swords_dataset import __version__
from swords_lexsub.hub.export import MANIFEST

from ..conftest import REPO_ROOT, run_swords, run_swords_unprivileged


def one_line(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and "Traceback" not in result.stderr, result.stderr[-3000:]
    return lines[0]


def snapshot(folder: Path) -> dict[str, tuple[int, str]]:
    """Every entry under `folder`: its file type and, for a regular file, its sha256."""
    found = {}
    for path in sorted(folder.rglob("*")):
        mode = path.lstat().st_mode
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if stat.S_ISREG(mode) else ""
        found[path.relative_to(folder).as_posix()] = (stat.S_IFMT(mode), digest)
    return found


@pytest.fixture
def earlier(hub_export, tmp_path) -> Path:
    """A copy of an earlier export, to spoil."""
    target = tmp_path / "export"
    shutil.copytree(hub_export, target, symlinks=True)
    return target


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_socket(path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as server:  # a relative name: the full path may pass the 108-byte limit
        cwd = os.getcwd()
        os.chdir(path.parent)
        try:
            server.bind(path.name)
        finally:
            os.chdir(cwd)


def make_device(path: Path) -> None:
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's numbers
    except PermissionError:
        pytest.skip("cannot make a device node here (no CAP_MKNOD)")


@pytest.mark.parametrize(
    ("relative", "make", "kind"),
    [
        ("metric/mine", make_fifo, "a FIFO"),
        ("space/app.py", make_fifo, "a FIFO"),  # at one of the names the export lists
        ("dataset/data/swords/sock", make_socket, "a socket"),
        ("metric/requirements.txt", make_device, "a character device"),
        (MANIFEST, make_fifo, "a FIFO"),
    ],
)
def test_a_fifo_socket_or_device_in_an_earlier_export_is_refused_and_kept(earlier, relative, make, kind):
    (earlier / relative).unlink(missing_ok=True)
    make(earlier / relative)
    before = snapshot(earlier)
    line = one_line(run_swords("hub", "export", str(earlier)))
    assert f"{earlier / relative} is {kind}, not a file or folder `swords hub export` writes" in line
    assert snapshot(earlier) == before  # the special file is there, and nothing else moved


@pytest.mark.parametrize("relative", ["metric", "dataset/data/swords"])
def test_a_read_only_part_of_an_earlier_export_is_refused_before_anything_moves(earlier, relative):
    """A read-only repository folder (the swap cannot move it) or sub-folder (the old copy cannot be removed):
    refused naming it; the earlier export is whole and nothing is left behind. Writable again, it is replaced."""
    before = snapshot(earlier)
    (earlier / relative).chmod(0o555)
    try:
        line = one_line(run_swords_unprivileged("hub", "export", str(earlier)))
        assert line == (
            f"swords: error: {earlier}: {earlier / relative} is not writable, and an export replaces it "
            "whole; make it writable (chmod -R u+rwX) or export elsewhere"
        )
        assert snapshot(earlier) == before
    finally:
        (earlier / relative).chmod(0o755)
    done = run_swords_unprivileged("hub", "export", str(earlier))
    assert done.returncode == 0, done.stderr
    assert snapshot(earlier) == before  # the same release: the same files, and no scratch folder left


def test_an_unreadable_file_or_read_only_folder_is_one_line(earlier):
    parquet = earlier / "dataset" / "data" / "swords" / "test.parquet"
    before = snapshot(earlier)
    parquet.chmod(0o000)
    try:
        line = one_line(run_swords_unprivileged("hub", "export", str(earlier)))
        assert line == (
            f"swords: error: {earlier}: {parquet} cannot be read (Permission denied), so it cannot be "
            "recognised as the export's; make it readable or export elsewhere"
        )
    finally:
        parquet.chmod(0o644)
    earlier.chmod(0o555)
    try:
        line = one_line(run_swords_unprivileged("hub", "export", str(earlier)))
        assert line == f"swords: error: {earlier}: the folder is not writable; an export writes in it"
    finally:
        earlier.chmod(0o755)
    assert snapshot(earlier) == before


KILLED_EXPORT = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from swords_dataset import __version__
    from swords_lexsub.hub.repos import HubRepo, Release, hub_repos
    from swords_lexsub.hub.export import export

    def killed(folder, release):  # kill -9 once the dataset repository is written in the scratch folder
        os.kill(os.getpid(), signal.SIGKILL)

    repos = hub_repos()
    repos.insert(1, HubRepo("killed", "dataset", "killed", killed))
    export(Path(sys.argv[1]), Release(__version__), repos)
    """
)


@pytest.mark.slow  # 4.5 s on two cores (the quick lane, 2026-11-28)
def test_a_killed_export_s_scratch_folder_that_cannot_be_removed_is_named_as_the_export_s(earlier):
    """A scratch folder a killed export left, with a read-only sub-folder: the next export says it is its own
    scratch folder and what stops its removal, instead of blaming it on the user; writable, it goes."""
    before = snapshot(earlier)
    killed = subprocess.run([sys.executable, "-c", KILLED_EXPORT, str(earlier)], capture_output=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    (scratch,) = earlier.glob(".swords-hub-export-*")
    (scratch / "dataset" / "data" / "swords").chmod(0o555)
    try:
        line = one_line(run_swords_unprivileged("hub", "export", str(earlier)))
        assert line.startswith(
            f"swords: error: {scratch}: the scratch folder of `swords hub export` cannot be "
            f"removed ({scratch / 'dataset' / 'data' / 'swords'}/"
        )
        assert line.endswith(": Permission denied); make it writable (chmod -R u+rwX) or remove it")
        assert scratch.is_dir()
    finally:
        (scratch / "dataset" / "data" / "swords").chmod(0o755)
    done = run_swords_unprivileged("hub", "export", str(earlier))
    assert done.returncode == 0, done.stderr
    assert snapshot(earlier) == before


@pytest.mark.parametrize("key", ["/etc/passwd", "../outside/x", "", "dataset/../../x", "dataset"])
@pytest.mark.parametrize("section", ["files", "previous"])
@pytest.mark.slow  # 7 s on two cores
def test_a_forged_manifest_path_is_refused_naming_the_manifest_and_the_key(earlier, key, section):
    manifest = json.loads((earlier / MANIFEST).read_text())
    manifest.setdefault(section, {})[key] = ["0" * 64]
    (earlier / MANIFEST).write_text(json.dumps(manifest))
    before = snapshot(earlier)
    for _ in range(2):  # the manifest is not rewritten: every later export says the same
        line = one_line(run_swords("hub", "export", str(earlier)))
        assert line.startswith(f"swords: error: {earlier / MANIFEST}: the path {key!r} in {section!r} is ")
        assert snapshot(earlier) == before


def test_a_folder_that_cannot_be_moved_halfway_through_the_swap_puts_the_earlier_ones_back(earlier, tmp_path):
    """`space/` is a mount point (a real tmpfs holding its files): renaming it fails (EBUSY) after `dataset/` and
    `metric/` were moved aside, and they are moved back."""
    space = earlier / "space"
    files = tmp_path / "space-files"
    shutil.move(space, files)
    space.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,mode=755", "tmpfs", str(space)]).returncode != 0:
        pytest.skip("cannot mount a file system here")
    try:
        for path in files.iterdir():
            shutil.copy2(path, space / path.name)
        before = snapshot(earlier)
        line = one_line(run_swords("hub", "export", str(earlier)))
        assert line == (
            f"swords: error: {earlier}: cannot move {space} aside to replace it (Device or resource "
            "busy); nothing was changed"
        )
        assert snapshot(earlier) == before  # dataset/ and metric/ back, the manifest as it was, no scratch folder
    finally:
        subprocess.run(["umount", "-l", str(space)])


def test_a_full_disk_is_one_line_and_leaves_nothing(small_disk):
    line = one_line(run_swords("hub", "export", str(small_disk / "out")))
    assert line.startswith(f"swords: error: {small_disk / 'out'}: cannot write dataset/")
    assert line.endswith("(No space left on device); nothing was changed")
    assert list(small_disk.iterdir()) == []


def test_a_disk_that_fills_during_a_re_export_leaves_the_earlier_export(small_disk):
    subprocess.run(["mount", "-o", "remount,size=8m", str(small_disk)], check=True)  # room for one export (3.4 MB)
    target = small_disk / "export"
    assert run_swords("hub", "export", str(target)).returncode == 0
    before = snapshot(target)
    with open(small_disk / "filler", "wb") as filler:  # the user's file, filling the rest of the disk
        try:
            while True:
                filler.write(bytes(2**16))
                filler.flush()
        except OSError:
            pass
    line = one_line(run_swords("hub", "export", str(target)))
    assert line.startswith(f"swords: error: {target}: cannot write ")  # the first file it writes
    assert line.endswith("(No space left on device); nothing was changed")
    assert snapshot(target) == before and sorted(p.name for p in small_disk.iterdir()) == ["export", "filler"]


def test_a_file_size_limit_is_one_line_and_leaves_the_earlier_export(earlier):
    """ulimit -f 200 kB: the kernel refuses the larger Parquet files (EFBIG; SIGXFSZ ignored, as Python does)."""

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))

    before = snapshot(earlier)
    result = subprocess.run(
        [sys.executable, "-m", "swords_lexsub.cli", "hub", "export", str(earlier)],
        preexec_fn=limited,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO_ROOT,
    )
    line = one_line(result)
    assert line.startswith(f"swords: error: {earlier}: cannot write dataset/data/")
    assert line.endswith(".parquet (File too large); nothing was changed")
    assert snapshot(earlier) == before


def test_a_link_to_a_folder_is_refused_as_a_link(hub_export, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(hub_export)
    assert one_line(run_swords("hub", "export", str(link))) == (
        f"swords: error: {link}: a symbolic link (to {hub_export}); export into the folder itself, not a link to it"
    )


def test_escape_sequences_and_newlines_in_dir_are_shown_escaped(tmp_path):
    target = tmp_path / "out\x1b[31mred\nline"
    result = run_swords("hub", "export", str(target))
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout  # and no line is cut in two: each is a repository, a file or the last
    assert all(line.startswith(("dataset ", "space ", "  ", "exported ")) for line in result.stdout.splitlines())
    assert f"space {tmp_path}/out\\x1b[31mred\\nline/metric: " in result.stdout
    assert result.stdout.splitlines()[-1] == (
        f"exported 3 repositories of swords-lexsub {__version__} to {tmp_path}/out\\x1b[31mred\\nline"
    )
    assert (target / MANIFEST).is_file()


def test_an_empty_dir_or_wheel_is_refused(tmp_path):
    assert one_line(run_swords("hub", "export", "", cwd=tmp_path)).startswith(
        "swords hub export: error: argument DIR: empty; name a folder"
    )
    assert one_line(run_swords("hub", "export", str(tmp_path / "out"), "--wheel", "", cwd=tmp_path)).startswith(
        "swords hub export: error: argument --wheel: empty; name a wheel file"
    )
    assert list(tmp_path.iterdir()) == []
