"""What is wrong with a URL a command is given (the LLM client's `--base-url`, a proxy), said before any request:
spaces or control characters, a broken syntax, a bad port, a scheme the client cannot use, no host."""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

SPACES = "a URL has no spaces or control characters"


def url_problem(url: str, schemes: Sequence[str]) -> str | None:
    """Why a client cannot send a request to (or through) `url`, in a few words; None if it can. `schemes` are the
    schemes it takes, lower-case."""
    if not url or any(character.isspace() or not character.isprintable() for character in url):
        return SPACES  # urlsplit would drop a tab or a newline silently
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        found = re.search(r"://[^/?#]*:([0-9]+)(?:[/?#]|$)", url)
        if "Port" not in str(error):
            return f"not a valid URL ({error})"
        return f"port {found.group(1)} is out of range (1 to 65535)" if found else "its port is not a number"
    if "://" not in url:
        return f"no scheme (write {' or '.join(f'{scheme}://…' for scheme in schemes)})"
    if parts.scheme.lower() not in schemes:
        named = f"{parts.scheme!r}" if parts.scheme else "none"
        either = schemes[0] if len(schemes) == 1 else f"{', '.join(schemes[:-1])} or {schemes[-1]}"
        return f"the scheme must be {either} (it is {named})"
    if not parts.hostname:
        return "no host"
    return "port 0 is out of range (1 to 65535)" if port == 0 else None
