"""The proxy the environment names for a request, read as urllib reads it (`HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY`,
a lower-case name first, and `NO_PROXY`); a value without a scheme is an http:// proxy, as httpx, requests and curl
take it. Checked before any request (`check_proxy`), named without its password (`Proxy`), masked (`proxy_secrets`)."""

from __future__ import annotations

import importlib.util
import os
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

from swords_lexsub.credentials import public_url, url_secrets
from swords_lexsub.errors import SwordsError
from swords_lexsub.terminal import shown
from swords_lexsub.urls import url_problem

SCHEMES = ("http", "https", "socks5", "socks5h")  # the proxies httpx's transports take
SOCKS = ("socks5", "socks5h")


@dataclass(frozen=True)
class Proxy:
    """A proxy, and the environment variable that names it (as it is set: `HTTPS_PROXY` or `https_proxy`)."""

    variable: str
    url: str  # as the client takes it (http:// before a bare host:port)
    value: str = ""  # as the variable holds it

    def refusal(self) -> str | None:
        """Why the variable's value cannot work, in one line naming it (no password); None if it can."""
        problem = proxy_problem(self.value or self.url)
        if problem is None:
            return None
        return f"{self.variable}={shown(repr(public_url(self.value or self.url)))}: {problem}"

    def __str__(self) -> str:
        return f"the proxy {public_url(self.url)} ({self.variable})"


def _url(value: str) -> str:
    return value if "://" in value else f"http://{value}"


def _variable(key: str, value: str) -> str:
    """The name of the variable urllib took `value` from for `key` ("https", "all"): the lower-case one if set."""
    lower = f"{key}_proxy"
    if os.environ.get(lower) == value:
        return lower
    return next((name for name, text in os.environ.items() if name.lower() == lower and text == value), lower.upper())


def proxy_for(scheme: str, host: str, port: int | None = None) -> Proxy | None:
    """The proxy a request to scheme://host:port goes through, or None (none named, or NO_PROXY names the host)."""
    proxies = urllib.request.getproxies_environment()
    key = scheme.lower() if proxies.get(scheme.lower()) else "all"
    value = proxies.get(key)
    host = f"[{host.lower()}]" if ":" in host else host.lower()  # as urllib matches NO_PROXY: IPv6 in brackets
    if not value or urllib.request.proxy_bypass_environment(f"{host}:{port}" if port else host, proxies):
        return None
    return Proxy(_variable(key, value), _url(value), value)


def proxy_for_url(url: str) -> Proxy | None:
    """proxy_for a URL given as text (None for one urllib cannot take apart: it is refused elsewhere)."""
    try:
        parts = urlsplit(url)
        return proxy_for(parts.scheme, parts.hostname or "", parts.port)
    except ValueError:
        return None


def proxy_problem(value: str) -> str | None:
    """What is wrong with a proxy variable's value, or None."""
    if "://" not in value and value.strip() and not value.rpartition(":")[2].isdigit():
        return "not a proxy URL (write http://host:port)"
    problem = url_problem(_url(value), SCHEMES)
    if problem is None and urlsplit(_url(value)).scheme.lower() in SOCKS and not importlib.util.find_spec("socksio"):
        return "a SOCKS proxy needs the socksio package (pip install socksio), which is not installed"
    return problem


def check_proxy(url: str) -> Proxy | None:
    """The proxy requests to `url` go through, checked: else one SwordsError naming its variable and what is wrong."""
    proxy = proxy_for_url(url)
    refusal = proxy.refusal() if proxy is not None else None
    if refusal is not None:
        raise SwordsError(refusal)
    return proxy


def proxy_secrets() -> set[str]:
    """The credentials every proxy the environment names carries (user, password, Basic-auth token), for redactors."""
    found: set[str] = set()
    for name, value in os.environ.items():  # every one set, in either case, not only those urllib takes
        if name.lower().endswith("_proxy") and name.lower() != "no_proxy" and value:
            found |= url_secrets(_url(value))
    return found
