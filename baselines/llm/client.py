"""Requests to an OpenAI-compatible API through the `openai` client, with bounded concurrency, our own retries
(retry.py), a circuit breaker (breaker.py) and an on-disk cache (cache.py). No credential (the key, a password or
query string in the base URL) reaches a cache key, file or message: all passes through the client's Redactor.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from swords_baselines.llm.breaker import CircuitBreaker
from swords_baselines.llm.cache import ResponseCache
from swords_baselines.llm.errors import BadOutput, FatalAPIError, ServerDown, TargetFailed
from swords_baselines.llm.parse import extract
from swords_baselines.llm.retry import MAX_TOTAL_WAIT, Backoff, classify, described, note_headers
from swords_baselines.llm.usage import Usage
from swords_lexsub.credentials import Redactor, public_url, url_secrets
from swords_lexsub.errors import SwordsError
from swords_lexsub.extras import import_failure
from swords_lexsub.http_client import bounded_client
from swords_lexsub.proxies import check_proxy, proxy_secrets
from swords_lexsub.urls import SPACES, url_problem

DEFAULT_BASE_URL = "https://api.openai.com/v1"
CONNECT_TIMEOUT = 10.0  # seconds to open a connection: a host that does not accept one is not slow, it is down
PLACEHOLDER_KEY = "EMPTY"  # sent to servers other than OpenAI's when no key is set (local servers take any)


@dataclass
class Reply:
    text: str
    finish_reason: str | None
    response: dict
    cached: bool
    attempts: int = 1


def check_base_url(url: str, what: str = "--base-url") -> str:
    """An API base URL as the client can use it, or one SwordsError naming what is wrong (without credentials)."""
    problem = url_problem(url, ("http", "https"))
    if problem is not None:  # the URL as given, escaped (a newline in it is shown as \n: urlsplit would drop it)
        shown = public_url(url)
        raise SwordsError(f"llm: {what} {repr(shown) if problem == SPACES else shown}: {problem}")
    return url


def effective_base_url(base_url: str | None) -> str:
    """The base URL requests go to: --base-url, else $OPENAI_BASE_URL (checked as --base-url is), else OpenAI's."""
    if base_url:
        return base_url.rstrip("/")
    environment = os.environ.get("OPENAI_BASE_URL")
    return check_base_url(environment, "$OPENAI_BASE_URL").rstrip("/") if environment else DEFAULT_BASE_URL


def check_server_proxy(base_url: str, command: str = "llm") -> None:
    """Before any request: the environment's proxy for the server, if any, can be used (else one SwordsError)."""
    try:
        check_proxy(base_url)
    except SwordsError as error:
        raise SwordsError(f"{command}: {error}") from None


def is_openai(base_url: str) -> bool:
    return urlsplit(base_url).hostname == urlsplit(DEFAULT_BASE_URL).hostname


def api_key(base_url: str, api_key_env: str, session_key: str | None = None) -> str:
    """The session's key, else the environment's; required by OpenAI's API, else a placeholder (a server may 401)."""
    key = session_key or os.environ.get(api_key_env)
    if key:
        return key
    if is_openai(base_url):
        raise FatalAPIError(
            f"environment variable {api_key_env} is not set (the API key; choose another with --api-key-env)"
        )
    return PLACEHOLDER_KEY


class LLMClient:
    """Sends chat or completion requests with bounded concurrency, retries and a cache."""

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        session_key: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 6,
        backoff: Backoff | None = None,
        concurrency: int = 16,
        cache: ResponseCache | None = None,
        cache_identity: str | None = None,
        on_retry: Callable[[Usage, str, float], None] | None = None,
        keep: Callable[[dict, str], bool] | None = None,
        direct: bool = False,
    ) -> None:
        if concurrency < 1:
            raise SwordsError("concurrency must be at least 1")
        self.base_url = effective_base_url(base_url)
        self.api_key_env, self.session_key = api_key_env, session_key
        self.timeout, self.max_retries = timeout, max_retries
        self.backoff = backoff or Backoff()
        self.concurrency = concurrency
        self.cache = cache or ResponseCache(None)
        self.cache_identity = cache_identity  # what the cache keys answers by besides the request (default: server)
        self.on_retry = on_retry  # told of every retry and its wait as it starts (the runner shows them live)
        self.keep = keep  # whether a fresh answer (request body, text) is worth caching; None: all are
        self.usage = Usage()
        self.breaker = CircuitBreaker()
        # The key's every 8-character piece, in any case, and the proxy's credentials (a server or proxy may echo).
        self.redactor = Redactor(tokens=url_secrets(self.base_url) | proxy_secrets())
        self.direct = direct  # no proxy: the embedded engine, on this machine's loopback
        key = session_key or os.environ.get(api_key_env)
        if key != PLACEHOLDER_KEY:  # known before any answer, a cached one too
            self.redactor.add_token(key)
        self._client = None
        self._semaphore: asyncio.Semaphore | None = None

    @property
    def public_base_url(self) -> str:
        return public_url(self.base_url)

    def redact(self, text: str) -> str:
        return self.redactor.redact(text)

    def api_key(self) -> str:
        return api_key(self.base_url, self.api_key_env, self.session_key)

    def _openai(self):
        if self._client is None:
            try:
                import httpx
                import openai
            except ImportError as error:  # the module that is missing, not always openai (httpx: issue 40)
                raise import_failure("the LLM client", error, "llm") from None
            key = self.api_key()
            if key != PLACEHOLDER_KEY:
                self.redactor.add_token(key)
            http = bounded_client(  # no body past MAX_BODY_BYTES is read
                httpx,
                asynchronous=True,
                inner=httpx.AsyncHTTPTransport() if self.direct else None,
                timeout=httpx.Timeout(self.timeout, connect=min(self.timeout, CONNECT_TIMEOUT)),
                event_hooks={"response": [note_headers]},
            )
            # A query string in the base URL (some gateways take a token there) goes on every request.
            parts = urlsplit(self.base_url)
            base_url = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
            self._client = openai.AsyncOpenAI(
                base_url=base_url,
                api_key=key,
                max_retries=0,
                http_client=http,
                default_query=dict(parse_qsl(parts.query)) or None,
            )
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    async def request(self, endpoint: str, body: dict) -> Reply:
        """The reply, cached or with retries, else TargetFailed or FatalAPIError (all fail); empty ones: not cached."""
        key = self.cache.key(endpoint, self.cache_identity or self.base_url, body)
        record = self.cache.get(key)  # a dict holding a "response" object, or None
        if record is not None:
            try:
                text, finish_reason = extract(endpoint, record["response"])
                self.usage.cache_hits += 1
                return Reply(self.redact(text), finish_reason, record["response"], cached=True)
            except BadOutput:
                pass  # a bad cached record is asked again and replaced
        client = self._openai()
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.concurrency)
        last_error, waited = "", 0.0
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
                kept = text.strip() and (self.keep is None or self.keep(body, text))
                record = self._record(endpoint, body, data) if kept else None
                if record is not None:
                    self.cache.put(key, record)
                # The text as every caller shows or keeps it: a server that echoes a credential into it is not quoted.
                return Reply(self.redact(text), finish_reason, data, cached=False, attempts=attempt + 1)
            except BadOutput as error:
                last_error = self.redact(str(error))
                if sent_at is not None:
                    self.breaker.failed(sent_at, lambda n, e=last_error: self._down(n, e))
            except ServerDown:
                raise
            except Exception as error:  # classified: retried, or raised as fatal / this target's failure
                failure = classify(error, self.timeout, self.public_base_url, self.redact)
                retry_after, last_error = failure.retry_after, failure.message
                if failure.server_side and sent_at is not None:
                    self.breaker.failed(sent_at, lambda n, e=last_error, w=failure.who: self._down(n, e, w))
            if attempt == self.max_retries:
                break
            wait = self.backoff.wait(attempt, retry_after)
            if retry_after is not None and waited + wait > MAX_TOTAL_WAIT:
                # "Come back in 11 days": no run waits that long, and every other request would be told the same.
                self.breaker.trip(
                    f"the server at {self.public_base_url} asks to wait {retry_after:,.0f} s before the next request "
                    f"({last_error}), past the {MAX_TOTAL_WAIT:g} s a request may wait in all; no more are sent"
                )
            if waited >= MAX_TOTAL_WAIT:
                break
            wait = min(wait, MAX_TOTAL_WAIT - waited)
            waited += wait
            self.usage.retries += 1
            self.usage.waits.append(wait)
            if self.on_retry is not None:
                self.on_retry(self.usage, last_error, wait)
            await asyncio.sleep(wait)
        attempts = attempt + 1
        raise TargetFailed(self.redact(f"{last_error} (after {attempts} attempt{'s' * (attempts > 1)})"))

    def failure(self, error: Exception) -> str:
        """What a failed request's exception means, in a few words without credentials (retry.described)."""
        return described(error, self.timeout, self.public_base_url, self.redact)

    async def models(self, seconds: float | None = None) -> object:
        """The server's GET /models body as JSON, asked once, waited for `seconds` (None: twice the timeout)."""
        client = self._openai()  # its imports take seconds on a busy machine: not counted in the wait
        async with asyncio.timeout(seconds or 2 * self.timeout):
            raw = await client.models.with_raw_response.list()
        return json.loads(raw.http_response.content)

    async def _send(self, client, endpoint: str, body: dict) -> object:
        """The response body as JSON (at most MAX_BODY_BYTES), the whole exchange bounded by twice the timeout, so
        a server that trickles its answer cannot hold the request forever."""
        api = client.chat.completions if endpoint == "chat" else client.completions
        try:
            async with asyncio.timeout(2 * self.timeout):
                raw = await api.with_raw_response.create(**body)
        except TimeoutError:
            raise BadOutput(
                f"the response had not arrived after {2 * self.timeout:g} s (twice the timeout: "
                "the server sends it too slowly)"
            ) from None
        try:  # NaN or Infinity (no JSON, but some servers write them) are read, for the usage check to name them
            return json.loads(raw.http_response.content)
        except (ValueError, RecursionError):
            kind = raw.http_response.headers.get("content-type", "unknown type")
            raise BadOutput(f"response body is not JSON ({kind}, HTTP {raw.http_response.status_code})") from None

    def _down(self, failures: int, last_error: str, who: str | None = None) -> str:
        """The circuit breaker's line: who is down (the server, or the proxy in front of it) and the last failure."""
        state = "is not answering" if "timed out" in last_error or "connect" in last_error else "keeps failing"
        who = who or f"the server at {self.public_base_url}"
        return f"{who} {state}: {failures} requests in a row failed (last: {last_error}); no more are sent"

    def _record(self, endpoint: str, body: dict, data: object) -> dict | None:
        """What the cache keeps of an answer, redacted; None for one that is not strict JSON (used, not kept)."""
        record = {"endpoint": endpoint, "base_url": self.public_base_url, "request": body, "response": data}
        try:
            text = json.dumps(record, allow_nan=False)  # ASCII: a lone surrogate stays an escape, as it came
        except ValueError:
            return None
        redacted = self.redact(text)
        # A server that echoes a credential into its response must not put it on disk.
        return record if redacted == text else json.loads(redacted)
