"""A local model's judge id is its file's content: the digest kept for a path is used only while the file's stamp
(device, inode, size, modification and status-change times) stays; a file rewritten with its size and modification
time kept (`cp -p`, a write then `os.utime`, a restore renamed into place) is hashed again. Real files, real `cp`."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time

import pytest

from swords_baselines.judge import model_file
from swords_baselines.judge.model_file import content_sha256

TICK = 0.05  # s: longer than a file clock's step on the file systems tests run on (ext4, tmpfs: a few ms)


@pytest.fixture
def settle_fast(monkeypatch):
    """Digests kept for a file changed more than TICK before it was hashed (2 s by default: FAT's clock)."""
    monkeypatch.setattr(model_file, "SETTLE_NS", int(TICK * 1e9))


def gguf_shaped(last: int, size: int = 4096) -> bytes:
    """A file that starts as a GGUF file does (magic, version 3), of `size` bytes, its last byte `last`."""
    return b"GGUF" + (3).to_bytes(4, "little") + bytes(size - 9) + bytes([last])


def sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_model_s_digest_is_kept_while_its_stamp_stays_and_made_again_when_it_changes(tmp_path, settle_fast):
    model, kept = tmp_path / "m.gguf", tmp_path / "digests"
    model.write_bytes(gguf_shaped(0))
    time.sleep(2 * TICK)
    assert content_sha256(model, kept) == sha256(model)
    (entry,) = kept.iterdir()
    stamp = json.loads(entry.read_text())
    assert {"device", "inode", "size", "mtime_ns", "ctime_ns"} <= set(stamp)
    entry.write_text(json.dumps({**stamp, "sha256": "0" * 64}))  # a digest kept for this very file ...
    assert content_sha256(model, kept) == "0" * 64  # ... is used, not made again
    model.write_bytes(gguf_shaped(1, 4097))
    assert content_sha256(model, kept) == sha256(model)


def in_place_with_cp_p(other, model) -> None:
    subprocess.run(["cp", "-p", str(other), str(model)], check=True)  # the same inode, the other's times


def in_place_then_utime(other, model) -> None:
    times = os.stat(model)
    with open(model, "r+b") as f:
        f.write(other.read_bytes())
    os.utime(model, ns=(times.st_atime_ns, times.st_mtime_ns))


def restored_into_place(other, model) -> None:  # as rsync -a and most restores do: a new file renamed over it
    staged = model.with_name(model.name + ".restoring")
    shutil.copy2(other, staged)
    os.replace(staged, model)


@pytest.mark.parametrize("rewrite", [in_place_with_cp_p, in_place_then_utime, restored_into_place])
def test_a_model_file_rewritten_with_its_size_and_mtime_kept_is_hashed_again(tmp_path, settle_fast, rewrite):
    model, other, kept = tmp_path / "m.gguf", tmp_path / "other.gguf", tmp_path / "digests"
    model.write_bytes(gguf_shaped(0))
    other.write_bytes(gguf_shaped(1))  # another model of the same size ...
    before = os.stat(model)
    os.utime(other, ns=(before.st_atime_ns, before.st_mtime_ns))  # ... and the same modification time
    time.sleep(2 * TICK)
    first = content_sha256(model, kept)
    assert first == sha256(model) and len(list(kept.iterdir())) == 1  # kept
    time.sleep(2 * TICK)
    rewrite(other, model)
    after = os.stat(model)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)  # what the old stamp held
    assert content_sha256(model, kept) == sha256(other) != first


def test_a_file_changed_just_before_it_is_hashed_keeps_no_digest(tmp_path):
    """With the default settling time: a file whose clock may not have ticked since its last change is hashed again
    next time (a rewrite within that tick would leave its stamp as it was)."""
    model, kept = tmp_path / "m.gguf", tmp_path / "digests"
    model.write_bytes(gguf_shaped(0))
    assert content_sha256(model, kept) == sha256(model)
    assert not kept.exists() or not list(kept.iterdir())


@pytest.mark.slow  # 4 s on two cores: two copies of the shipped 98 MB model, each hashed
def test_the_shipped_model_replaced_by_cp_p_is_another_judge(tmp_path, monkeypatch, settle_fast):
    """The issue's case with the shipped SmolLM2 GGUF: a copy of it judged once, then overwritten by `cp -p` with
    a look-alike of its size and modification time (one byte of its last tensor changed)."""
    from swords_baselines.judge.llm import JudgeSettings, LLMJudge
    from swords_baselines.llm.engine import model_path, unavailable_reason

    if unavailable_reason():
        pytest.skip(f"the local engine cannot run here: {unavailable_reason()}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    shipped = model_path()
    model, other = tmp_path / "model.gguf", tmp_path / "other.gguf"
    shutil.copy2(shipped, model)
    data = bytearray(shipped.read_bytes())
    data[-1] ^= 0xFF
    other.write_bytes(data)
    times = os.stat(model)
    os.utime(other, ns=(times.st_atime_ns, times.st_mtime_ns))
    time.sleep(2 * TICK)
    before = LLMJudge(JudgeSettings(local=True, model=str(model)))
    assert before.judge.startswith(f"llm:smollm2-135m@{sha256(shipped)[:12]}:")  # the shipped model's bytes
    time.sleep(2 * TICK)
    subprocess.run(["cp", "-p", str(other), str(model)], check=True)
    after = LLMJudge(JudgeSettings(local=True, model=str(model)))
    assert after.judge.startswith(f"llm:model@{sha256(other)[:12]}:") and after.server != before.server
