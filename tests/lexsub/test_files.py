"""The atomic write's temporary files: one left by a writer killed with kill -9 is removed by the next write of
the same file; one a live writer holds, and files that only look alike, are left alone."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from swords_lexsub.files import atomic_write, remove_stale_temporaries
from swords_lexsub.terminal import shown

# A writer that streams into `path` through atomic_writer and never finishes (until killed).
WRITER = """
import sys, time
from swords_lexsub.files import atomic_writer
with atomic_writer(sys.argv[1]) as f:
    f.write(b"partial " * 1000)
    f.flush()
    print("writing", flush=True)
    time.sleep(600)
"""


def start_writer(path: Path) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "writing"
    return process


def temporaries(folder: Path, name: str) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.startswith(f".{name}.") and p.name.endswith(".tmp"))


def test_a_killed_writers_temporary_file_is_removed_by_the_next_write(tmp_path):
    target = tmp_path / "details.csv"
    writer = start_writer(target)
    writer.send_signal(signal.SIGKILL)
    writer.wait(10)
    (left,) = temporaries(tmp_path, "details.csv")  # kill -9: nothing could clean it
    assert left.stat().st_size == 8000
    atomic_write(target, b"done")
    assert target.read_bytes() == b"done"
    assert temporaries(tmp_path, "details.csv") == []


def test_a_live_writers_temporary_file_and_look_alikes_are_left(tmp_path):
    target = tmp_path / "details.csv"
    writer = start_writer(target)
    try:
        (live,) = temporaries(tmp_path, "details.csv")
        user_files = [
            tmp_path / ".details.csv.backup.tmp",  # the user's: not our name
            tmp_path / ".details.csv.swords-TOOLONG12.tmp",  # not mkstemp's eight characters
        ]
        for path in user_files:
            path.write_text("mine")
        (tmp_path / ".details.csv.swords-abcd1234.tmp").symlink_to(tmp_path / "elsewhere")  # a link is not ours
        assert remove_stale_temporaries(target) == []
        assert live.exists() and all(path.read_text() == "mine" for path in user_files)
        assert (tmp_path / ".details.csv.swords-abcd1234.tmp").is_symlink()
    finally:
        writer.kill()
        writer.wait(10)
    assert remove_stale_temporaries(target) == [live]  # its writer gone, it is stale


def test_control_characters_are_shown_escaped_on_one_line():
    assert shown("caf\u00e9 \u0434\u043e\u043c C:\\path") == "caf\u00e9 \u0434\u043e\u043c C:\\path"
    assert shown("a\x1b[2Jb\rc\nd\u202ee\ud800") == "a\\x1b[2Jb\\rc\\nd\\u202ee\\ud800"


def test_an_error_line_naming_a_file_with_control_characters_is_one_escaped_line(tmp_path):
    from ..conftest import run_swords

    name = tmp_path / "x\x1b[31mred\rz\n.jsonl"
    result = run_swords("evaluate", "--dataset", "swords", "--split", "test", "--predictions", str(name))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "\x1b" not in result.stderr and "\r" not in result.stderr
    assert "x\\x1b[31mred\\rz\\n.jsonl" in result.stderr
