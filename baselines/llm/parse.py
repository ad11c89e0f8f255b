"""Turning an LLM server's response into its completion (`extract`), and the completion into ranked substitutes:
the first occurrence of each keeps its place, score = -rank (base models repeat themselves until the token limit,
GPT-3 davinci gave 64 items for "zone", 13 distinct; chat models answer with numbered or bulleted lines).
"""

from __future__ import annotations

import re
import unicodedata

from swords_baselines.llm.errors import BadOutput
from swords_baselines.system import Prediction

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

# What is kept of a completion: a server that ignores max_tokens (1.2 million words under --max-tokens 48) would
# make a run file no reader takes back. A token is rarely over 16 characters; 64 is generous (8,192 characters for
# the paper's 128 tokens). Each substitute takes a token at least, so there are at most max_tokens of them.
CHARS_PER_TOKEN = 64


def extract(endpoint: str, data: object) -> tuple[str, str | None]:
    """The completion text (maybe empty) and finish reason of a response body, or BadOutput saying what is wrong."""
    if not isinstance(data, dict):
        raise BadOutput("response body is not a JSON object")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise BadOutput("response has no choices")
    choice = choices[0]
    if endpoint == "chat":
        message = choice.get("message")
        text = message.get("content") if isinstance(message, dict) else None
    else:
        text = choice.get("text")
    if not isinstance(text, str):
        raise BadOutput("response choice has no text")
    finish_reason = choice.get("finish_reason")
    # A lone surrogate ("\ud800" in the JSON) is no character and no file can hold it as UTF-8: U+FFFD instead.
    return _LONE_SURROGATE.sub("\ufffd", text), finish_reason if isinstance(finish_reason, str) else None


def kept_length(max_tokens: int) -> int:
    """The characters kept of a completion asked for with `max_tokens`."""
    return CHARS_PER_TOKEN * max_tokens


def bounded(text: str, finish_reason: str | None, max_tokens: int) -> tuple[str, str | None]:
    """At most kept_length(max_tokens) characters of a completion; a longer one as cut by the limit ("length")."""
    limit = kept_length(max_tokens)
    return (text, finish_reason) if len(text) <= limit else (text[:limit], "length")


_QUOTES = "\"'`“”‘’«»„"
_NUMBERING = re.compile(r"^\s*(?:\(?\d{1,3}[.):]|[-*•·–—+>]+)\s*")
_ANSWER_PREFIX = re.compile(r"^\s*(?:A|Answer|Substitutes?)\s*:\s*", re.IGNORECASE)
_SEPARATORS = re.compile(r"[,;\n]|\s/\s")
_LETTER = re.compile(r"[^\W\d_]")


def split_completion(text: str, finish_reason: str | None = None) -> list[str]:
    """The raw items of a completion; cut by the token limit, its last piece ("... get away, get") is dropped."""
    pieces = _SEPARATORS.split(text)
    if finish_reason == "length" and pieces:
        pieces = pieces[:-1]
    return pieces


def normalize_item(item: str) -> str:
    """One substitute: whitespace collapsed; numbering, bullets, emphasis, quotes, a last stop gone; case kept."""
    item = unicodedata.normalize("NFKC", item)
    item = _ANSWER_PREFIX.sub("", item, count=1)
    item = _NUMBERING.sub("", item, count=1)
    item = item.replace("**", "").replace("__", "")
    item = " ".join(item.split())
    return item.strip(_QUOTES + " ").rstrip(".!?").strip(_QUOTES + " ")


def parse_completion(
    text: str, target: str | None = None, finish_reason: str | None = None, most: int | None = None
) -> list[str]:
    """Distinct substitutes in order of appearance (no target, no empty or non-word item), at most `most`."""
    seen: set[str] = set()
    if target:
        seen.add(" ".join(target.split()).casefold())
    result = []
    for piece in split_completion(text, finish_reason):
        if piece.rstrip().endswith(":"):  # chat prose ("Here are some substitutes:") introduces the list
            continue
        item = normalize_item(piece)
        key = item.casefold()
        if not item or key in seen or not _LETTER.search(item):
            continue
        seen.add(key)
        result.append(item)
        if most is not None and len(result) >= most:
            break
    return result


def to_prediction(substitutes: list[str]) -> Prediction:
    """Rank order as scores: the first substitute scores 0, the next -1, and so on."""
    return [(substitute, -float(rank)) for rank, substitute in enumerate(substitutes)]
