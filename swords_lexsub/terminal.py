"""Text shown on a terminal: what a file or a server put in a word (ESC sequences, line breaks, bidi overrides, lone
surrogates) shown escaped, so one line stays one line and the terminal shows what is there instead of obeying it."""

from __future__ import annotations

import sys
import unicodedata

# Format characters that reorder or hide what follows them on a terminal (Trojan-source style).
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def shown(text: object) -> str:
    """`text` as it can be printed on one terminal line: control characters (C0, DEL, C1), lone surrogates and
    bidirectional controls as Python escapes (`\\x1b`, `\\ud800`, `\\u202e`); all else (a backslash too) as it is."""
    text = str(text)
    if text.isascii() and text.isprintable():
        return text
    return "".join(
        character.encode("unicode_escape").decode("ascii")
        if character in _BIDI_CONTROLS or unicodedata.category(character) in ("Cc", "Cs")
        else character
        for character in text
    )


def say(text: object) -> None:
    """One line on stderr, as a terminal can show it (see shown)."""
    print(shown(text), file=sys.stderr)


# How much of a name or value from outside an error line repeats: enough to recognise it.
CLIP_CHARACTERS = 60


def clipped(text: object, limit: int = CLIP_CHARACTERS, quote: bool = False) -> str:
    """`text` (quoted as repr quotes it, if `quote`) cut to its first `limit` characters when longer, followed by
    its full length: "'aaaa…' (10,000 characters)". For echoing what a user typed or a file holds in one line."""
    text = str(text)
    if len(text) <= limit:
        return repr(text) if quote else text
    head = repr(text[:limit]) if quote else text[:limit]
    shortened = f"{head[:-1]}…{head[-1]}" if quote else f"{head}…"
    return f"{shortened} ({len(text):,} characters)"
