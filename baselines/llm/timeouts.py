"""How long one request is given, for runs and the judge alike (`--timeout`'s default)."""

from __future__ import annotations

# 60 s for a server; 600 s for the engine on this machine, whose CPU the run shares: at the paper's 2,048-token
# budget a request took 11.3 s on two quiet cores, and passed 60 s at a load of 6 to 9.
DEFAULT_TIMEOUT, LOCAL_TIMEOUT = 60.0, 600.0


def request_timeout(timeout: float | None, local: bool) -> float:
    """The seconds a request is given: `timeout` when set, else the default for a server or for --local."""
    return timeout if timeout is not None else LOCAL_TIMEOUT if local else DEFAULT_TIMEOUT
