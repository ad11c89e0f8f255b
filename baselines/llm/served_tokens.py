"""The serving model's own tokenizer, asked through its server (llama.cpp's or vLLM's /tokenize), and the
choice of the tokenizer that counts a prompt's budget."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from contextlib import suppress

from swords_baselines.llm.errors import ServerUnreachable, UnknownTokenizer
from swords_baselines.llm.tokens import ENCODINGS, Tokenizer, encoding_for_model, get_tokenizer
from swords_lexsub.credentials import public_url
from swords_lexsub.errors import SwordsError
from swords_lexsub.http_client import MAX_BODY_BYTES, BodyTooLarge, bounded_client, proxied_transport, proxy_of


class ServerTokenizer(Tokenizer):
    """The served model's own tokenizer through its server's /tokenize: a prompt's budget exact for any model."""

    def __init__(self, base_url: str, model: str, flavor: str, timeout: float = 10.0, direct: bool = False) -> None:
        root = base_url.rstrip("/")
        self.root = root[: -len("/v1")] if root.endswith("/v1") else root
        self.model, self.flavor, self.timeout = model, flavor, timeout
        self.direct = direct  # no proxy: the embedded engine, on this machine's loopback
        self._http = None
        super().__init__(f"{flavor} /tokenize of {model}", lambda text: self._tokenize(text, special=False))
        self.prompt_overhead = len(self._tokenize("a", special=True)) - len(self._tokenize("a", special=False))
        if flavor == "llama.cpp":
            with suppress(SwordsError):
                eos = self._post("/props", None).get("eos_token")
                ids = self._tokenize(eos, special=False, parse_special=True) if isinstance(eos, str) and eos else []
                self.end_of_text = ids[0] if len(ids) == 1 else None

    def _post(self, path: str, body: dict | None) -> dict:
        """The server's JSON object at `path` (POSTed `body`, or a GET), read within twice the timeout."""
        import httpx

        if self._http is None:
            # No connection kept open between requests (as urllib did): llama.cpp's HTTP server holds one of its few
            # threads for each open connection, which the completions need.
            limits = httpx.Limits(max_keepalive_connections=0)
            once = httpx.HTTPTransport(limits=limits) if self.direct else proxied_transport(httpx, limits=limits)
            self._http = bounded_client(httpx, inner=once, timeout=self.timeout, follow_redirects=True)
        seconds, started = 2 * self.timeout, time.monotonic()
        try:
            with self._http.stream("GET" if body is None else "POST", self.root + path, json=body) as response:
                if response.status_code >= 400:
                    raise SwordsError(f"the server's {path} answered HTTP {response.status_code}")
                chunks = []
                for chunk in response.iter_bytes():
                    chunks.append(chunk)
                    if time.monotonic() - started > seconds:
                        raise ServerUnreachable(f"its {path}: no whole answer within {seconds:g} s")
            answer = json.loads(b"".join(chunks))
        except SwordsError:  # said above (a ValueError too)
            raise
        except BodyTooLarge:
            raise SwordsError(f"the server's {path} answered more than {MAX_BODY_BYTES // 2**20} MB") from None
        except ValueError:  # an answer, but not JSON: not this flavor's endpoint
            raise SwordsError(f"the server's {path} answered something other than JSON") from None
        except httpx.HTTPError as error:  # no answer: refused, timed out, reset
            raise ServerUnreachable(f"its {path}{_through(error)}: {_reason(error)}") from None
        if not isinstance(answer, dict):
            raise SwordsError(f"the server's {path} answered something other than a JSON object")
        return answer

    def _tokenize(self, text: str, special: bool, parse_special: bool = False) -> list[int]:
        if self.flavor == "llama.cpp":
            body = {"content": text, "add_special": special, "parse_special": parse_special}
        else:
            body = {"model": self.model, "prompt": text, "add_special_tokens": special}
        tokens = self._post("/tokenize", body).get("tokens")
        if not isinstance(tokens, list):
            raise SwordsError("the server's /tokenize answered without tokens")
        return [t["id"] if isinstance(t, dict) else t for t in tokens]

    def count_chat(self, messages: Sequence[dict]) -> int:
        """The exact prompt the server makes of these messages with its chat template, counted."""
        if self.flavor == "llama.cpp":
            prompt = self._post("/apply-template", {"messages": list(messages)}).get("prompt")
            if not isinstance(prompt, str):
                raise SwordsError("the server's /apply-template answered without a prompt")
            return len(self._tokenize(prompt, special=True, parse_special=True))
        answer = self._post(
            "/tokenize", {"model": self.model, "messages": list(messages), "add_generation_prompt": True}
        )
        return answer["count"] if isinstance(answer.get("count"), int) else len(answer.get("tokens") or [])


def _through(error: Exception) -> str:
    """ ", through the proxy http://… (HTTPS_PROXY)" when the request went through one."""
    try:
        proxy = proxy_of(error.request)
    except RuntimeError:  # an httpx error without its request
        proxy = None
    return f", through {proxy}" if proxy is not None else ""


def _reason(error: Exception) -> str:
    """What the socket said ("Connection refused"), else the client's own words ("timed out")."""
    cause = error
    while cause is not None:
        if isinstance(cause, OSError) and cause.strerror:
            return cause.strerror
        cause = cause.__cause__ or cause.__context__
    return str(error) or type(error).__name__


def server_tokenizer(base_url: str, model: str, timeout: float = 5.0, direct: bool = False) -> ServerTokenizer | None:
    """The server's /tokenize as a tokenizer, else None; ServerUnreachable without an answer within `timeout`."""
    for flavor in ("llama.cpp", "vllm"):
        try:
            tokenizer = ServerTokenizer(base_url, model, flavor, timeout, direct)
            if tokenizer.encode("lexical substitution"):
                return tokenizer
        except ServerUnreachable:  # no answer at all (refused, timed out): no other flavor will do better
            raise
        except SwordsError:  # an answer, but not this flavor's
            continue
    return None


def choose_tokenizer(model: str, tokenizer: str | None, base_url: str, local: bool = False) -> Tokenizer:
    """The budget's tokenizer: --tokenizer, the engine's, tiktoken's (OpenAI's models), the server's, else an error."""
    if tokenizer:
        return get_tokenizer(model, tokenizer)
    if not local and encoding_for_model(model) is not None:
        return get_tokenizer(model)
    where = public_url(base_url)
    try:
        served = server_tokenizer(where, model, direct=local)
    except ServerUnreachable as error:
        served, why = None, f"the server at {where} does not answer ({error})"
    else:
        why = f"the server at {where} offers no /tokenize"
    if served is not None:
        return served
    if local:
        raise SwordsError(f"the local engine did not answer /tokenize: {why}")
    raise UnknownTokenizer(
        f"no known tokenizer for model {model!r}, and {why}",
        hint=f"pass --tokenizer with an encoding ({', '.join(ENCODINGS)}) or the model's tokenizer.json",
    )
