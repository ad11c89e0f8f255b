"""What llama.cpp's server accepts, checked before it starts (it answers each with the same "Failed to init server",
some after allocating gigabytes): a free port, slots, context and threads in range, and a KV cache that fits in
memory. Light to import: `swords llm serve`'s parser takes its bounds from here."""

from __future__ import annotations

import errno
import socket
from contextlib import suppress
from pathlib import Path

from swords_baselines.llm.gguf_file import GGUFHeader
from swords_lexsub.arguments import PORT_RANGE
from swords_lexsub.errors import SwordsError

MAX_SLOTS = 256  # LLAMA_MAX_SEQ: llama.cpp keeps at most 256 sequences (slots) in one context
MIN_CONTEXT = 64  # tokens a slot: below this not even a short prompt fits
MAX_THREADS = 512  # GGML_MAX_N_THREADS
MAX_TOTAL_CONTEXT = 2**31 - 1  # llama.cpp's n_ctx is an int32
FLAGS = {"port": "--port", "parallel": "--parallel", "context": "--context", "threads": "--threads"}


def check_settings(port: int, parallel: int, context: int, threads: int | None, flags: dict[str, str]) -> None:
    """The ranges that do not depend on the model (port 0: a free one, llama.cpp's choice)."""
    if not (port == 0 or PORT_RANGE[0] <= port <= PORT_RANGE[1]):
        raise SwordsError(
            f"port {port} is not a port number ({PORT_RANGE[0]} to {PORT_RANGE[1]})",
            hint=f"choose another {flags['port']}",
        )
    if not 1 <= parallel <= MAX_SLOTS:
        raise SwordsError(
            f"{parallel} slots: llama.cpp decodes 1 to {MAX_SLOTS} requests at once",
            hint=f"set {flags['parallel']} from 1 to {MAX_SLOTS}",
        )
    if context < MIN_CONTEXT:
        raise SwordsError(
            f"a context of {context} tokens a slot is too small for a prompt (at least {MIN_CONTEXT})",
            hint=f"raise {flags['context']}",
        )
    if threads is not None and not 1 <= threads <= MAX_THREADS:
        raise SwordsError(
            f"{threads} threads: llama.cpp runs 1 to {MAX_THREADS}",
            hint=f"set {flags['threads']} from 1 to {MAX_THREADS}",
        )


def check_fits(header: GGUFHeader, parallel: int, context: int, flags: dict[str, str]) -> None:
    """The model's own limits: its trained context, and its KV cache for every slot in the memory there is (sized
    from our header walk, not xllamacpp.memory's, which reads every array into numpy)."""
    name = header.path.name
    trained = header.context_length
    if trained is not None and context > trained:
        raise SwordsError(
            f"a context of {context:,} tokens a slot is more than {name} was trained for: {trained:,} tokens",
            hint=f"set {flags['context']} to at most {trained}",
        )
    if context * parallel > MAX_TOTAL_CONTEXT:
        raise SwordsError(
            f"{parallel} slots of {context:,} tokens are more than llama.cpp holds in one context "
            f"({MAX_TOTAL_CONTEXT:,} tokens)",
            hint=f"lower {flags['parallel']} or {flags['context']}",
        )
    per_token, available = header.kv_bytes_per_token(), available_memory()
    if per_token is None or available is None:
        return
    cache = per_token * context * parallel
    if cache + header.file_size > available:
        slots = f"{parallel} slot{'s' * (parallel > 1)}"
        raise SwordsError(
            f"{slots} of {context:,} tokens need about {_size(cache)} of KV cache for {name} (plus "
            f"{_size(header.file_size)} for the model), more than the {_size(available)} of memory available",
            hint=f"lower {flags['parallel']} or {flags['context']}",
        )


def check_port(port: int, flag: str = "--port") -> None:
    """Port `port` on 127.0.0.1 is free to listen on, or a SwordsError saying why not."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        # As llama.cpp's own listener does: a port whose last connections linger in TIME_WAIT is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise SwordsError(
                    f"port {port} on 127.0.0.1 is already in use by another program", hint=f"choose another {flag}"
                ) from None
            if error.errno == errno.EACCES:
                raise SwordsError(
                    f"port {port} on 127.0.0.1 needs privileges this user does not have",
                    hint=f"choose a {flag} from 1024 up",
                ) from None
            raise SwordsError(
                f"cannot listen on 127.0.0.1:{port}: {error.strerror or error}", hint=f"choose another {flag}"
            ) from None


def available_memory() -> int | None:
    """Bytes a new allocation can get: /proc/meminfo's MemAvailable, or less under a cgroup's limit; else None."""
    figures = [_meminfo_available()]
    for limit, usage in (
        ("memory.max", "memory.current"),  # cgroup v2
        ("memory/memory.limit_in_bytes", "memory/memory.usage_in_bytes"),
    ):  # cgroup v1
        cap, used = _number(Path("/sys/fs/cgroup", limit)), _number(Path("/sys/fs/cgroup", usage))
        if cap is not None and used is not None and cap < 2**60:  # "max" or a huge number: no limit
            figures.append(max(0, cap - used))
    known = [figure for figure in figures if figure is not None]
    return min(known) if known else None


def _meminfo_available() -> int | None:
    with suppress(OSError, ValueError, IndexError), open("/proc/meminfo", encoding="ascii") as meminfo:
        for line in meminfo:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return None


def _number(path: Path) -> int | None:
    try:
        return int(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None


def _size(count: int) -> str:
    for unit, scale in (("TB", 10**12), ("GB", 10**9), ("MB", 10**6)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count / 1000:.0f} kB"
