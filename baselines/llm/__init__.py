"""The prompted-LLM baseline (prompted.py), its client, the embedded engine and the paper's recorded GPT-3
completions. Nothing is imported until it is used: the `swords` command reads the engine's limits from here at
start-up, and the system itself imports asyncio, the OpenAI client and tokenizers."""

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
