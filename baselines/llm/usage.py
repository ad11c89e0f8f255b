"""What a run of the prompted LLM used: requests, retries, cache hits and tokens (billed, or served from the
cache), the token counts a server reports (checked before they are believed), and the estimated cost."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

# A token count a server reports is believed up to this (a trillion tokens: more than any request could hold).
MAX_REPORTED_TOKENS = 10**12


@dataclass
class Usage:
    requests: int = 0  # HTTP requests sent, retries included
    retries: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0  # of fresh responses (billed); cached ones are free
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    cached_completion_tokens: int = 0
    waits: list[float] = field(default_factory=list)  # seconds slept before each retry

    def add_tokens(self, prompt: int, completion: int, cached: bool) -> None:
        """Count one reply's tokens: billed, or served from the cache."""
        if cached:
            self.cached_prompt_tokens += prompt
            self.cached_completion_tokens += completion
        else:
            self.prompt_tokens += prompt
            self.completion_tokens += completion


def reported_tokens(usage: dict, name: str) -> int | None:
    """A server's `usage` count (0 to MAX_REPORTED_TOKENS): None if absent, ValueError if not a count."""
    value = usage.get(name)
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not (0 <= value <= MAX_REPORTED_TOKENS)
        or value != int(value)
    ):
        raise ValueError(f"{value!r}"[:40])
    return int(value)


def usage_figures(usage: Usage, prices: tuple[float, float], bad_usage: set[str]) -> dict:
    """The run report's figures of what was used, and its cost at `prices` (USD per million prompt and completion
    tokens; unknown after a usage field that was no count)."""
    cost = (usage.prompt_tokens * prices[0] + usage.completion_tokens * prices[1]) / 1e6
    figures = {
        "requests sent": usage.requests,
        "retries": usage.retries,
        "cache hits": usage.cache_hits,
        "prompt tokens": usage.prompt_tokens,
        "completion tokens": usage.completion_tokens,
        "estimated cost (USD)": round(cost, 4)
        if not bad_usage and math.isfinite(cost)
        else f"unknown (the server reported {', '.join(f'usage.{f}' for f in sorted(bad_usage))} as no count)",
    }
    if usage.cache_hits:
        figures["tokens served from cache"] = usage.cached_prompt_tokens + usage.cached_completion_tokens
    return figures
