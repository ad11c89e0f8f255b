"""The prompted-LLM baseline: its settings (config), the SWORDS paper's few-shot prompt (prompt), exact token
budgets (tokens, served_tokens), requests (client) with retries (retry), a circuit breaker (breaker), a cache
(cache) over the bounded HTTP client (swords_lexsub/http_client.py), completion parsing (parse), the system
(prompted) and what it used (usage), the engine, client and event loop of one run (session, completion), the
embedded engine (engine, engine_host, engine_limits, gguf_file, gguf_header) and the paper's recorded GPT-3
completions (recorded).

Nothing is imported until it is used: the `swords` command reads the engine's limits from here at start-up,
and the system itself imports asyncio, the OpenAI client and tokenizers."""

from __future__ import annotations

from importlib import import_module

_EXPORTS = {
    "LLM": ".prompted",
    "TargetAnswer": ".prompted",
    "LLMConfig": ".config",
    "UnknownTokenizer": ".errors",
    "GPT3Recorded": ".recorded",
    "load_recorded": ".recorded",
}
__all__ = list(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
