"""The environment's proxies (swords_lexsub/proxies.py): which proxy a request goes through, NO_PROXY as urllib reads
it (urllib.request.proxy_bypass_environment is the reference, not this module), the variable named as it is set,
a value that cannot work said with its variable, and a proxy's credentials masked in any case. The faults through
the commands, with real proxies on 127.0.0.1, are tests/baselines/test_llm_proxies.py's."""

from __future__ import annotations

import base64
import urllib.request

import pytest

from swords_lexsub.credentials import Redactor, public_url
from swords_lexsub.errors import SwordsError
from swords_lexsub.proxies import check_proxy, proxy_for, proxy_for_url, proxy_secrets

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "REQUEST_METHOD")


@pytest.fixture
def clean(monkeypatch):
    """An environment without proxy variables, in either case."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    return monkeypatch


URLS = [
    "http://127.0.0.1:8080/v1",
    "http://127.0.0.1/v1",
    "https://api.example.org/v1",
    "https://api.example.org:8443/v1",
    "http://example.org:80/v1",
    "http://[::1]:8080/v1",
    "http://localhost:8000/v1",
]
NO_PROXY = [
    "127.0.0.1",
    "127.0.0.1:8080",
    "127.0.0.1:9090",
    ".0.0.1",
    "example.org",
    ".example.org",
    "api.example.org:8443",
    "EXAMPLE.ORG",
    "*",
    " * ",
    "other.org, localhost",
    "[::1]:8080",
    "::1",
    "ample.org",
    "127.0.0.0/8",
]


@pytest.mark.parametrize("no_proxy", NO_PROXY)
def test_no_proxy_is_read_as_urllib_reads_it(clean, no_proxy):
    """Each URL goes through the proxy exactly when urllib's own rule, given the request's host as urllib's opener
    gives it (with the port the URL names), says it does not bypass it."""
    clean.setenv("HTTP_PROXY", "http://proxy.test:3128")
    clean.setenv("HTTPS_PROXY", "http://proxy.test:3128")
    clean.setenv("NO_PROXY", no_proxy)
    for url in URLS:
        host = urllib.request.Request(url).host  # what urllib's ProxyHandler asks proxy_bypass about
        expected = not urllib.request.proxy_bypass_environment(host)
        assert (proxy_for_url(url) is not None) == expected, (no_proxy, url)


def test_the_variable_named_is_the_one_urllib_took(clean):
    clean.setenv("HTTPS_PROXY", "http://upper.test:1")
    assert proxy_for("https", "x.org").variable == "HTTPS_PROXY"
    clean.setenv("https_proxy", "http://lower.test:2")  # the lower-case name wins, as in urllib
    proxy = proxy_for("https", "x.org")
    assert (proxy.variable, proxy.url) == ("https_proxy", "http://lower.test:2")
    assert proxy_for("http", "x.org") is None
    clean.setenv("ALL_PROXY", "127.0.0.1:3128")  # a bare host:port is an http:// proxy
    proxy = proxy_for("http", "x.org")
    assert (proxy.variable, proxy.url) == ("ALL_PROXY", "http://127.0.0.1:3128")


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("not-a-url", "not a proxy URL (write http://host:port)"),
        ("http://u:secret99@127.0.0.1:99999", "port 99999 is out of range (1 to 65535)"),
        ("http://[::1:3128", "not a valid URL (Invalid IPv6 URL)"),
        ("http://127.0.0.1:port", "its port is not a number"),
        ("ftp://127.0.0.1:21", "the scheme must be http, https, socks5 or socks5h (it is 'ftp')"),
        ("http://:3128", "no host"),
        ("http://127.0.0.1:3128\n", "a URL has no spaces or control characters"),
    ],
)
def test_a_value_that_cannot_work_names_its_variable(clean, value, problem):
    clean.setenv("http_proxy", value)
    with pytest.raises(SwordsError) as refused:
        check_proxy("http://127.0.0.1:8000/v1")
    message = str(refused.value)
    assert message.startswith("http_proxy='") and message.endswith(f": {problem}"), message
    assert "secret99" not in message
    assert "\n" not in message and ("\\n'" in message) == ("\n" in value)
    clean.setenv("NO_PROXY", "127.0.0.1")  # a proxy the request does not go through is not checked
    assert check_proxy("http://127.0.0.1:8000/v1") is None


def test_a_proxy_s_credentials_are_masked_in_any_case(clean):
    clean.setenv("HTTPS_PROXY", "http://bob2:Pr0xy-Pa55word@proxy.test:3128")
    clean.setenv("http_proxy", "http://al%40ice:pw12@proxy.test:3128")
    clean.setenv("HTTP_PROXY", "http://carol:Hidden-By-The-Lower-Case@proxy.test:3128")  # not sent, masked all the same
    redactor = Redactor(tokens=proxy_secrets())
    basic = base64.b64encode(b"bob2:Pr0xy-Pa55word").decode()
    text = f"Basic {basic} | bob2:Pr0xy-Pa55word | BOB2 PR0XY-PA55WORD | xxpa55wordyy | al@ice:PW12 | al%40ice | carol"
    shown = redactor.redact(f"{text} Hidden-By-The")
    for secret in ("bob2", "pr0xy", "pa55word", basic[:8].lower(), "al@ice", "pw12", "al%40ice", "carol", "hidden"):
        assert secret not in shown.lower(), (secret, shown)
    assert shown.count("|") == 6  # the text around them stays


def test_a_url_shown_keeps_its_newline():
    """urlsplit drops a tab or a newline silently: shown, the URL keeps it (a message escapes it)."""
    assert public_url("http://u:pw@127.0.0.1:8000/v1\n?key=k") == "http://***@127.0.0.1:8000/v1\n"
    assert public_url("http://u:pw@127.0.0.1:8000/v1?key=k") == "http://127.0.0.1:8000/v1"
