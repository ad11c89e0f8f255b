"""What every runner of the prompted LLM sends, set up once: the tokenizer that counts the budget, the prompt
builder over the priming split (never the scored split: priming.py) and the request's sampling parameters.
`swords run --system llm` (prompted.py) and the lm-eval tasks (harness/task.py) both call `prompting`."""

from __future__ import annotations

import swords_dataset
from swords_baselines.llm.config import LLMConfig
from swords_baselines.llm.prompt import PromptBuilder
from swords_baselines.llm.served_tokens import choose_tokenizer
from swords_baselines.llm.tokens import Tokenizer


def longer_bias(tokenizer: Tokenizer) -> dict[str, int]:
    """Upstream's "force longer continuations": newline, carriage return, blank line and end-of-text banned, by the
    served model's own token ids (upstream's 198, 201, 628 and 50256 are GPT-3's)."""
    ids = set()
    for text in ("\n", "\r", "\n\n"):
        tokens = tokenizer.encode(text)
        if len(tokens) == 1:
            ids.add(tokens[0])
    if tokenizer.end_of_text is not None:
        ids.add(tokenizer.end_of_text)
    return {str(i): -100 for i in sorted(ids)}


def prompting(
    settings: LLMConfig,
    base_url: str,
    served_model: str,
    local: bool = False,
    benchmark: str | None = None,
    split: str | None = None,
) -> tuple[Tokenizer, PromptBuilder, dict]:
    """(tokenizer, prompt builder, sampling parameters with the logit bias) for a run scoring `split` of `benchmark`."""
    source = settings.priming_split(benchmark, split)  # a split that cannot be used: said before any probe
    tokenizer = choose_tokenizer(settings.model_name, settings.tokenizer, base_url, local=local)
    builder = PromptBuilder(
        swords_dataset.rows(*source),
        tokenizer,
        mode=settings.mode,
        budget=settings.budget,
        max_tokens=settings.max_tokens,
        seed=settings.seed,
        system_prompt=settings.system_text,
    )
    parameters = settings.sampling(served_model)
    if settings.bans_newlines:
        parameters["logit_bias"] = longer_bias(tokenizer)
    return tokenizer, builder, parameters
