"""The run's cost (baselines/llm/usage.py, config.py's pricing): OpenAI's list price and its Batch API's half for a
model in the price table, no dollar figure for a model served on this machine or one without a price, and the
price options over both. The expected figures are worked out by hand from OpenAI's listed prices."""

from __future__ import annotations

import pytest

from swords_baselines.llm.config import LLMConfig
from swords_baselines.llm.usage import Usage, usage_figures


def used(prompt: int = 1_000_000, completion: int = 500_000) -> Usage:
    usage = Usage(requests=3)
    usage.add_tokens(prompt, completion, cached=False)
    return usage


def test_a_listed_model_costs_its_list_price_online_and_half_through_a_batch():
    # gpt-3.5-turbo-instruct: $1.50 a million prompt tokens, $2 a million completion tokens
    pricing = LLMConfig(model="gpt-3.5-turbo-instruct").pricing("https://api.openai.com/v1")
    online = usage_figures(used(), pricing, set())
    assert online["estimated cost (USD)"] == 2.5 and online["the same at batch price (USD)"] == 1.25
    batch = usage_figures(used(), pricing, set(), batch=True)
    assert batch["estimated cost at batch price (USD)"] == 1.25 and "estimated cost (USD)" not in batch


@pytest.mark.parametrize(
    "base_url",
    ["http://localhost:8000/v1", "http://127.0.0.1:8080/v1", "http://127.3.4.5/v1", "http://[::1]:8000/v1",
     "http://LOCALHOST./v1"],
)  # fmt: skip
def test_a_model_served_on_this_machine_has_no_dollar_figure(base_url):
    figures = usage_figures(used(), LLMConfig(model="davinci-002").pricing(base_url), set())
    assert figures["cost"] == "none in dollars (the model is served on this machine)"
    assert not any("USD" in key for key in figures)


def test_the_embedded_engine_and_an_unpriced_model_have_no_dollar_figure():
    local = usage_figures(used(), LLMConfig(local=True).pricing("http://127.0.0.1:1/v1"), set())
    assert local["cost"].startswith("none in dollars")
    unpriced = usage_figures(used(), LLMConfig(model="Qwen/Qwen2.5-7B").pricing("http://gpu-host:8000/v1"), set())
    assert unpriced["cost"] == (
        "unknown (no price known for Qwen/Qwen2.5-7B: pass --price-prompt and --price-completion)"
    )
    assert not any("USD" in key for key in unpriced)


def test_the_price_options_are_the_user_s_say_so_anywhere():
    config = LLMConfig(model="Qwen/Qwen2.5-7B", price_prompt=0.2, price_completion=0.4)
    figures = usage_figures(used(), config.pricing("http://localhost:8000/v1"), set())
    assert figures["estimated cost (USD)"] == 0.4 and "the same at batch price (USD)" not in figures
