"""The LLM judge's request: the protocol's instructions (swords_metric.INSTRUCTIONS) as the system message, the
context with the target marked and one candidate as the user message; the answer a label only when it names exactly
one; and the judge's id, naming the model and a hash of the prompt, so judgments from another prompt never pass."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from swords_baselines.llm.prompt import mark_target
from swords_metric import INSTRUCTIONS, LABELS, LLM_PREFIX, Task
from swords_metric import judge_id as compared_name

ANSWER = "Answer with exactly one word: accept, reject or abstain."
SYSTEM_TEMPLATE = "{instructions}\n\n{answer}"
USER_TEMPLATE = (
    "Text: {context}\n\n"
    "Target word: **{target}** (marked with ** in the text)\n"
    "Substitute: {substitute}\n\n"
    "Your judgment (accept, reject or abstain):"
)
# Greedy, a few tokens, the first line: a label is one to three tokens; what follows a newline is not the answer.
MAX_TOKENS = 8
SAMPLING = {"temperature": 0.0, "max_tokens": MAX_TOKENS, "stop": ["\n"]}
# A word: letters and digits (Markdown's ** and _, punctuation, quotes and spaces are what separate words).
_WORD = re.compile(r"[^\W_]+")


def template_hash() -> str:
    """8 hex digits of the sha256 of the prompt's all but the item: instructions, templates, sampling settings."""
    text = "\n\n".join(
        [SYSTEM_TEMPLATE.format(instructions=INSTRUCTIONS, answer=ANSWER), USER_TEMPLATE, repr(SAMPLING)]
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def judge_id(model: str) -> str:
    """`llm:<model>:<prompt sha256[:8]>`, written as the metric compares judges' names (NFC, trimmed)."""
    return compared_name(f"{LLM_PREFIX}{model}:{template_hash()}")


def messages(task: Task, substitute: str) -> list[dict]:
    """The chat messages asking for one candidate's label."""
    try:
        context = mark_target(task.context, task.target, task.offset)
    except ValueError:  # a context whose target is elsewhere: shown as it is, the target named below
        context = " ".join(task.context.split())
    user = USER_TEMPLATE.format(context=context, target=task.target, substitute=substitute)
    system = SYSTEM_TEMPLATE.format(instructions=INSTRUCTIONS, answer=ANSWER)
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def request_body(model: str, task: Task, substitute: str) -> dict:
    """The chat completion request for one candidate: everything that decides the answer, hence the cache key."""
    return {"model": model, "messages": messages(task, substitute), **SAMPLING}


def words(text: str) -> list[str]:
    """The words of an answer after NFKC (full-width and styled letters become plain ones) and case folding."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def parse_label(text: str) -> str | None:
    """The label an answer names as a word ("Accept.", "**Reject**", "Label: accept", "ＡＣＣＥＰＴ"), or None for
    none ("accepted") or several ("accept or reject"): nothing is guessed."""
    named = {word for word in words(text) if word in LABELS}
    return named.pop() if len(named) == 1 else None
