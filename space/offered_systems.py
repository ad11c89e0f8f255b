"""The systems the Space offers: which are registered and can run here (and why the others cannot), in which
order, the default one, and what each is. Decided cheaply, nothing loaded; systems.py runs them."""

from __future__ import annotations

import threading

from swords_lexsub.errors import SwordsError

DEFAULT_SYSTEM = "wordnet+embedding"
# When the default is not installed: the next best offline systems that answer free text.
PREFERRED = (DEFAULT_SYSTEM, "wordnet", "bert-k", "thesaurus-oracle")
LLM_SYSTEM = "llm"
# The prompted LLM on this machine (the embedded engine, the local-llm extra): one shared, warm instance.
LOCAL_LLM = "local-llm"
LOCAL_LLM_NOTE = "SmolLM2-135M on this machine's CPU, with the paper's prompt: small, and a few seconds an answer"


def registry():
    from swords_baselines.system import SYSTEMS

    return SYSTEMS


_availability: dict[str, str | None] = {}
_availability_lock = threading.Lock()


def unavailable_reason(name: str) -> str | None:
    """Why a system cannot run here with its defaults (None: it can), decided once, nothing loaded."""
    with _availability_lock:
        if name not in _availability:
            if name == LOCAL_LLM:
                from swords_baselines.llm.engine import unavailable_reason as engine_unavailable

                _availability[name] = engine_unavailable()
                return _availability[name]
            try:
                cls = registry().get(name)
                _availability[name] = cls.unavailable_reason()
            except SwordsError as error:
                _availability[name] = str(error)
            except ImportError as error:
                _availability[name] = f"needs {error.name}"
        return _availability[name]


def _names() -> list[str]:
    try:
        return [*registry().entries, LOCAL_LLM]
    except ImportError:
        return []


def available_systems() -> list[str]:
    """Registered systems that can run here, the preferred offline ones first."""
    names = _names()
    ordered = [name for name in PREFERRED if name in names] + [name for name in names if name not in PREFERRED]
    return [name for name in ordered if unavailable_reason(name) is None]


def unavailable_systems() -> dict[str, str]:
    """Registered systems that cannot run here, and why."""
    return {name: reason for name in _names() if (reason := unavailable_reason(name)) is not None}


def default_system() -> str | None:
    """wordnet+embedding, else the first available of PREFERRED, else the first available (available_systems' order)."""
    available = available_systems()
    return available[0] if available else None


def system_notes() -> list[str]:
    """What to know about the systems: the local LLM's nature when offered, and why each other is not."""
    local = [f"{LOCAL_LLM}: {LOCAL_LLM_NOTE}."] if LOCAL_LLM in available_systems() else []
    return local + [f"Not available here: {name} ({reason})." for name, reason in unavailable_systems().items()]
