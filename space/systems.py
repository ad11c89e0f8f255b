"""The baselines as the Space runs them (which it offers: offered_systems.py): one warm instance of each offline
system shared by every session, and the LLM built per request around the session's own API key."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

from swords_lexsub.credentials import Redactor, public_url
from swords_lexsub.errors import SwordsError
from swords_space.errors import SpaceError
from swords_space.offered_systems import LLM_SYSTEM, LOCAL_LLM, registry, unavailable_reason

log = logging.getLogger(__name__)

# The prompted LLM on this machine (offered_systems.LOCAL_LLM): one shared, warm instance.
LOCAL_LLM_OPTIONS = {"local": True, "budget": 640, "max_tokens": 48, "cache_dir": "off", "timeout": 60.0}
# A session's LLM: no retries (a hanging base URL costs at most LLM_TIMEOUT), no shared cache (it would hand one
# session's answers to another), and a key variable nobody sets (never the Space owner's key).
LLM_TIMEOUT = 20.0
SESSION_LLM_OPTIONS = {
    "api_key_env": "SWORDS_SPACE_SESSION_KEY_ONLY",
    "cache_dir": "off",
    "timeout": LLM_TIMEOUT,
    "max_retries": 0,
    "abort_after": 1,
    "concurrency": 1,
}
FALLBACK_TOKENIZER = "cl100k_base"  # any other model: its tokenizer only sizes the few-shot prompt, a common one does


class SystemFailure(SpaceError):
    """A system that cannot answer; the message is meant for the user (secrets already removed)."""


@dataclass
class LLMSettings:
    """What a session gave for the LLM (the form's fields and the key), only in that session's gr.State."""

    base_url: str = ""
    model: str = "gpt-4o-mini"
    mode: str = "chat"
    api_key: str = field(default="", repr=False)  # repr=False: never in a log line or an error message

    @property
    def ready(self) -> bool:
        return bool(self.api_key and self.base_url)

    def redact(self, text: str) -> str:
        return Redactor([self.api_key], urls=[self.base_url]).redact(text)


class _Gate:
    """Many predictions at once, or one system's first build alone: it imports torch and transformers, and a
    half-imported one makes `datasets`' hashing fail (AttributeError on transformers.PreTrainedTokenizerBase)."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._readers = 0
        self._writer = False

    @contextmanager
    def shared(self) -> Iterator[None]:
        with self._condition:
            self._condition.wait_for(lambda: not self._writer)
            self._readers += 1
        try:
            yield
        finally:
            with self._condition:
                self._readers -= 1
                self._condition.notify_all()

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        with self._condition:
            self._condition.wait_for(lambda: not self._writer and not self._readers)
            self._writer = True
        try:
            yield
        finally:
            with self._condition:
                self._writer = False
                self._condition.notify_all()


_gate = _Gate()
_built: set[str] = set()  # systems built once already: their imports are done
_instances: dict[str, object] = {}
_instance_locks: dict[str, threading.Lock] = {}
_registry_lock = threading.Lock()


@contextmanager
def _building(name: str) -> Iterator[None]:
    """Exclusive for a system's first build (imports), shared afterwards."""
    with _gate.shared() if name in _built else _gate.exclusive():
        yield
    _built.add(name)


def _lock_for(name: str) -> threading.Lock:
    with _registry_lock:
        return _instance_locks.setdefault(name, threading.Lock())


def get_system(name: str):
    """The shared instance of an offline system, built with its defaults on first use; callers hold
    `lock_for(name)` while predicting (systems are not assumed thread-safe)."""
    lock = _lock_for(name)
    with lock:
        system = _instances.get(name)
        if system is None:
            try:
                with _building(name):
                    if name == LOCAL_LLM:
                        system = registry().get(LLM_SYSTEM)(**LOCAL_LLM_OPTIONS)
                    else:
                        cls = registry().get(name)
                        system = cls(**{option.name: option.default for option in cls.options})
                    system.start()  # shared and warm: started once, for every session
            except SwordsError as error:
                raise SystemFailure(f"{name} cannot start: {error}") from None
            _instances[name] = system
        return system


def warm(name: str | None) -> None:
    """Load a system's model before the first request (called in the background at start)."""
    if name and name != LLM_SYSTEM:
        try:
            get_system(name)
        except Exception as error:  # reported again, clearly, when someone uses it
            log.warning("could not preload %s: %s", name, error)


def _run(ask, name: str, row: dict, redact=lambda text: text):
    """ask(), with a system's failures turned into one-line SystemFailures (secrets removed)."""
    try:
        return ask()
    except SystemFailure:
        raise
    except SwordsError as error:
        raise SystemFailure(redact(str(error))) from None
    except Exception as error:  # a bug or an unexpected failure inside a system: a message, not a traceback
        log.error("%s failed on %s: %s", name, row.get("id"), redact(f"{type(error).__name__}: {error}"))
        raise SystemFailure(f"{name} failed: {redact(f'{type(error).__name__}: {error}')}") from None


def _predict_row(system, name: str, row: dict) -> list[tuple[str, float]]:
    covered = system.covers([row])
    if not covered:
        raise SystemFailure(f"{name} has no answer for this target ({system.description}).")
    answers = dict(system.predict(covered))
    return [(str(word), float(score)) for word, score in answers.get(row["id"], [])]


def predict(name: str, row: dict, llm: LLMSettings | None = None) -> list[tuple[str, float]]:
    """Ranked (substitute, score) of one system for one row."""
    if name == LLM_SYSTEM:
        return predict_llm(row, llm)
    system = get_system(name)
    with _lock_for(name), _gate.shared():
        return _run(lambda: _predict_row(system, name, row), name, row)


def _session_llm(settings: LLMSettings):
    """A started llm system for one request, the session's key handed to it in memory (never in os.environ)."""
    from swords_baselines.llm import UnknownTokenizer

    cls = registry().get(LLM_SYSTEM)
    options = {"model": settings.model, "base_url": settings.base_url, "mode": settings.mode, **SESSION_LLM_OPTIONS}
    for tokenizer in (None, FALLBACK_TOKENIZER):
        system = cls(**options, tokenizer=tokenizer)
        system.use_api_key(settings.api_key)
        try:
            system.start()
            return system
        except UnknownTokenizer:
            system.close()
        except BaseException:
            system.close()
            raise
    raise AssertionError("the fallback tokenizer is always known")


def predict_llm(row: dict, settings: LLMSettings | None) -> list[tuple[str, float]]:
    if settings is None or not settings.ready:
        raise SystemFailure("The llm system needs an API key and a base URL: set them under “LLM settings” first.")
    if unavailable_reason(LLM_SYSTEM):
        raise SystemFailure(f"the llm system is not available here: {unavailable_reason(LLM_SYSTEM)}")
    try:
        with _building(LLM_SYSTEM):
            system = _session_llm(settings)
    except SwordsError as error:
        raise SystemFailure(settings.redact(f"llm cannot start: {error}")) from None
    except ImportError as error:
        raise SystemFailure(f"the llm system needs {error.name}") from None
    try:
        with _gate.shared():
            answer = _run(lambda: next(system.answers([row])), LLM_SYSTEM, row, settings.redact)
    finally:
        with suppress(Exception):  # closing a half-open connection must not hide the answer or the real error
            system.close()
    if answer.failure is not None:  # the request's own failure, typed, reads better than a summary
        raise SystemFailure(
            settings.redact(f"The LLM at {public_url(settings.base_url)} did not answer: {answer.failure}")
        )
    return [(str(word), float(score)) for word, score in answer.prediction]
