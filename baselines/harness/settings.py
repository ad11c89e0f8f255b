"""The prompted LLM's settings for an lm-eval task: `model` and `base_url` from lm-eval's `--model_args`, the rest
from `--metadata '{"swords": {...}}'`, each checked before the task is made (a known option of `swords run --system
llm`, of its JSON type, in range and among its choices), a bad one one line naming it (`--metadata swords.budget:
"640" is text; give a whole number`). lm-eval's `--limit` is checked here too (check_limit)."""

from __future__ import annotations

import math

from swords_baselines.llm.config import LLMConfig
from swords_baselines.options import Option, bounds_text, options_from
from swords_lexsub.arguments import did_you_mean
from swords_lexsub.errors import SwordsError

# Options of the prompted LLM that lm-eval decides with its own (`--model_args`, `--limit`, its retries).
LM_EVAL_DECIDES = tuple(
    "model base_url local parallel mode system_prompt api_key_env concurrency cache_dir timeout max_retries backoff "
    "abort_after on_failure price_prompt price_completion limit".split()
)
OPTIONS = {option.name: option for option in options_from(LLMConfig) if option.name not in LM_EVAL_DECIDES}
EXACT_WHOLE = 2**53  # the largest whole number a JSON number read as a double (1e15, 2048.0) holds exactly
_KINDS = {int: "a whole number", float: "a finite number", bool: "true or false", str: "text"}


def api_root(base_url: str | None) -> str | None:
    """The API's base URL from lm-eval's `base_url` (which names the endpoint, …/v1/completions)."""
    if not base_url:
        return None
    root = base_url.rstrip("/")
    for endpoint in ("/chat/completions", "/completions"):
        if root.endswith(endpoint):
            return root[: -len(endpoint)]
    return root


def _json(value: object) -> str:
    """A value as the user wrote it in JSON, cut short."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, str):
        text = repr(value)[1:-1].replace('"', '\\"')
        return f'"{text[:40]}…"' if len(text) > 40 else f'"{text}"'
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "an object"
    return repr(value)[:40]


def _kind_of(value: object) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, str):
        return "text"
    if isinstance(value, float) and not math.isfinite(value):
        return "not a number JSON allows"
    return "a whole number" if isinstance(value, int) else "a number with a fraction"


def check_option(option: Option, value: object) -> object:
    """`value` as the option takes it, else a SwordsError naming the option. `1e3` and `2048.0` are whole numbers
    where a double holds them exactly (up to 2**53 either side of 0)."""
    where = f"--metadata swords.{option.name}"
    if value is None:
        if option.default is None:  # none: the option's own default
            return value
        raise SwordsError(
            f"{where}: null; give {_KINDS[option.type]} or leave it out for its default ({option.default!r})"
        )
    wanted = _KINDS[option.type]
    written = _json(value)
    if option.type is int and isinstance(value, float) and math.isfinite(value) and value.is_integer():
        written = f"{value:g}"
        if abs(value) > EXACT_WHOLE and (option.minimum is None or option.maximum is None):
            raise SwordsError(
                f"{where}: {written} is too large to be read exactly (written with an exponent or a "
                f"fraction, a whole number is exact up to 2**53); give its digits"
            )
        value = int(value)
    fits = {
        int: isinstance(value, int) and not isinstance(value, bool),
        float: isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value),
        bool: isinstance(value, bool),
        str: isinstance(value, str),
    }[option.type]
    if not fits:
        what = _json(value) if isinstance(value, list | dict) else f"{_json(value)} is {_kind_of(value)}"
        quoted = " (without quotes)" if isinstance(value, str) and option.type in (int, float) else ""
        raise SwordsError(f"{where}: {what}; give {wanted}{quoted}")
    if option.choices is not None and value not in option.choices:
        raise SwordsError(
            f"{where}: {_json(value)}{did_you_mean(value, option.choices)}; choose "
            f"{', '.join(map(str, option.choices))}"
        )
    too_low = option.minimum is not None and value < option.minimum
    if too_low or (option.maximum is not None and value > option.maximum):
        raise SwordsError(
            f"{where}: {written} is {'too small' if too_low else 'too large'} "
            f"({bounds_text(option.minimum, option.maximum)})"
        )
    return value


def settings_of(metadata: dict) -> LLMConfig:
    """The prompted LLM's settings for a task (the module docstring), each checked (check_option)."""
    ours = metadata.get("swords") or {}
    if not isinstance(ours, dict):
        raise SwordsError('--metadata\'s "swords" must be an object of `swords run --system llm` options')
    ours = dict(ours)  # checked values replace the given ones here, not in lm-eval's own metadata
    for name, value in ours.items():
        if name in LM_EVAL_DECIDES:
            raise SwordsError(
                f"--metadata swords.{name}: lm-eval decides that (its --model_args, --limit); the "
                "tasks send completions, as the paper did"
            )
        if name not in OPTIONS:
            raise SwordsError(
                f"--metadata swords.{str(name)[:40]}: not an option of `swords run --system llm`"
                f"{did_you_mean(name, OPTIONS)}; they are {', '.join(OPTIONS)}"
            )
        ours[name] = check_option(OPTIONS[name], value)
    model, base_url = metadata.get("model") or metadata.get("pretrained"), metadata.get("base_url")
    try:  # what is left to check is between options (the budget and max_tokens) or in the data (priming)
        return LLMConfig.of(
            model=None if model is None else str(model),
            base_url=api_root(None if base_url is None else str(base_url)),
            **ours,
        )
    except SwordsError as error:
        raise SwordsError(f"--metadata swords: {str(error).removeprefix('llm: ')}") from None


def check_limit(limit: int | None, targets: int) -> None:
    """lm-eval's `--limit` (a count, or below 1 a fraction) leaves a target: else one line, not lm-eval's traceback."""
    if limit is not None and limit < 1:
        raise SwordsError(
            f"--limit 0 or below leaves no target to ask; give a count of targets from 1 to {targets:,}, "
            "or a fraction of the split above 0 and below 1"
        )
