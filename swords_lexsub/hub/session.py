"""The connection to the Hub (or HF_ENDPOINT's server) while an upload runs. huggingface_hub bounds each read only (a
byte a second holds it forever), retries, logs each retry and reads answers whole; here its client is the bounded one
over the Hub's transport (transport.py), its log silenced (the caller says what failed, once), and the upload runs in
a worker thread waited for until the publish's deadline (bounding retries' sleeps and hf_xet's transfers too)."""

from __future__ import annotations

import importlib
import os
import stat
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from swords_lexsub.bounded_body import MAX_BODY_BYTES
from swords_lexsub.errors import SwordsError
from swords_lexsub.http_client import bounded_client, proxied_transport
from swords_lexsub.hub.transport import HubLimits, refuse, transport_class

T = TypeVar("T")


def _http_module(client: object):
    """httpx or httpx2, whichever huggingface_hub's client is made with (1.x: httpx, 2.x: httpx2)."""
    name = type(client).__module__.split(".")[0]
    if name not in ("httpx", "httpx2"):
        import huggingface_hub

        raise SwordsError(
            f"publishing needs huggingface_hub 1.0 or later (installed: {huggingface_hub.__version__}); "
            "pip install -U huggingface_hub"
        )
    return importlib.import_module(name)


def _agent_registry_guard(constants) -> str | None:
    """huggingface_hub reads its cached agent registry (HF_HOME/.agent_harnesses.json) whole, whatever its size or
    kind (a FIFO blocks it): one not a regular file of at most MAX_BODY_BYTES is left alone, and an unusable path
    given instead, so the registry is fetched (bounded) and kept in memory. The previous path, to restore, or None."""
    path = getattr(constants, "AGENT_HARNESSES_PATH", None)
    try:
        status = os.stat(path) if path else None
    except OSError:
        status = None
    if status is None or (stat.S_ISREG(status.st_mode) and status.st_size <= MAX_BODY_BYTES):
        return None
    constants.AGENT_HARNESSES_PATH = os.path.join(os.devnull, ".agent_harnesses.json")
    return path


@contextmanager
def hub_session(limits: HubLimits) -> Iterator[None]:
    """huggingface_hub's shared client bounded by `limits`, its log lines silenced; restored on leaving."""
    from huggingface_hub import constants, get_session, set_client_factory
    from huggingface_hub.utils import logging as hf_logging

    http = _http_module(get_session())
    transport = transport_class(http)
    verbosity = hf_logging.get_verbosity()
    registry = _agent_registry_guard(constants)
    # Connections are not kept: each request's socket is its own, to be shut at its time (transport.py).
    once = {"limits": http.Limits(max_keepalive_connections=0)}
    set_client_factory(
        lambda: bounded_client(
            http,
            inner=transport(limits, proxied_transport(http, **once)),
            refuse=refuse(limits),
            follow_redirects=True,
            timeout=None,
        )
    )
    hf_logging.set_verbosity(hf_logging.CRITICAL + 10)
    try:
        yield
    finally:
        hf_logging.set_verbosity(verbosity)
        # huggingface_hub's own client again, but for its request hook (a trace id header)
        set_client_factory(lambda: http.Client(follow_redirects=True, timeout=None))
        if registry is not None:
            constants.AGENT_HARNESSES_PATH = registry


def within_deadline(limits: HubLimits, work: Callable[[], T]) -> T:
    """`work()` in a worker thread, waited for until the publish's deadline; past it, a HubFailure."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as error:  # handed to the waiting thread
            outcome["error"] = error

    worker = threading.Thread(target=run, name="swords-hub-upload", daemon=True)
    worker.start()
    worker.join(max(0.0, limits.deadline - time.monotonic()))
    if worker.is_alive():
        raise limits.give_up(f"not done within the publish's {limits.seconds:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
