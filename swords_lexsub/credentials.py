"""Credentials kept out of what is shown, logged or written: URLs without their secrets, and the one redactor every
message, log line, cache file and output passes through (a server's error body may echo a key or a URL's password)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from urllib.parse import unquote, urlsplit, urlunsplit

# Shorter strings are no secret worth the name, and redacting them would mangle ordinary words (a keyless
# local server's placeholder key "EMPTY", a query value "1").
MIN_SECRET_LENGTH = 4
MASK = "***"
# A token's pieces this long or longer are masked too, in any case: a server may echo a token cut short or
# upper-cased. Eight characters of a random token never occur in ordinary text by chance.
TOKEN_PIECE = 8
GRAM = TOKEN_PIECE // 2


def public_url(url: str) -> str:
    """The URL without user:password@ or query string, which may carry credentials."""
    if not any(character in url for character in "\t\r\n"):  # urlsplit drops them: shown, they must stay
        with contextlib.suppress(ValueError):  # not a URL urllib takes apart (a bad port, a broken [IPv6]): by hand
            parts = urlsplit(url)
            host = parts.hostname or ""
            if parts.port:
                host += f":{parts.port}"
            return urlunsplit((parts.scheme, host, parts.path, "", ""))
    text = url.split("?", 1)[0].split("#", 1)[0]
    scheme, separator, rest = text.partition("://")
    authority, slash, path = rest.partition("/")
    if "@" in authority:
        authority = MASK + "@" + authority.rsplit("@", 1)[1]
    return scheme + separator + authority + slash + path if separator else text


def url_secrets(url: str) -> set[str]:
    """The credentials a URL may carry: user, password (and their Basic-auth token), the query string's values."""
    try:
        parts = urlsplit(url)
        found = {parts.username or "", parts.password or ""}
    except ValueError:
        return {url}
    if parts.username is not None or parts.password is not None:
        userinfo = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}"
        import base64  # here: only a URL with a user name needs it

        found.add(base64.b64encode(userinfo.encode()).decode())
        found.update({unquote(parts.username or ""), unquote(parts.password or "")})
    found.update([parts.query, *(pair.partition("=")[2] for pair in parts.query.split("&"))])
    return {secret for secret in found if len(secret) >= MIN_SECRET_LENGTH}


def public_value(value: object) -> object:
    """An option's value as it may be recorded: a URL that carries credentials loses them."""
    return public_url(value) if isinstance(value, str) and "://" in value else value


class Redactor:
    """Replaces every known secret in a text with ***, longer first (a secret holding another is masked whole)."""

    def __init__(self, secrets: Iterable[str] = (), urls: Iterable[str] = (), tokens: Iterable[str] = ()) -> None:
        self._secrets: set[str] = set()
        self._pieces: set[str] = set()  # every TOKEN_PIECE-long piece of a token, lower-cased
        self._grams: set[str] = set()  # every GRAM-long piece of a token, lower-cased: where to look closer
        self._short: set[str] = set()  # tokens shorter than a piece, lower-cased: masked whole in any case
        self.add(*secrets, *(secret for url in urls if url for secret in url_secrets(url)))
        self.add_token(*tokens)

    def add(self, *secrets: str | None) -> None:
        self._secrets.update(s for s in secrets if s and len(s) >= MIN_SECRET_LENGTH)

    def add_token(self, *tokens: str | None) -> None:
        """An access token, masked whole and in every piece of TOKEN_PIECE characters or more, in any case."""
        for token in tokens:
            if token and len(token) >= MIN_SECRET_LENGTH:
                self.add(token)
                lowered = token.lower()
                if len(token) < TOKEN_PIECE:
                    self._short.add(lowered)
                self._pieces.update(lowered[i : i + TOKEN_PIECE] for i in range(len(lowered) - TOKEN_PIECE + 1))
                self._grams.update(lowered[i : i + GRAM] for i in range(len(lowered) - GRAM + 1))

    def redact(self, text: str) -> str:
        for secret in sorted(self._secrets, key=len, reverse=True):
            text = text.replace(secret, MASK)
        if self._short:
            lowered = text.lower()
            if any(token in lowered for token in self._short):  # rare: only then a regular expression
                pattern = "|".join(re.escape(token) for token in sorted(self._short, key=len, reverse=True))
                text = re.sub(pattern, MASK, text, flags=re.IGNORECASE)
        return self._mask_pieces(text) if self._pieces else text

    def _mask_pieces(self, text: str) -> str:
        # Lowered a character at a time where one lowers to two, so that positions stay those of `text`.
        lowered = text.lower()
        if len(lowered) != len(text):
            lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
        # A piece (TOKEN_PIECE = 2 * GRAM characters) holds one of the GRAM-long windows starting at every GRAM-th
        # position: only around those that are part of a token are pieces looked for (a cache record of 27 kB takes
        # 2 ms, not the 18 ms of looking at every position).
        starts: set[int] = set()
        for at in range(0, len(lowered) - GRAM + 1, GRAM):
            if lowered[at : at + GRAM] in self._grams:
                starts.update(range(max(0, at - GRAM), at + 1))
        spans: list[list[int]] = []
        for start in sorted(starts):
            if lowered[start : start + TOKEN_PIECE] in self._pieces:
                if spans and start <= spans[-1][1]:
                    spans[-1][1] = start + TOKEN_PIECE
                else:
                    spans.append([start, start + TOKEN_PIECE])
        for start, end in reversed(spans):
            text = text[:start] + MASK + text[end:]
        return text

    def __call__(self, text: str) -> str:
        return self.redact(text)

    def __repr__(self) -> str:  # never the secrets themselves
        return f"Redactor({len(self._secrets)} secrets)"
