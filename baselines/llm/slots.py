"""How many requests a server decodes at once (its slots), asked once before a run. llama.cpp's server (and so
`swords llm serve`) queues what its slots cannot take, and a request's timeout runs while it waits there: 16 requests
in flight against one slot time out and are retried on a loaded machine. Sending no more than the slots keeps the
queue in the client, where waiting costs nothing (the timeout counts from when a request is sent).

llama.cpp says it in GET /props: `total_slots`; a build older than that field has `default_generation_settings`
there and lists its slots at GET /slots. A server without /props (OpenAI, vLLM) has no answer: None, and the run
keeps its concurrency."""

from __future__ import annotations

import json
import time
from urllib.parse import urlsplit, urlunsplit

from swords_lexsub.http_client import bounded_client, proxied_transport

PROBE_SECONDS = 5.0  # for the whole probe: /props is answered at once, even by a server whose slots are all busy


def server_slots(base_url: str, key: str | None = None, seconds: float = PROBE_SECONDS) -> int | None:
    """The slots of the llama.cpp server behind `base_url` (…/v1), or None when it does not say within `seconds`; asked
    through the environment's proxy, with the run's `key` (a llama.cpp started with --api-key asks it at /props)."""
    import httpx

    parts = urlsplit(base_url)  # a query string (a gateway's token) is the completions' own
    path = parts.path.rstrip("/")
    path = path[: -len("/v1")] if path.endswith("/v1") else path
    root = urlunsplit((parts.scheme, parts.netloc, path, "", ""))
    deadline = time.monotonic() + seconds
    inner = proxied_transport(httpx)  # the embedded engine's slots are known: it is never asked
    headers = {"Authorization": f"Bearer {key}"} if key else None
    with bounded_client(httpx, inner=inner, timeout=seconds, headers=headers, follow_redirects=True) as http:
        props = _get(http, root + "/props", deadline)
        if not isinstance(props, dict):
            return None
        total = props.get("total_slots")
        if isinstance(total, int) and not isinstance(total, bool) and total >= 1:
            return total
        if not isinstance(props.get("default_generation_settings"), dict):
            return None  # a /props, but not llama.cpp's
        listed = _get(http, root + "/slots", deadline)
        # An older llama.cpp with /slots turned off: its default, one slot, is the safe guess (never a timeout).
        return len(listed) if isinstance(listed, list) and listed else 1


def _get(http, url: str, deadline: float) -> object:
    """The JSON at `url`, or None (any failure: the probe only ever lowers what is sent at once)."""
    left = deadline - time.monotonic()
    if left <= 0:
        return None
    try:
        with http.stream("GET", url, timeout=left) as response:
            if response.status_code != 200:
                return None
            chunks = []
            for chunk in response.iter_bytes():  # a server trickling its answer is given up at the deadline
                chunks.append(chunk)
                if time.monotonic() > deadline:
                    return None
        return json.loads(b"".join(chunks))
    except Exception:  # noqa: BLE001 (refused, timed out, too large, not JSON: the server does not say)
        return None


def slots_line(url: str, slots: int, in_flight: int) -> str:
    """What the run says of the probe's answer, in one line."""
    requests = f"{in_flight} request{'s' * (in_flight != 1)} at a time"
    return f"the server at {url} has {slots} slot{'s' * (slots != 1)}: {requests}"
