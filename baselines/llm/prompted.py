"""The SWORDS paper's few-shot prompted LLM baseline (appendix D.5), for any OpenAI-compatible API.

`llm` builds each target's few-shot prompt (prompt.py), sends it through the official `openai` client
with bounded concurrency, retries and an on-disk cache (client.py), and parses the completion into
ranked substitutes (parse.py). Answers are yielded as they complete so the runner checkpoints each one.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import swords_dataset
from swords_dataset.errors import SwordsError

from ..system import Option, Prediction, System
from .client import LLMClient, ResponseCache, ServerDown, TargetFailed
from .engine import DEFAULT_MODEL as DEFAULT_LOCAL_MODEL
from .parse import parse_completion, to_prediction
from .prompt import DEFAULT_SYSTEM_PROMPT, PromptBuilder, chat_token_count
from .tokens import choose_tokenizer

# The SWORDS authors' GPT-3 settings (swords/methods/gpt3.py and the paper's appendix D.5): the few-shot
# prompt in completions mode, 2,048 tokens of context with 128 to generate, temperature 0, presence penalty
# 0.5, newline / carriage return / blank line / end-of-text banned by logit bias ("force longer
# continuations") and the same three as stops, priming examples drawn from SWORDS dev. They are the
# completions mode's defaults; --preset paper also refuses any option that departs from them.
PAPER_PRESET = {"mode": "completions", "temperature": 0.0, "presence_penalty": 0.5, "max_tokens": 128,
                "budget": 2048, "priming": "swords:dev", "force_longer": True}
PAPER_STOPS = ("\n", "\r", "\n\n")

# USD per million tokens (prompt, completion), as OpenAI listed them; pass --price-prompt and
# --price-completion for any other model or when prices change. Unknown models cost 0.
PRICES = {
    "davinci": (60.0, 60.0),  # GPT-3 davinci in 2020, the paper's model ($0.06 per 1K tokens)
    "davinci-002": (2.0, 2.0),
    "babbage-002": (0.4, 0.4),
    "gpt-3.5-turbo-instruct": (1.5, 2.0),
    "gpt-4o": (2.5, 10.0),
    "gpt-4o-mini": (0.15, 0.6),
}


def read_escapes(text: str, what: str) -> str:
    """A string typed on a command line, its backslash escapes read as Python reads them (a newline
    arrives as backslash-n); other characters, é or 😀, stay as they are."""
    import codecs

    try:
        return codecs.decode(text.encode("latin-1", "backslashreplace"), "unicode_escape")
    except UnicodeDecodeError as error:
        raise SwordsError(f"{what} {text!r}: {error.reason} (a backslash starts an escape such as \\n)") from None


def _log(message: str) -> None:
    from tqdm import tqdm

    tqdm.write(message, file=sys.stderr)  # above the runner's progress bar, not through it


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "swords-lexsub" / "llm"


class LLM(System):
    name = "llm"
    description = (
        "few-shot prompted LLM (SWORDS paper, appendix D.5) through an OpenAI-compatible API (any --base-url: "
        "OpenAI, vLLM, llama.cpp…) or a model served on this machine (--local): completions (base models, "
        "as in the paper) or chat"
    )
    batch_size = 256  # the runner's unit; within it requests run concurrently and answers stream back
    requires = ("openai", "tiktoken")
    extra = "llm"
    needs = ("an OpenAI-compatible server: OpenAI's (a key in $OPENAI_API_KEY), any --base-url (vLLM, llama.cpp), "
             "or --local (the local-llm extra)")
    options = (
        Option("model", f"model name (none: davinci-002; with --local: {DEFAULT_LOCAL_MODEL} or a .gguf file)"),
        Option("base_url", "API base URL (none: $OPENAI_BASE_URL, else OpenAI's)", default=None),
        Option("local", "serve the model on this machine (embedded llama.cpp; the local-llm extra)", False, bool),
        Option("parallel", "with --local: requests the engine decodes at once (its slots)", 1, int,
               affects_output=False, minimum=1),
        Option("preset", "paper: upstream's GPT-3 settings, see the README", default="none", choices=("none", "paper")),
        Option("mode", "completions (base models) or chat", default="completions", choices=("completions", "chat")),
        Option("api_key_env", "environment variable holding the API key (never logged or cached)", "OPENAI_API_KEY"),
        Option("concurrency", "requests in flight at most (none: 16; with --local, --parallel)", None, int,
               affects_output=False, minimum=1),
        Option("max_tokens", "tokens to generate at most", default=128, type=int, minimum=1),
        Option("temperature", "sampling temperature", default=0.0, type=float, minimum=0),
        Option("presence_penalty", "presence penalty", default=0.5, type=float, minimum=-2, maximum=2),
        Option("frequency_penalty", "frequency penalty", default=0.0, type=float, minimum=-2, maximum=2),
        Option("stop", "stop sequence ('auto': newline, carriage return and blank line for completions, none "
               "for chat; 'none')", default="auto"),
        Option("budget", "context tokens: prompt plus --max-tokens (priming examples fill it)", default=2048, type=int,
               minimum=2),
        Option("seed", "seed of the priming examples' random order", default=0, type=int),
        Option("priming", "CONFIG:SPLIT the priming examples come from", default="swords:dev"),
        Option("system_prompt", "chat mode's system message ('none' for none)", default="default"),
        Option("force_longer", "ban newline and end-of-text tokens via logit_bias, as upstream did (none: on for "
               "completions, off for chat)", None, bool),
        Option("tokenizer", "tokenizer for the budget: encoding name or tokenizer file (none: the server's "
               "/tokenize if it has one, else from --model)"),
        Option(
            "cache_dir",
            "response cache folder ('off' disables; none: ~/.cache/swords-lexsub/llm)",
            affects_output=False,
        ),
        Option("timeout", "seconds before a request times out", default=60.0, type=float, affects_output=False,
               minimum=0.001),
        Option("max_retries", "retries of a failing request", default=6, type=int, affects_output=False, minimum=0),
        Option(
            "backoff",
            "first retry's wait in seconds (doubling, with jitter)",
            default=1.0,
            type=float,
            affects_output=False,
            minimum=0,
        ),
        Option(
            "abort_after",
            "stop the run after this many targets fail in a row",
            default=5,
            type=int,
            affects_output=False,
            minimum=1,
        ),
        Option(
            "on_failure",
            "a target that keeps failing: abort (rerun to retry it) or empty",
            "abort",
            choices=("abort", "empty"),
        ),
        Option(
            "price_prompt", "USD per million prompt tokens (none: known price or 0)", type=float, affects_output=False,
            minimum=0,
        ),
        Option(
            "price_completion",
            "USD per million completion tokens (none: known price or 0)",
            type=float,
            affects_output=False,
            minimum=0,
        ),
        Option("limit", "answer only the first N targets (0: all)", default=0, type=int, minimum=0),
    )

    def __init__(
        self,
        model: str | None = None,
        base_url: str | None = None,
        local: bool = False,
        parallel: int = 1,
        preset: str = "none",
        mode: str = "completions",
        api_key_env: str = "OPENAI_API_KEY",
        concurrency: int | None = None,
        max_tokens: int = 128,
        temperature: float = 0.0,
        presence_penalty: float = 0.5,
        frequency_penalty: float = 0.0,
        stop: str = "auto",
        budget: int = 2048,
        seed: int = 0,
        priming: str = "swords:dev",
        system_prompt: str = "default",
        force_longer: bool | None = None,
        tokenizer: str | None = None,
        cache_dir: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 6,
        backoff: float = 1.0,
        abort_after: int = 5,
        on_failure: str = "abort",
        price_prompt: float | None = None,
        price_completion: float | None = None,
        limit: int = 0,
        **options,
    ) -> None:
        super().__init__(**options)
        if preset == "paper":
            mode, temperature, presence_penalty, max_tokens, budget, priming, force_longer = self._paper(
                mode=mode, temperature=temperature, presence_penalty=presence_penalty, max_tokens=max_tokens,
                budget=budget, priming=priming, force_longer=force_longer, stop=stop)
        if mode not in ("completions", "chat"):
            raise SwordsError(f"llm: unknown mode {mode!r}; choose completions or chat")
        if local and base_url:
            raise SwordsError("llm: --local serves its own model; drop --base-url (or drop --local)")
        self.model = model or (DEFAULT_LOCAL_MODEL if local else "davinci-002")
        self.mode, self.limit = mode, limit
        self.abort_after, self.on_failure = max(1, abort_after), on_failure
        if budget <= max_tokens:
            raise SwordsError(f"llm: --budget {budget} leaves no room for a prompt beside --max-tokens {max_tokens}")
        config, _, split = priming.partition(":")
        swords_dataset.check_config(config, split)
        self.engine = None
        if local:
            from .engine import LocalEngine

            self.engine = LocalEngine(self.model, parallel=parallel, context=budget, flags={"context": "--budget"})
            base_url = self.engine.start()
        try:
            self._setup(base_url, mode, api_key_env, concurrency or (parallel if local else 16), max_tokens,
                        temperature, presence_penalty, frequency_penalty, stop, budget, seed, config, split,
                        system_prompt, force_longer, tokenizer, cache_dir, timeout, max_retries, backoff,
                        price_prompt, price_completion)
        except BaseException:
            self.close()
            raise
        self.failed: dict[str, str] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    def _paper(self, **given) -> tuple:
        """The values of the paper's configuration (upstream's GPT-3 settings), which are also the completions
        mode's defaults; with --preset paper an option set to anything else is an error."""
        for name, value in given.items():
            wanted = PAPER_PRESET.get(name)
            if name in PAPER_PRESET and value != wanted and value != self.default(name):
                raise SwordsError(f"llm: --preset paper sets {name} to {wanted!r}; drop --{name.replace('_', '-')}")
        if given["stop"] != "auto":
            raise SwordsError("llm: --preset paper sets the stops (newline, carriage return, blank line); drop --stop")
        return tuple(PAPER_PRESET[name] for name in ("mode", "temperature", "presence_penalty", "max_tokens",
                                                      "budget", "priming", "force_longer"))

    def _setup(self, base_url, mode, api_key_env, concurrency, max_tokens, temperature, presence_penalty,
               frequency_penalty, stop, budget, seed, config, split, system_prompt, force_longer, tokenizer,
               cache_dir, timeout, max_retries, backoff, price_prompt, price_completion) -> None:
        folder = None if (cache_dir or "").lower() == "off" else (cache_dir or default_cache_dir())
        # A local engine listens on a new port each time: its answers are cached under the model file instead.
        identity = f"local:{self.engine.path.name}:{self.engine.path.stat().st_size}" if self.engine else None
        self.client = LLMClient(
            base_url=base_url,
            api_key_env=api_key_env,
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            concurrency=concurrency,
            cache=ResponseCache(folder),
            log=_log,
            cache_identity=identity,
            on_retry=self._retrying,
        )
        self.tokenizer = choose_tokenizer(self.model, tokenizer, self.client.base_url, local=self.engine is not None)
        system_text = {"default": DEFAULT_SYSTEM_PROMPT, "none": None}.get(system_prompt, system_prompt)
        self.builder = PromptBuilder(
            swords_dataset.rows(config, split),
            self.tokenizer,
            mode=mode,
            budget=budget,
            max_tokens=max_tokens,
            seed=seed,
            system_prompt=system_text,
        )
        self.parameters: dict = {
            "model": self.model if not self.engine else self.engine.path.stem,
            "max_tokens": max_tokens,
            "temperature": temperature,
            "presence_penalty": presence_penalty,
            "frequency_penalty": frequency_penalty,
        }
        stop_text = stop if stop in ("auto", "none") else read_escapes(stop, "--stop")
        auto = list(PAPER_STOPS) if mode == "completions" else None
        stops = {"auto": auto, "none": None}.get(stop_text, [stop_text])
        if stops:
            self.parameters["stop"] = stops
        if force_longer if force_longer is not None else mode == "completions":
            self.parameters["logit_bias"] = self._longer_bias()
        known = PRICES.get(self.model, (0.0, 0.0))
        self.prices = (
            known[0] if price_prompt is None else price_prompt,
            known[1] if price_completion is None else price_completion,
        )

    def _retrying(self, usage, reason: str) -> None:
        shown = reason if len(reason) <= 40 else reason[:37] + "..."
        self.show_status(f"{usage.retries} retr{'y' if usage.retries == 1 else 'ies'} (last: {shown})")

    def _longer_bias(self) -> dict[str, int]:
        """Upstream's "force longer continuations": newline, carriage return, blank line and end-of-text
        made impossible, with the serving model's own token ids (upstream's 198, 201, 628 and 50256 are
        GPT-3's; the server's /tokenize gives another model's)."""
        ids = set()
        for text in ("\n", "\r", "\n\n"):
            tokens = self.tokenizer.encode(text)
            if len(tokens) == 1:
                ids.add(tokens[0])
        if self.tokenizer.end_of_text is not None:
            ids.add(self.tokenizer.end_of_text)
        return {str(i): -100 for i in sorted(ids)}

    # -- System interface --

    def check(self) -> None:
        """Before any work: an API key is needed for OpenAI's API (other servers get a placeholder)."""
        self.client.api_key()

    def covers(self, rows: Sequence[dict]) -> list[dict]:
        return list(rows[: self.limit] if self.limit > 0 else rows)

    def request_body(self, row: dict) -> tuple[str, dict]:
        """(endpoint, body) of a target's request: everything that decides the answer, hence the cache key."""
        prompt = self.builder.build(row)
        if self.mode == "chat":
            return "chat", {**self.parameters, "messages": prompt.messages}
        return "completions", {**self.parameters, "prompt": prompt.text}

    async def _answer(self, row: dict) -> tuple[str, Prediction | None, str | None]:
        endpoint, body = self.request_body(row)
        try:
            reply = await self.client.request(endpoint, body)
        except TargetFailed as error:
            return row["id"], None, str(error)
        usage = reply.response.get("usage") if isinstance(reply.response.get("usage"), dict) else {}
        prompt_tokens = usage.get("prompt_tokens")
        if prompt_tokens is None:  # a server without usage: our own count
            messages = body.get("messages")
            prompt_tokens = (
                chat_token_count(messages, self.tokenizer) if messages else self.tokenizer.count(body["prompt"])
            )
        completion_tokens = usage.get("completion_tokens")
        if completion_tokens is None:
            completion_tokens = self.tokenizer.count(reply.text)
        if reply.cached:
            self.client.usage.cached_prompt_tokens += prompt_tokens
            self.client.usage.cached_completion_tokens += completion_tokens
        else:
            self.client.usage.prompt_tokens += prompt_tokens
            self.client.usage.completion_tokens += completion_tokens
        # A completion that echoes a credential (some servers repeat the request) must not reach a file.
        substitutes = parse_completion(self.client.redact(reply.text), row["target"], reply.finish_reason)
        return row["id"], to_prediction(substitutes), None

    def _event_loop(self) -> asyncio.AbstractEventLoop:
        # One loop for the whole run, so the HTTP connection pool survives from batch to batch.
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop

    def predict(self, rows: Sequence[dict]) -> Iterator[tuple[str, Prediction]]:
        """Answers in completion order. The loop runs only while this generator waits for the next answer;
        while the runner writes one to its journal, requests in flight simply wait on their sockets."""
        loop = self._event_loop()
        pending = {loop.create_task(self._answer(row)) for row in rows}
        consecutive, batch_failures, finished = 0, [], 0
        try:
            while pending:
                done, pending = loop.run_until_complete(asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED))
                fatal = None
                for task in done:
                    if task.exception() is not None:
                        fatal = task.exception()
                        continue
                    target_id, prediction, error = task.result()
                    if error is None:
                        consecutive = 0
                        finished += 1
                        yield target_id, prediction
                        continue
                    consecutive += 1
                    self.failed[target_id] = error
                    batch_failures.append(target_id)
                    _log(f"llm: {target_id} failed: {error}")
                    if self.on_failure == "empty":
                        yield target_id, []
                if fatal is not None:
                    if isinstance(fatal, ServerDown):
                        raise SwordsError(
                            f"llm: {fatal}; {finished} finished targets are checkpointed, rerun the same command "
                            "to resume once the server answers"
                        ) from None
                    if isinstance(fatal, SwordsError):
                        raise SwordsError(f"llm: {self.client.redact(str(fatal))}") from None
                    raise fatal
                if consecutive >= self.abort_after:
                    last = batch_failures[-1]
                    raise SwordsError(
                        f"llm: {consecutive} targets failed in a row (last {last}: {self.failed[last]}); "
                        "finished targets are checkpointed, rerun the same command to resume"
                    )
            if batch_failures and self.on_failure == "abort":
                first = batch_failures[0]
                raise SwordsError(
                    f"llm: {len(batch_failures)} targets failed (first {first}: {self.failed[first]}); "
                    f"{finished} finished targets are checkpointed, rerun the same command to retry the others"
                )
        finally:
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))

    def report(self) -> dict:
        usage = self.client.usage
        cost = (usage.prompt_tokens * self.prices[0] + usage.completion_tokens * self.prices[1]) / 1e6
        figures = {
            "requests sent": usage.requests,
            "retries": usage.retries,
            "cache hits": usage.cache_hits,
            "prompt tokens": usage.prompt_tokens,
            "completion tokens": usage.completion_tokens,
            "estimated cost (USD)": round(cost, 4),
        }
        if usage.cache_hits:
            figures["tokens served from cache"] = usage.cached_prompt_tokens + usage.cached_completion_tokens
        if self.failed:
            figures["failed targets"] = len(self.failed)
        return figures

    def close(self) -> None:
        loop = getattr(self, "_loop", None)
        if loop is not None and not loop.is_closed():
            loop.run_until_complete(self.client.aclose())
            loop.close()
        if getattr(self, "engine", None) is not None:
            self.engine.stop()
