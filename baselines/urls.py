"""URLs without their credentials: what of a base URL may be shown, logged or written to a file."""

from __future__ import annotations

import base64
from urllib.parse import unquote, urlsplit, urlunsplit


def public_url(url: str) -> str:
    """The URL without user:password@ or query string, which may carry credentials."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if parts.port:
            host += f":{parts.port}"
    except ValueError:  # not a URL we can take apart (e.g. a bad port): show nothing of it
        return "(unparsable URL)"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def url_secrets(url: str) -> set[str]:
    """The credentials a URL may carry: user, password (also as the Basic-auth token HTTP clients make of
    them) and the query string's values."""
    try:
        parts = urlsplit(url)
        found = {parts.username or "", parts.password or ""}
    except ValueError:
        return {url}
    if parts.username is not None or parts.password is not None:
        userinfo = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}"
        found.add(base64.b64encode(userinfo.encode()).decode())
        found.update({unquote(parts.username or ""), unquote(parts.password or "")})
    for pair in parts.query.split("&"):
        found.add(pair.partition("=")[2])
    found.add(parts.query)
    return {secret for secret in found if len(secret) >= 4}


def public_value(value: object) -> object:
    """An option's value as it may be recorded: a URL that carries credentials loses them."""
    if isinstance(value, str) and "://" in value:
        return public_url(value)
    return value
