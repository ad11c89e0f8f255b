"""Requests to an OpenAI-compatible API: the official `openai` client, our own retries, an on-disk cache.

Retries are ours (the client's are switched off) so that every policy is explicit and tested: 429, 5xx,
408/409, timeouts, connection errors and malformed bodies are retried with exponential backoff and jitter,
waiting exactly what a Retry-After header asks; 400/422 fail the one target; 401/403/404 stop the run.
A circuit breaker stops the whole run when the server is down: once several requests in a row have failed
on the server's side (timeouts, refused or cut connections, 5xx, unusable bodies) with no answer in
between, or such failures have gone on for two minutes, no further request is sent.
The cache is keyed by a hash of everything that decides the answer (endpoint, base URL, full request body)
and holds the response as the server sent it; no credential (the API key, a password or query string in
the base URL) is ever part of a key, a file or a message.
"""

from __future__ import annotations

import asyncio
import email.utils
import hashlib
import json
import os
import random
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from swords_dataset.errors import SwordsError

from ..urls import public_url, url_secrets

DEFAULT_BASE_URL = "https://api.openai.com/v1"
CACHE_VERSION = 1
MAX_BACKOFF = 60.0  # seconds: the longest exponential wait between two attempts
MAX_RETRY_AFTER = 600.0  # seconds: a longer Retry-After is a misconfigured server; we wait this much
CONNECT_TIMEOUT = 10.0  # seconds to open a connection: a host that does not accept one is not slow, it is down
DOWN_AFTER_FAILURES = 8  # server-side failures in a row (no answer in between) that mean the server is down
DOWN_AFTER_SECONDS = 120.0  # or: failures in a row for this long (low concurrency, long timeouts)


class FatalAPIError(SwordsError):
    """An error no retry or other target can fix (bad key, unknown model or URL): the run stops."""


class ServerDown(FatalAPIError):
    """The circuit breaker tripped: the server keeps failing, so nothing more is sent to it."""


class TargetFailed(Exception):
    """One request failed for good (after its retries, or at once for a request the server rejects)."""


class BadOutput(Exception):
    """A 2xx response that is not a usable completion (not JSON, no choices, empty text)."""


@dataclass
class Reply:
    text: str
    finish_reason: str | None
    response: dict
    cached: bool
    attempts: int = 1


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


def effective_base_url(base_url: str | None) -> str:
    return (base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")


class CircuitBreaker:
    """Decides that a server is down: DOWN_AFTER_FAILURES server-side failures in a row, or failures in a
    row for DOWN_AFTER_SECONDS. Only requests sent after the last answer count, so that requests that
    waited in a busy server's queue and timed out while others were answered do not."""

    def __init__(self, failures: int = DOWN_AFTER_FAILURES, seconds: float = DOWN_AFTER_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.failures, self.seconds, self.clock = failures, seconds, clock
        self.last_answer = float("-inf")
        self.streak, self.first_failure = 0, None
        self.tripped: str | None = None  # the message, once tripped

    def check(self) -> None:
        if self.tripped:
            raise ServerDown(self.tripped)

    def answered(self) -> None:
        self.last_answer = self.clock()
        self.streak, self.first_failure = 0, None

    def failed(self, sent_at: float, describe: Callable[[int], str]) -> None:
        """Record a server-side failure of a request sent at `sent_at`; trip (and raise) if the server is down."""
        if sent_at < self.last_answer or self.tripped:
            self.check()
            return
        now = self.clock()
        self.streak += 1
        self.first_failure = now if self.first_failure is None else self.first_failure
        if self.streak >= self.failures or (self.streak >= 2 and now - self.first_failure >= self.seconds):
            self.tripped = describe(self.streak)
            self.check()


def extract(endpoint: str, data: object) -> tuple[str, str | None]:
    """The completion text and finish reason of a response body, or BadOutput saying what is wrong."""
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
    if not text.strip():
        raise BadOutput("empty completion")
    return text, choice.get("finish_reason")


class ResponseCache:
    """One JSON file per request under `folder`, written atomically (temp file + rename)."""

    def __init__(self, folder: str | Path | None) -> None:
        self.folder = Path(folder).expanduser() if folder else None

    @staticmethod
    def key(endpoint: str, base_url: str, body: dict) -> str:
        identity = {"v": CACHE_VERSION, "endpoint": endpoint, "base_url": public_url(base_url), "body": body}
        return hashlib.sha256(json.dumps(identity, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    def path(self, key: str) -> Path | None:
        return self.folder / key[:2] / f"{key}.json" if self.folder else None

    def get(self, key: str) -> dict | None:
        path = self.path(key)
        if path is None or not path.is_file():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return None  # unreadable (e.g. a foreign file): asked again and overwritten

    def put(self, key: str, record: dict) -> None:
        path = self.path(key)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as f:
                json.dump(record, f, ensure_ascii=False)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    """Retry-After as seconds (a number or an HTTP date), or OpenAI's retry-after-ms; None if absent."""
    if headers is None:
        return None
    milliseconds = headers.get("retry-after-ms")
    if milliseconds:
        try:
            return max(0.0, float(milliseconds) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class LLMClient:
    """Sends chat or completion requests with bounded concurrency, retries and a cache."""

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        timeout: float = 60.0,
        max_retries: int = 6,
        backoff: float = 1.0,
        concurrency: int = 16,
        cache: ResponseCache | None = None,
        log: Callable[[str], None] = print,
        rng: random.Random | None = None,
        cache_identity: str | None = None,
        on_retry: Callable[[Usage, str], None] | None = None,
    ) -> None:
        if concurrency < 1:
            raise SwordsError("concurrency must be at least 1")
        self.base_url = effective_base_url(base_url)
        self.api_key_env = api_key_env
        self.timeout, self.max_retries, self.backoff = timeout, max_retries, backoff
        self.concurrency = concurrency
        self.cache = cache or ResponseCache(None)
        # What the cache keys answers by, besides the request: the server (its public URL) by default.
        self.cache_identity = cache_identity
        self.log = log
        self.on_retry = on_retry  # told of every retry as it starts (the runner shows them live)
        self.usage = Usage()
        self.breaker = CircuitBreaker()
        self._rng = rng or random.Random()
        self._client = None
        self._secrets: set[str] = url_secrets(self.base_url)
        self._api_key: str | None = None
        self._semaphore: asyncio.Semaphore | None = None

    @property
    def public_base_url(self) -> str:
        return public_url(self.base_url)

    def use_api_key(self, key: str) -> None:
        """Use this key instead of the environment's: held in this object's memory only (e.g. one web
        session's key in the Space, which must not go into the process-wide environment)."""
        self._api_key = key
        self._client = None

    # -- secrets --

    def redact(self, text: str) -> str:
        """Messages and completions may quote a server's error body or echo the request, and with it a
        credential (the key, or a password or token of the base URL): none ever gets printed or stored."""
        for secret in sorted(self._secrets, key=len, reverse=True):
            text = text.replace(secret, "***")
        return text

    def api_key(self) -> str:
        """The key to send: the session's, else the environment's. OpenAI's API needs one (a missing key is
        an error before anything is sent); any other server gets a placeholder if none is set, as local
        servers (vLLM, llama.cpp) take any key and a server that wants one answers 401."""
        key = self._api_key or os.environ.get(self.api_key_env)
        if key:
            return key
        if urlsplit(self.base_url).hostname == urlsplit(DEFAULT_BASE_URL).hostname:
            raise FatalAPIError(
                f"environment variable {self.api_key_env} is not set (the API key; choose another with --api-key-env)"
            )
        return "EMPTY"

    def _openai(self):
        if self._client is None:
            try:
                import httpx
                import openai
            except ImportError:
                raise SwordsError("the llm system needs openai: pip install 'swords-lexsub[llm]'") from None
            key = self.api_key()
            # Placeholders such as "EMPTY" for keyless local servers are no secret; redacting them would
            # mangle ordinary words in responses and messages.
            if len(key) >= 8:
                self._secrets.add(key)
            http = httpx.AsyncClient(
                timeout=httpx.Timeout(self.timeout, connect=min(self.timeout, CONNECT_TIMEOUT)),
                event_hooks={"response": [_note_headers]},
            )
            # A query string in the base URL (some gateways take a token there) goes on every request.
            parts = urlsplit(self.base_url)
            base_url = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
            self._client = openai.AsyncOpenAI(base_url=base_url, api_key=key, max_retries=0, http_client=http,
                                              default_query=dict(parse_qsl(parts.query)) or None)
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    # -- requests --

    async def request(self, endpoint: str, body: dict) -> Reply:
        """The reply to one request: from the cache, else from the API with retries. Raises TargetFailed
        (this request is hopeless) or FatalAPIError (no request will succeed)."""
        key = self.cache.key(endpoint, self.cache_identity or self.base_url, body)
        record = self.cache.get(key)
        if record is not None:
            try:
                text, finish_reason = extract(endpoint, record.get("response"))
                self.usage.cache_hits += 1
                return Reply(text, finish_reason, record["response"], cached=True)
            except BadOutput:
                pass  # a bad cached record is asked again and replaced
        client = self._openai()
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.concurrency)
        last_error = ""
        for attempt in range(self.max_retries + 1):
            retry_after, sent_at = None, None
            try:
                async with self._semaphore:  # only the HTTP exchange counts as in flight, not the waits
                    self.breaker.check()  # a server found down gets nothing more
                    sent_at = self.breaker.clock()
                    self.usage.requests += 1
                    data = await self._send(client, endpoint, body)
                text, finish_reason = extract(endpoint, data)
                self.breaker.answered()
                self.cache.put(key, self._record(endpoint, body, data))
                return Reply(text, finish_reason, data, cached=False, attempts=attempt + 1)
            except BadOutput as error:
                last_error = self.redact(str(error))
                if sent_at is not None:
                    self.breaker.failed(sent_at, lambda n, e=last_error: self._down(n, e))
            except ServerDown:
                raise
            except Exception as error:  # classified below; anything unknown is fatal
                retry_after, last_error, server_side = self._classify(error)
                if server_side and sent_at is not None:
                    self.breaker.failed(sent_at, lambda n, e=last_error: self._down(n, e))
            if attempt == self.max_retries:
                break
            wait = self._wait(attempt, retry_after)
            self.usage.retries += 1
            self.usage.waits.append(wait)
            if self.on_retry is not None:
                self.on_retry(self.usage, last_error)
            await asyncio.sleep(wait)
        attempts = self.max_retries + 1
        raise TargetFailed(self.redact(f"{last_error} (after {attempts} attempt{'s' * (attempts > 1)})"))

    async def _send(self, client, endpoint: str, body: dict) -> object:
        api = client.chat.completions if endpoint == "chat" else client.completions
        raw = await api.with_raw_response.create(**body)
        try:
            return json.loads(raw.http_response.text)
        except (json.JSONDecodeError, UnicodeDecodeError):
            kind = raw.http_response.headers.get("content-type", "unknown type")
            raise BadOutput(f"response body is not JSON ({kind}, HTTP {raw.http_response.status_code})") from None

    def _down(self, failures: int, last_error: str) -> str:
        state = "is not answering" if "timed out" in last_error or "connect" in last_error else "keeps failing"
        return (
            f"the server at {self.public_base_url} {state}: {failures} requests in a row failed (last: {last_error}); "
            "no more are sent"
        )

    def _classify(self, error: Exception) -> tuple[float | None, str, bool]:
        """(Retry-After seconds, message, whether the server is at fault) for a retryable error; raises
        for the others."""
        import openai

        if isinstance(error, openai.APITimeoutError):
            headers = _headers_seen(error)
            if headers is not None:
                status, length = headers
                announced = f"{length} bytes" if length is not None else "a body"
                return None, (
                    f"the response stalled: HTTP {status} announced {announced}, then nothing came for "
                    f"{self.timeout:g} s (timed out)"
                ), True
            return None, f"timed out after {self.timeout:g} s with no response from {self.public_base_url}", True
        if isinstance(error, openai.APIConnectionError):
            cause = error.__cause__
            if cause is not None and "complete message body" in str(cause):
                return None, f"the response was cut short: {self.redact(str(cause))}", True
            detail = self.redact(str(cause or error)) or type(cause or error).__name__
            return None, f"cannot connect to {self.public_base_url} ({detail})", True
        if isinstance(error, openai.APIStatusError):
            status = error.status_code
            message = self.redact(f"HTTP {status}: {error.message}")
            if status in (401, 403, 404):
                raise FatalAPIError(f"{message} ({self.public_base_url})") from None
            if status == 429:
                return retry_after_seconds(error.response.headers), message, False
            if status >= 500 or status in (408, 409):
                return retry_after_seconds(error.response.headers), message, True
            raise TargetFailed(message) from None
        raise FatalAPIError(self.redact(f"unexpected {type(error).__name__}: {error}")) from None

    def _wait(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, MAX_RETRY_AFTER)  # the server said when: exactly that, no guessing
        # Exponential backoff with "equal jitter": at least half the step, so waits still grow, while
        # concurrent requests that failed together spread out instead of retrying in lockstep.
        step = min(MAX_BACKOFF, self.backoff * 2**attempt)
        return step / 2 + self._rng.uniform(0, step / 2)

    def _record(self, endpoint: str, body: dict, data: object) -> dict:
        record = {"endpoint": endpoint, "base_url": self.public_base_url, "request": body, "response": data}
        text = json.dumps(record)
        redacted = self.redact(text)
        # A server that echoes a credential into its response must not put it on disk.
        return record if redacted == text else json.loads(redacted)


_HEADERS_SEEN = "swords_response_headers"


async def _note_headers(response) -> None:
    """httpx response hook, run when a response's headers arrive: remembered on the request, so that a
    timeout while reading the body can be told from a server that never answered."""
    length = response.headers.get("content-length")
    response.request.extensions[_HEADERS_SEEN] = (response.status_code, int(length) if length and
                                                  length.isdigit() else None)


def _headers_seen(error: Exception) -> tuple[int, int | None] | None:
    request = getattr(error, "request", None)
    return request.extensions.get(_HEADERS_SEEN) if request is not None else None
