"""The Hub's address, HF_ENDPOINT, checked before huggingface_hub sees it: huggingface_hub takes it apart when it
is imported and fails with a traceback on a malformed one (`http://[::1`), even in commands that never reach the
Hub. Shown, it never carries its password (credentials.public_url)."""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from swords_lexsub.credentials import public_url
from swords_lexsub.errors import SwordsError
from swords_lexsub.terminal import shown

DEFAULT_ENDPOINT = "https://huggingface.co"


def endpoint_problem(endpoint: str) -> str | None:
    """Why huggingface_hub cannot use `endpoint` (it takes it apart when it is imported), or None."""
    try:
        parts = urlsplit(endpoint)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError as error:
        return f"not a URL ({error})"
    return "not an http:// or https:// URL" if parts.scheme not in ("http", "https") or not parts.hostname else None


def hub_endpoint() -> str:
    """The Hub's address: HF_ENDPOINT, or huggingface.co when it is unset or empty; a SwordsError naming
    HF_ENDPOINT (never its password) when it is not a URL."""
    endpoint = (os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")
    problem = endpoint_problem(endpoint)
    if problem is not None:
        raise SwordsError(f"HF_ENDPOINT={shown(public_url(endpoint))[:200]}: {problem}")
    return endpoint


def settle_endpoint(needs_hub: bool) -> str | None:
    """Before a command runs, a malformed HF_ENDPOINT (the module docstring): a command that uploads is refused in
    one line; any other runs without it, offline (HF_HUB_OFFLINE=1), and the line returned says so. Empty is unset."""
    if os.environ.get("HF_ENDPOINT") == "":
        del os.environ["HF_ENDPOINT"]
    try:
        hub_endpoint()
    except SwordsError as error:
        if needs_hub:
            raise
        del os.environ["HF_ENDPOINT"]
        os.environ["HF_HUB_OFFLINE"] = "1"
        return f"{error}; ignored, and the Hub is not contacted (HF_HUB_OFFLINE=1)"
    return None
