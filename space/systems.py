"""The baselines as the Space runs them: which are available, one warm instance of each offline system
shared by every session, and the LLM built per request around the session's own API key."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from swords_baselines.urls import public_url, url_secrets
from swords_dataset.errors import SwordsError

from .errors import SpaceError

log = logging.getLogger(__name__)

DEFAULT_SYSTEM = "wordnet+embedding"
# When the default is not installed: the next best offline systems that answer free text.
PREFERRED = (DEFAULT_SYSTEM, "wordnet", "bert-k", "thesaurus-oracle")
LLM_SYSTEM = "llm"
# The prompted LLM on this machine (the embedded engine, the local-llm extra): one shared, warm instance.
LOCAL_LLM = "local-llm"
LOCAL_LLM_NOTE = "SmolLM2-135M on this machine's CPU, with the paper's prompt: small, and a few seconds an answer"
LOCAL_LLM_OPTIONS = {"local": True, "budget": 640, "max_tokens": 48, "cache_dir": "off", "timeout": 60.0}
# An environment variable nobody sets: the LLM system must never fall back to a key from the server's
# environment (the Space owner's), only use the one the session gave.
_NO_ENV_KEY = "SWORDS_SPACE_SESSION_KEY_ONLY"
LLM_TIMEOUT = 20.0  # one try, no retries: a hanging base URL costs a session at most this long


class SystemFailure(SpaceError):
    """A system that cannot answer; the message is meant for the user (secrets already removed)."""


@dataclass
class LLMSettings:
    """What a session gave for the LLM. Lives only in that session's gr.State, in server memory."""

    base_url: str = ""
    model: str = "gpt-4o-mini"
    mode: str = "chat"
    api_key: str = field(default="", repr=False)  # repr=False: never in a log line or an error message

    @property
    def ready(self) -> bool:
        return bool(self.api_key and self.base_url)

    def redact(self, text: str) -> str:
        for secret in sorted({self.api_key, *url_secrets(self.base_url)} - {""}, key=len, reverse=True):
            text = text.replace(secret, "***")
        return text


def _registry():
    from swords_baselines.system import SYSTEMS

    return SYSTEMS


def importable(name: str) -> bool:
    try:
        _registry().get(name)
        return True
    except (SwordsError, ImportError):  # not registered, or its extra dependencies are missing
        return False


_availability: dict[str, str | None] = {}
_availability_lock = threading.Lock()


def unavailable_reason(name: str) -> str | None:
    """Why a system cannot run here with its default options (None: it can), decided once: its extra is
    not installed, or its model or data file is not on this machine. Cheap: nothing is loaded."""
    with _availability_lock:
        if name not in _availability:
            if name == LOCAL_LLM:
                from swords_baselines.llm.engine import unavailable_reason as engine_unavailable

                _availability[name] = engine_unavailable()
                return _availability[name]
            try:
                cls = _registry().get(name)
                _availability[name] = cls.unavailable_reason()
            except SwordsError as error:
                _availability[name] = str(error)
            except ImportError as error:
                _availability[name] = f"needs {error.name}"
        return _availability[name]


def _names() -> list[str]:
    return [*_registry().entries, LOCAL_LLM]


def available_systems() -> list[str]:
    """Registered systems that can run here, the preferred offline ones first."""
    try:
        names = _names()
    except ImportError:
        return []
    ordered = [name for name in PREFERRED if name in names] + [name for name in names if name not in PREFERRED]
    return [name for name in ordered if unavailable_reason(name) is None]


def unavailable_systems() -> dict[str, str]:
    """Registered systems that cannot run here, and why."""
    try:
        names = _names()
    except ImportError:
        return {}
    return {name: reason for name in names if (reason := unavailable_reason(name)) is not None}


def default_system() -> str | None:
    """wordnet+embedding; if it is not registered or importable, the first available of PREFERRED, else
    the first available at all."""
    available = available_systems()
    for name in PREFERRED:
        if name in available:
            return name
    return available[0] if available else None


def describe(name: str) -> str:
    if name == LOCAL_LLM:
        return LOCAL_LLM_NOTE
    try:
        cls = _registry().get(name)
    except (SwordsError, ImportError) as error:
        return f"unavailable: {error}"
    return cls.description


class _Gate:
    """Many predictions at once, or one system's first build alone. A first build imports torch and
    transformers; `datasets` (which the oracles use) looks such modules up in sys.modules while hashing,
    and a half-imported one makes it fail (AttributeError on transformers.PreTrainedTokenizerBase)."""

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
    with (_gate.shared() if name in _built else _gate.exclusive()):
        yield
    _built.add(name)


def _lock_for(name: str) -> threading.Lock:
    with _registry_lock:
        return _instance_locks.setdefault(name, threading.Lock())


def get_system(name: str):
    """The shared instance of an offline system, built with its default options on first use (a model
    loads once); systems are not assumed thread-safe, so callers hold `lock_for(name)` while predicting."""
    lock = _lock_for(name)
    with lock:
        system = _instances.get(name)
        if system is None:
            try:
                with _building(name):
                    if name == LOCAL_LLM:
                        cls = _registry().get(LLM_SYSTEM)
                        options = {option.name: option.default for option in cls.options}
                        system = cls(**{**options, **LOCAL_LLM_OPTIONS})
                    else:
                        cls = _registry().get(name)
                        system = cls(**{option.name: option.default for option in cls.options})
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


def _run(system, name: str, row: dict, redact=lambda text: text) -> list[tuple[str, float]]:
    try:
        covered = system.covers([row])
        if not covered:
            raise SystemFailure(f"{name} has no answer for this target ({system.description}).")
        answers = dict(system.predict(covered))
    except SystemFailure:
        raise
    except SwordsError as error:
        raise SystemFailure(redact(str(error))) from None
    except Exception as error:  # a bug or an unexpected failure inside a system: a message, not a traceback
        log.error("%s failed on %s: %s", name, row.get("id"), redact(f"{type(error).__name__}: {error}"))
        raise SystemFailure(f"{name} failed: {redact(f'{type(error).__name__}: {error}')}") from None
    return [(str(word), float(score)) for word, score in answers.get(row["id"], [])]


def predict(name: str, row: dict, llm: LLMSettings | None = None) -> list[tuple[str, float]]:
    """Ranked (substitute, score) of one system for one row."""
    if name == LLM_SYSTEM:
        return predict_llm(row, llm)
    system = get_system(name)
    with _lock_for(name), _gate.shared():
        return _run(system, name, row)


def _build_llm(settings: LLMSettings, tokenizer: str | None = None):
    cls = _registry().get(LLM_SYSTEM)
    return cls(
        model=settings.model,
        base_url=settings.base_url,
        mode=settings.mode,
        api_key_env=_NO_ENV_KEY,
        cache_dir="off",  # a shared response cache would hand one session's answers to another
        timeout=LLM_TIMEOUT,
        max_retries=0,
        abort_after=1,
        concurrency=1,
        tokenizer=tokenizer,
    )


def _give_key(system, api_key: str) -> None:
    """Hand the session's key to this system's own client, in memory, so it is never put in os.environ
    (shared by every session of the process) nor read from it."""
    client = getattr(system, "client", None)
    if client is None or not hasattr(client, "use_api_key"):
        raise SystemFailure("this version of the llm system cannot take a per-session API key")
    client.use_api_key(api_key)


def predict_llm(row: dict, settings: LLMSettings | None) -> list[tuple[str, float]]:
    if settings is None or not settings.ready:
        raise SystemFailure("The llm system needs an API key and a base URL: set them under “LLM settings” first.")
    if unavailable_reason(LLM_SYSTEM):
        raise SystemFailure(f"the llm system is not available here: {unavailable_reason(LLM_SYSTEM)}")
    try:
        with _building(LLM_SYSTEM):
            try:
                system = _build_llm(settings)
            except SwordsError as error:
                if "no known tokenizer" not in str(error):
                    raise
                # Any other model: its tokenizer only sizes the few-shot prompt, a common one does.
                system = _build_llm(settings, tokenizer="cl100k_base")
    except SwordsError as error:
        raise SystemFailure(settings.redact(f"llm cannot start: {error}")) from None
    except ImportError as error:
        raise SystemFailure(f"the llm system needs {error.name}") from None
    try:
        _give_key(system, settings.api_key)
        try:
            with _gate.shared():
                return _run(system, LLM_SYSTEM, row, settings.redact)
        except SystemFailure as error:
            reason = getattr(system, "failed", {}).get(row["id"])
            if reason:  # the request's own failure reads better than the batch summary
                raise SystemFailure(
                    settings.redact(f"The LLM at {public_url(settings.base_url)} did not answer: {reason}")
                ) from None
            raise error
    finally:
        try:
            system.close()
        except Exception:  # closing a half-open connection must not hide the answer or the real error
            pass
