"""The few-shot LLM baseline's prompt, offline: the paper's format byte for byte, prompts that fill the token budget
exactly and never prime with the query (completions, and chat by OpenAI's message accounting), and prompts for the
recorded targets of the sizes davinci was sent."""

from __future__ import annotations

import pytest

from swords_baselines.llm.prompt import (
    PromptBuilder,
    answer,
    chat_messages,
    completion_prompt,
    mark_target,
    query_block,
    question,
)
from swords_baselines.llm.tokens import get_tokenizer


def test_prompt_format_byte_for_byte():
    row = {
        "id": "t:q",
        "context": "The zone\nwas\t quiet.  The  zone was far.",
        "target": "zone",
        "offset": 27,
        "substitutes": [],
    }
    example = {
        "id": "t:e",
        "context": "He ran  home.",
        "target": "ran",
        "offset": 3,
        "substitutes": [
            {"substitute": "dashed", "score": 0.5},
            {"substitute": "walked", "score": 0.0},
            {"substitute": "raced", "score": 0.9},
            {"substitute": "hurried", "score": 0.5},
        ],
    }
    assert mark_target(row["context"], "zone", 27) == "The zone was quiet. The **zone** was far."
    assert answer(example) == "raced, dashed, hurried"  # score > 0, highest first, ties in order
    assert completion_prompt([example], row) == (
        "He **ran** home.\n"
        "Q: What are appropriate substitutes for **ran** in the above text?\n"
        "A: raced, dashed, hurried\n"
        "\n"
        "The zone was quiet. The **zone** was far.\n"
        "Q: What are appropriate substitutes for **zone** in the above text?\n"
        "A:"
    )
    assert chat_messages([example], row, "Be brief.") == [
        {"role": "system", "content": "Be brief."},
        {
            "role": "user",
            "content": "He **ran** home.\nQ: What are appropriate substitutes for **ran** in the above text?",
        },
        {"role": "assistant", "content": "raced, dashed, hurried"},
        {"role": "user", "content": question(row)},
    ]
    with pytest.raises(ValueError):
        mark_target(row["context"], "zone", 3)


def test_prompts_fill_the_budget_exactly_and_never_prime_with_the_query(dev):
    tokenizer = get_tokenizer("davinci")
    builder = PromptBuilder(dev, tokenizer, budget=2048, max_tokens=128, seed=0)
    for row in dev[:40]:
        prompt = builder.build(row)
        assert row["id"] not in prompt.examples
        assert prompt.text.endswith(query_block(row))
        assert prompt.tokens == tokenizer.count(prompt.text) <= 2048 - 128
        order = builder.order(row)
        drawn = prompt.examples[::-1]  # the prompt lists the last drawn first
        assert [e["id"] for e in order[: len(drawn)]] == drawn  # a prefix of the seeded order...
        by_id = {e["id"]: e for e in order}
        one_more = completion_prompt([order[len(drawn)], *(by_id[i] for i in prompt.examples)], row)
        assert tokenizer.count(one_more) > 2048 - 128  # ...as long as fits
    again = PromptBuilder(dev, tokenizer, seed=0).build(dev[0])
    assert again == builder.build(dev[0])  # reproducible
    assert PromptBuilder(dev, tokenizer, seed=1).build(dev[0]).examples != again.examples


def test_chat_prompts_fill_the_budget_by_openais_message_accounting(dev):
    tokenizer = get_tokenizer("gpt-4o")
    builder = PromptBuilder(dev, tokenizer, mode="chat", budget=2048, max_tokens=128, system_prompt="S.")
    prompt = builder.build(dev[5])
    messages = prompt.messages
    assert messages[0] == {"role": "system", "content": "S."} and messages[-1]["role"] == "user"
    assert [m["role"] for m in messages[1:-1]] == ["user", "assistant"] * len(prompt.examples)
    expected = 3 + sum(3 + tokenizer.count(m["role"]) + tokenizer.count(m["content"]) for m in messages)
    assert prompt.tokens == expected <= 1920


def test_our_prompts_for_the_recorded_targets_match_the_recorded_prompt_sizes(recorded_file, dev, dev_by_id):
    """The recorded file holds completion objects only (id, object, created, model, choices with text,
    logprobs and finish_reason): no prompt and no request parameters, so a byte-for-byte comparison is
    impossible; the priming examples were also drawn unseeded from SWORDS v0.8 dev. What it does record
    is each prompt's length in characters: logprobs.text_offset[0], where the completion starts. Our
    prompts, built the same way under the same 2048 - 128 token budget, have the same sizes (each within
    15%, on average within 2%), so the format and the budget agree with what davinci was sent."""
    builder = PromptBuilder(dev, get_tokenizer("davinci"))
    ratios = []
    for target_id, completion in recorded_file.items():
        recorded_length = completion["choices"][0]["logprobs"]["text_offset"][0]
        if target_id not in dev_by_id:
            continue
        prompt = builder.build(dev_by_id[target_id])
        ratios.append(len(prompt.text) / recorded_length)
    assert len(ratios) == 37
    assert all(0.85 < r < 1.15 for r in ratios)
    assert abs(sum(ratios) / len(ratios) - 1) < 0.02
