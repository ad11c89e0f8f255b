"""The few-shot prompt of the SWORDS paper's GPT-3 baseline (Lee et al. 2021, appendix D.5).

Each example is the context, whitespace-normalised, with the target wrapped in `**`, then

    Q: What are appropriate substitutes for **TARGET** in the above text?
    A: sub1, sub2, ...

(the substitutes at least one annotator accepted, most votes first), examples a blank line apart, the query ending
`A:`. Priming examples are drawn in a seeded random order (never the query's target), as many as fit the budget
with the tokens left to generate, from the split LLMConfig.priming_split names. The instruction stays the paper's
English for every benchmark (no translation made up; the examples carry the language). Chat mode sends the same
content as user/assistant turns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from swords_baselines.llm.tokens import Tokenizer

QUESTION = "Q: What are appropriate substitutes for **{target}** in the above text?"
SEPARATOR = "\n\n"
_START, _END = "\ue000", "\ue001"  # private-use marks that survive whitespace normalisation


def mark_target(context: str, target: str, offset: int) -> str:
    """The context on one line with the target at `offset` (marked before whitespace is normalised) in `**`."""
    if context[offset : offset + len(target)].lower() != target.lower():
        raise ValueError(f"target {target!r} is not at offset {offset}")
    marked = context[:offset] + _START + context[offset : offset + len(target)] + _END + context[offset + len(target) :]
    return " ".join(marked.split()).replace(_START, "**").replace(_END, "**")


def question(row: dict) -> str:
    """The context with the marked target and the question (no answer)."""
    return mark_target(row["context"], row["target"], row["offset"]) + "\n" + QUESTION.format(target=row["target"])


def answer(row: dict) -> str:
    """A priming example's answer: substitutes with score > 0, highest first (ties in the dataset's order)."""
    substitutes = sorted((s for s in row["substitutes"] if s["score"] > 0), key=lambda s: -s["score"])
    return ", ".join(s["substitute"] for s in substitutes)


def example_block(row: dict) -> str:
    return question(row) + "\nA: " + answer(row)


def query_block(row: dict) -> str:
    return question(row) + "\nA:"


def completion_prompt(
    examples: Sequence[dict], query: dict, example_text: Callable[[dict], str] = example_block
) -> str:
    return SEPARATOR.join([*(example_text(e) for e in examples), query_block(query)])


def chat_messages(
    examples: Sequence[dict],
    query: dict,
    system_prompt: str | None = None,
    question_text: Callable[[dict], str] = question,
    answer_text: Callable[[dict], str] = answer,
) -> list[dict]:
    messages = [{"role": "system", "content": system_prompt}] if system_prompt else []
    for example in examples:
        messages.append({"role": "user", "content": question_text(example)})
        messages.append({"role": "assistant", "content": answer_text(example)})
    messages.append({"role": "user", "content": question(query)})
    return messages


@dataclass
class Prompt:
    examples: list[str]  # ids of the priming examples, in prompt order
    tokens: int  # prompt tokens (exact for completions; OpenAI's formula for chat)
    text: str | None = None  # completions mode
    messages: list[dict] | None = None  # chat mode


class PromptBuilder:
    """Builds each target's prompt: priming examples in a seeded random order, as many as fit."""

    def __init__(
        self,
        pool: Sequence[dict],
        tokenizer: Tokenizer,
        mode: str = "completions",
        budget: int = 2048,
        max_tokens: int = 128,
        seed: int = 0,
        system_prompt: str | None = None,
    ) -> None:
        # Examples nobody found a substitute for would teach the model to answer nothing.
        self.pool = sorted((row for row in pool if answer(row)), key=lambda row: row["id"])
        self.tokenizer, self.mode, self.seed = tokenizer, mode, seed
        # The prompt may use what generation leaves (less what the server adds to every prompt, a BOS token).
        self.limit = budget - max_tokens - tokenizer.prompt_overhead
        self.system_prompt = system_prompt if mode == "chat" else None
        self._piece_tokens: dict[str, int] = {}
        self._texts: dict[str, str] = {}  # formatted pool examples: the same few hundred serve every target
        # "\n\n" between two examples: two tokens in r50k ("\n", "\n"), one in cl100k/o200k.
        self._separator_tokens = tokenizer.count("a" + SEPARATOR + "b") - tokenizer.count("a") - tokenizer.count("b")

    def order(self, row: dict) -> list[dict]:
        """The priming candidates, shuffled by seed and target id (adding targets or resuming changes no prompt)."""
        candidates = [e for e in self.pool if e["id"] != row["id"]]
        random.Random(f"{self.seed}:{row['id']}").shuffle(candidates)
        return candidates

    def _text(self, kind: str, example: dict) -> str:
        key = kind + example["id"]
        if key not in self._texts:
            self._texts[key] = {"x:": example_block, "q:": question, "a:": answer}[kind](example)
        return self._texts[key]

    def _example(self, example: dict) -> str:
        return self._text("x:", example)

    def _question(self, example: dict) -> str:
        return self._text("q:", example)

    def _answer(self, example: dict) -> str:
        return self._text("a:", example)

    def _piece(self, key: str, text: Callable[[], str]) -> int:
        if key not in self._piece_tokens:
            self._piece_tokens[key] = self.tokenizer.count(text())
        return self._piece_tokens[key]

    def _render(self, examples: list[dict], row: dict) -> Prompt:
        if self.mode == "chat":
            messages = chat_messages(examples, row, self.system_prompt, self._question, self._answer)
            return Prompt([e["id"] for e in examples], self.tokenizer.count_chat(messages), messages=messages)
        text = completion_prompt(examples, row, self._example)
        return Prompt([e["id"] for e in examples], self.tokenizer.count(text), text=text)

    def _example_tokens(self, example: dict) -> int:
        """What one more priming example adds: exact when BPE splits at its boundaries (build() checks)."""
        if self.mode == "chat":
            return (
                self.tokenizer.chat_pair_overhead
                + self._piece("q:" + example["id"], lambda: self._question(example))
                + self._piece("a:" + example["id"], lambda: self._answer(example))
            )
        return self._piece("text:" + example["id"], lambda: self._example(example)) + self._separator_tokens

    def build(self, row: dict) -> Prompt:
        order = self.order(row)
        chosen: list[dict] = []  # in draw order; the prompt lists them last-drawn first, as upstream did
        # The prompt without priming examples, then each example's tokens added.
        estimate = self._render([], row).tokens if self.mode == "chat" else self.tokenizer.count(query_block(row))
        for candidate in order:
            if estimate + self._example_tokens(candidate) > self.limit:
                break
            estimate += self._example_tokens(candidate)
            chosen.append(candidate)
        prompt = self._render(chosen[::-1], row)
        if prompt.tokens == estimate:
            return prompt  # the additive count was exact, so the next example's estimate is too
        # Otherwise the exact count decides: drop examples while over, add while the next still fits.
        while prompt.tokens > self.limit and chosen:
            chosen.pop()
            prompt = self._render(chosen[::-1], row)
        while len(chosen) < len(order):
            trial = self._render([*chosen, order[len(chosen)]][::-1], row)
            if trial.tokens > self.limit:
                break
            chosen.append(order[len(chosen)])
            prompt = trial
        return prompt
