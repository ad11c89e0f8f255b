"""Every setting of the prompted LLM, declared once: `swords run --system llm`'s options, `--list`, `--preset paper`
and the Space's LLM form derive from LLMConfig's fields, and what follows from them (the model's name, the stops,
the sampling parameters) is derived here only. Making a config reads no file and opens no connection.
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass
from pathlib import Path

from swords_baselines.llm.client import check_base_url
from swords_baselines.llm.engine import DEFAULT_MODEL as DEFAULT_LOCAL_MODEL
from swords_baselines.llm.engine_limits import MAX_TOTAL_CONTEXT
from swords_baselines.llm.priming import AUTO_PRIMING, named, priming_split
from swords_baselines.llm.timeouts import DEFAULT_TIMEOUT, LOCAL_TIMEOUT, request_timeout
from swords_baselines.llm.usage import Pricing, on_this_machine
from swords_baselines.options import check_settings, setting
from swords_lexsub.errors import SwordsError

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
DEFAULT_API_MODEL = "davinci-002"
DEFAULT_CONCURRENCY = 16
# The largest --budget: a context is a 32-bit count for llama.cpp (n_ctx) and the servers we know; no model's comes
# near it, and a larger number can only be a mistake (1e12 typed for "everything").
MAX_BUDGET = MAX_TOTAL_CONTEXT
DEFAULT_SYSTEM_PROMPT = (
    "You suggest lexical substitutes: words or phrases that could replace the word marked with ** in the text "
    "while keeping its meaning. Answer with a comma-separated list, best first, and nothing else."
)

# The SWORDS authors' GPT-3 settings (swords/methods/gpt3.py and the paper's appendix D.5): the few-shot
# prompt in completions mode, 2,048 tokens of context with 128 to generate, temperature 0, presence penalty
# 0.5, newline / carriage return / blank line / end-of-text banned by logit bias ("force longer
# continuations") and the same three as stops, priming examples drawn from SWORDS dev when scoring test (`auto`'s
# choice for the SWORDS paper's benchmarks; ProLex and TSAR-2022 take their own: priming.py). They are the
# completions mode's defaults; --preset paper also refuses any option that departs from them.
PAPER_PRESET = {
    "mode": "completions",
    "temperature": 0.0,
    "presence_penalty": 0.5,
    "max_tokens": 128,
    "budget": 2048,
    "force_longer": True,
}
PAPER_STOPS = ("\n", "\r", "\n\n")

# USD per million tokens (prompt, completion), as OpenAI listed them (its Batch API bills half: usage.py); pass
# --price-prompt and --price-completion for any other model or when prices change. Other models get no dollar figure.
PRICES = {
    "davinci": (60.0, 60.0),  # GPT-3 davinci in 2020, the paper's model ($0.06 per 1K tokens)
    "davinci-002": (2.0, 2.0),
    "babbage-002": (0.4, 0.4),
    "gpt-3.5-turbo-instruct": (1.5, 2.0),
    "gpt-4o": (2.5, 10.0),
    "gpt-4o-mini": (0.15, 0.6),
}


def read_escapes(text: str, what: str) -> str:
    """A command line's string with its backslash escapes read as Python reads them ("\\n" a newline; é stays)."""
    import codecs

    try:
        read = codecs.decode(text.encode("latin-1", "backslashreplace"), "unicode_escape")
    except UnicodeDecodeError as error:
        raise SwordsError(f"{what} {text!r}: {error.reason} (a backslash starts an escape such as \\n)") from None
    if _LONE_SURROGATE.search(read):
        raise SwordsError(f"{what} {text!r}: a lone surrogate (\\ud800 to \\udfff) is no character")
    return read


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "swords-lexsub" / "llm"


@dataclass(frozen=True)
class LLMConfig:
    """The prompted LLM's settings. `LLMConfig.of(**options)` checks them and applies --preset paper."""

    model: str | None = setting(
        f"model name (none: {DEFAULT_API_MODEL}; with --local: {DEFAULT_LOCAL_MODEL} or a .gguf file)", label="Model"
    )
    base_url: str | None = setting("API base URL (none: $OPENAI_BASE_URL, else OpenAI's)", label="Base URL")
    local: bool = setting("serve the model on this machine (embedded llama.cpp; the local-llm extra)", False)
    parallel: int = setting(
        "with --local: requests the engine decodes at once (its slots)", 1, minimum=1, affects_output=False
    )
    preset: str = setting("paper: upstream's GPT-3 settings (the manual's LLM page)", "none", choices=("none", "paper"))
    mode: str = setting(
        "completions (base models) or chat", "completions", choices=("completions", "chat"), label="Mode"
    )
    api_key_env: str = setting("environment variable holding the API key (never logged or cached)", "OPENAI_API_KEY")
    concurrency: int | None = setting(
        f"requests in flight at most (none: {DEFAULT_CONCURRENCY}; with --local, --parallel)",
        minimum=1,
        affects_output=False,
    )
    max_tokens: int = setting("tokens to generate at most", 128, minimum=1)
    temperature: float = setting("sampling temperature", 0.0, minimum=0)
    presence_penalty: float = setting("presence penalty", 0.5, minimum=-2, maximum=2)
    frequency_penalty: float = setting("frequency penalty", 0.0, minimum=-2, maximum=2)
    stop: str = setting(
        "stop sequence ('auto': newline, carriage return and blank line for completions, none for chat; 'none')", "auto"
    )
    budget: int = setting(
        "context tokens: prompt plus --max-tokens (priming examples fill it)", 2048, minimum=2, maximum=MAX_BUDGET
    )
    seed: int = setting("seed of the priming examples' random order", 0)
    priming: str = setting(
        "CONFIG:SPLIT the priming examples come from, never the scored split's ('auto': SWORDS dev "
        "for SWORDS, CoInCo and SemEval-2007, as the paper; ProLex's dev, TSAR-2022's trial of the "
        "same language; the other split where that one is scored)",
        AUTO_PRIMING,
    )
    system_prompt: str = setting("chat mode's system message ('none' for none)", "default")
    force_longer: bool | None = setting(
        "ban newline and end-of-text tokens via logit_bias, as upstream did (none: on for completions, off for chat)"
    )
    tokenizer: str | None = setting(
        "tokenizer for the budget: encoding name or tokenizer file (none: the server's "
        "/tokenize if it has one, else from --model)"
    )
    cache_dir: str | None = setting(
        "response cache folder ('off' disables; none: ~/.cache/swords-lexsub/llm)", affects_output=False
    )
    timeout: float | None = setting(
        f"seconds before a request times out (none: {DEFAULT_TIMEOUT:g}; with --local, {LOCAL_TIMEOUT:g})",
        minimum=0.001,
        affects_output=False,
    )
    max_retries: int = setting("retries of a failing request", 6, minimum=0, affects_output=False)
    backoff: float = setting(
        "first retry's wait in seconds (doubling, with jitter)", 1.0, minimum=0, affects_output=False
    )
    abort_after: int = setting("stop the run after this many targets fail in a row", 5, minimum=1, affects_output=False)
    on_failure: str = setting(
        "a target that keeps failing: abort (rerun to retry it) or empty", "abort", choices=("abort", "empty")
    )
    price_prompt: float | None = setting(
        "USD per million prompt tokens (none: the known price, else no dollar figure)", minimum=0, affects_output=False
    )
    price_completion: float | None = setting(
        "USD per million completion tokens (none: the known price, else no dollar figure)",
        minimum=0,
        affects_output=False,
    )

    @classmethod
    def of(cls, **options) -> LLMConfig:
        """Settings from keyword options, checked (one-line SwordsErrors), with --preset paper applied."""
        names = {item.name for item in dataclasses.fields(cls)}
        unknown = sorted(set(options) - names)
        if unknown:
            raise SwordsError(f"llm: unknown option {unknown[0]!r}")
        config = cls(**options)
        check_settings(config, "llm")
        for item in dataclasses.fields(config):  # bytes a command line had that are not UTF-8 reach no request
            value = getattr(config, item.name)
            if isinstance(value, str) and _LONE_SURROGATE.search(value):
                raise SwordsError(
                    f"llm: --{item.name.replace('_', '-')} {value!r} is not valid text (bytes that are "
                    "not UTF-8, or a lone surrogate)"
                )
        if config.base_url:
            check_base_url(config.base_url)
        if config.preset == "paper":
            config = config._paper()
        if config.local and config.base_url:
            raise SwordsError("llm: --local serves its own model; drop --base-url (or drop --local)")
        if config.budget <= config.max_tokens:
            raise SwordsError(
                f"llm: --budget {config.budget} leaves no room for a prompt beside --max-tokens {config.max_tokens}"
            )
        if config.priming != AUTO_PRIMING:
            named(config.priming)
        config.stops  # noqa: B018 (a --stop with a broken escape is refused now, not at the first request)
        return config

    def _paper(self) -> LLMConfig:
        """The paper's configuration (the completions mode's defaults); an option set otherwise is an error."""
        defaults = LLMConfig()
        for name, wanted in PAPER_PRESET.items():
            value = getattr(self, name)
            if value != wanted and value != getattr(defaults, name):
                raise SwordsError(f"llm: --preset paper sets {name} to {wanted!r}; drop --{name.replace('_', '-')}")
        if self.stop != "auto":
            raise SwordsError("llm: --preset paper sets the stops (newline, carriage return, blank line); drop --stop")
        return dataclasses.replace(self, **PAPER_PRESET)

    @property
    def model_name(self) -> str:
        return self.model or (DEFAULT_LOCAL_MODEL if self.local else DEFAULT_API_MODEL)

    @property
    def seconds_a_request(self) -> float:
        return request_timeout(self.timeout, self.local)

    @property
    def requests_in_flight(self) -> int:
        return self.concurrency or (self.parallel if self.local else DEFAULT_CONCURRENCY)

    def priming_split(
        self, benchmark: str | None, split: str | None = None, flag: str = "--priming"
    ) -> tuple[str, str]:
        """(config, split) of the priming examples for a run scoring `split` of `benchmark` (priming.priming_split)."""
        return priming_split(self.priming, benchmark, split, flag)

    @property
    def cache_folder(self) -> Path | None:
        if (self.cache_dir or "").lower() == "off":
            return None
        return Path(self.cache_dir) if self.cache_dir else default_cache_dir()

    @property
    def system_text(self) -> str | None:
        return {"default": DEFAULT_SYSTEM_PROMPT, "none": None}.get(self.system_prompt, self.system_prompt)

    @property
    def stops(self) -> list[str] | None:
        if self.stop == "none":
            return None
        if self.stop == "auto":
            return list(PAPER_STOPS) if self.mode == "completions" else None
        return [read_escapes(self.stop, "--stop")]

    @property
    def bans_newlines(self) -> bool:
        return self.force_longer if self.force_longer is not None else self.mode == "completions"

    def pricing(self, base_url: str) -> Pricing:
        """The price options if given; else none for a model served here, PRICES' for a model it lists, else none."""
        known = PRICES.get(self.model_name)
        if self.price_prompt is not None or self.price_completion is not None:
            known = known or (0.0, 0.0)
            prompt = known[0] if self.price_prompt is None else self.price_prompt
            return Pricing((prompt, known[1] if self.price_completion is None else self.price_completion))
        if self.local or on_this_machine(base_url):
            return Pricing(None, why_none="none in dollars (the model is served on this machine)")
        if known is None:
            return Pricing(
                None,
                why_none=f"unknown (no price known for {self.model_name}: pass --price-prompt and --price-completion)",
            )
        return Pricing(known, listed=True)

    def sampling(self, served_model: str) -> dict:
        """The request's sampling parameters (no logit bias: it needs the served model's token ids)."""
        return {
            "model": served_model,
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "presence_penalty": self.presence_penalty,
            "frequency_penalty": self.frequency_penalty,
            **({"stop": self.stops} if self.stops else {}),
        }

    @classmethod
    def describe(cls, name: str) -> dict:
        """A field's declaration, for a form: its label, help, default and choices."""
        item = next(item for item in dataclasses.fields(cls) if item.name == name)
        return {
            "label": item.metadata["label"] or name,
            "help": item.metadata["help"],
            "default": item.default,
            "choices": item.metadata["choices"],
        }
