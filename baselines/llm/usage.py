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


# OpenAI's Batch API bills half the list price (its answers come within 24 hours instead of at once).
BATCH_DISCOUNT = 0.5
_THIS_MACHINE = ("localhost", "localhost.localdomain", "ip6-localhost")


def on_this_machine(base_url: str) -> bool:
    """Whether `base_url` names this machine (localhost, 127.0.0.0/8, ::1): a model served there is not billed."""
    import ipaddress
    from contextlib import suppress
    from urllib.parse import urlsplit

    host = (urlsplit(base_url).hostname or "").rstrip(".").lower()
    with suppress(ValueError):
        return host in _THIS_MACHINE or ipaddress.ip_address(host).is_loopback
    return False


@dataclass(frozen=True)
class Pricing:
    """What a run's tokens cost: USD per million (prompt, completion) tokens, None without a price; `listed`: from
    the price table (OpenAI's list, so its Batch API's half applies); `why_none`: why there is no dollar figure."""

    prices: tuple[float, float] | None
    listed: bool = False
    why_none: str = ""


def _cost(usage: Usage, prices: tuple[float, float], factor: float = 1.0) -> float:
    return factor * (usage.prompt_tokens * prices[0] + usage.completion_tokens * prices[1]) / 1e6


def usage_figures(usage: Usage, pricing: Pricing, bad_usage: set[str], batch: bool = False) -> dict:
    """The run report's figures of what was used and its cost: at list price (and the Batch API's where PRICES has the
    model), at batch price for a batch's answers; without a price `pricing.why_none`; unknown after a bad count."""
    figures: dict = {
        "requests sent": usage.requests,
        "retries": usage.retries,
        "cache hits": usage.cache_hits,
        "prompt tokens": usage.prompt_tokens,
        "completion tokens": usage.completion_tokens,
    }
    prices = pricing.prices
    if prices is None:
        figures["cost"] = pricing.why_none
    elif bad_usage or not math.isfinite(_cost(usage, prices)):
        reported = ", ".join(f"usage.{f}" for f in sorted(bad_usage)) or "a count"
        figures["estimated cost (USD)"] = f"unknown (the server reported {reported} as no count)"
    elif batch and pricing.listed:
        figures["estimated cost at batch price (USD)"] = round(_cost(usage, prices, BATCH_DISCOUNT), 4)
    else:
        figures["estimated cost (USD)"] = round(_cost(usage, prices), 4)
        if pricing.listed and not batch:
            figures["the same at batch price (USD)"] = round(_cost(usage, prices, BATCH_DISCOUNT), 4)
    if usage.cache_hits:
        figures["tokens served from cache"] = usage.cached_prompt_tokens + usage.cached_completion_tokens
    return figures
