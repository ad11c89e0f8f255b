"""How the LLM judge asks a server to answer nothing but a label, and the judge's probability of `accept`.

Asked once (GET /models), llama.cpp takes a GBNF grammar, vLLM a guided choice, OpenAI's API a JSON schema; any other
server, or one not answering, gets free text (prompt.parse_label), one line saying why. A server refusing the
constraint (HTTP 400 or 422 where the same request without it is answered: an older llama.cpp, LiteLLM) gets free
text from then on, said once. The kind is recorded with every judgment (`constraint`).

`p_accept` is `accept`'s share of the probability the model gave the three labels at the answer's first word: the
top log-probabilities beginning exactly one label ("accept", " Accept", "re", "ab"; not "a") summed by label; None
where they do not tell the labels apart.
"""

from __future__ import annotations

import math

from swords_baselines.judge.prompt import words
from swords_baselines.llm.errors import TargetFailed
from swords_lexsub.terminal import clipped, say
from swords_metric import LABELS

NONE, GRAMMAR, GUIDED, SCHEMA = "none", "grammar", "guided_choice", "json_schema"
KINDS = (GRAMMAR, GUIDED, SCHEMA, NONE)
AUTO = "auto"  # --constraint: the one the server takes (asked); or NONE, free text
NAMES = {GRAMMAR: "a GBNF grammar", GUIDED: "a guided choice", SCHEMA: "a JSON schema"}
SERVERS = {GRAMMAR: "llama.cpp", GUIDED: "vLLM", SCHEMA: "OpenAI's API"}
REFUSED_STATUSES = (400, 422)  # a request's field the server does not take
GBNF = "root ::= " + " | ".join(f'"{label}"' for label in LABELS)
SCHEMA_MAX_TOKENS = 16  # {"label": "abstain"} is about 7 tokens
TOP_LOGPROBS = 20  # OpenAI's most, and vLLM's default most
# llama.cpp's log-probabilities are the model's before the grammar: a small model's labels sit far down the list
# (SmolLM2's "reject" is 158th, after "Your" and "I"), so more are asked (about 30 kB a response).
GRAMMAR_TOP_LOGPROBS = 200
PROBE_SECONDS = 30.0  # an engine answers /models in milliseconds; a server that does not in 30 s is down
OPENAI_OWNERS = {"openai", "system", "openai-internal"}


def _owners(models: object) -> list[str]:
    data = models.get("data") if isinstance(models, dict) else None
    found = [m.get("owned_by") for m in data if isinstance(m, dict)] if isinstance(data, list) else []
    return sorted({str(owner) for owner in found if owner is not None})


def kind_of(models: object) -> str:
    """The constraint a server other than OpenAI's takes, from its GET /models body (None when it did not answer)."""
    owners = set(_owners(models))
    if "llamacpp" in owners:
        return GRAMMAR
    if "vllm" in owners:
        return GUIDED
    return SCHEMA if owners and owners <= OPENAI_OWNERS else NONE


async def probe(client, openai: bool) -> str:
    """The constraint the client's server takes, asked once (PROBE_SECONDS); else free text, said on stderr."""
    if openai:
        return SCHEMA
    try:
        models = await client.models(PROBE_SECONDS)
    except TimeoutError:
        said = f"the server did not say what it is (GET /models: no answer within {PROBE_SECONDS:g} s)"
    except Exception as error:  # noqa: BLE001 (any failure to answer: the server is asked for free text)
        said = f"the server did not say what it is (GET /models: {client.failure(error)[:160]})"
    else:
        kind = kind_of(models)
        if kind != NONE:
            return kind
        owners = [repr(clipped(owner, 40)) for owner in _owners(models)[:3]]
        named = f"models owned by {', '.join(owners)}" if owners else "no owner of its models"
        said = f"the server's GET /models names {named}, not llama.cpp, vLLM or OpenAI"
    say_redacted(client, f"{said}; its answers are free text")
    return NONE


def refusal_line(client, kind: str, error: TargetFailed) -> str:
    """What is said, once, when the server refused the constraint and answered the same request without it."""
    return (
        f"the server at {client.public_base_url} ({SERVERS[kind]} by its GET /models) refused {NAMES[kind]} "
        f'({str(error)[:100]}); its answers are free text from here on, recorded as "constraint": "none" '
        "(--constraint none asks for free text from the start)"
    )


def say_redacted(client, text: str) -> None:
    """One line on stderr, credentials removed and control characters escaped."""
    say(f"judge: {client.redact(text)}")


def constrained(body: dict, kind: str) -> dict:
    """The request body asking for a label under `kind`, with log-probabilities where the server gives them."""
    labels = list(LABELS)
    if kind == NONE:
        return body
    extra: dict = {"logprobs": True, "top_logprobs": TOP_LOGPROBS}
    if kind == GRAMMAR:
        extra.update(top_logprobs=GRAMMAR_TOP_LOGPROBS, extra_body={"grammar": GBNF})
    elif kind == GUIDED:  # vLLM before 0.11 reads guided_choice, later ones structured_outputs
        extra["extra_body"] = {"guided_choice": labels, "structured_outputs": {"choice": labels}}
    else:
        schema = {
            "type": "object",
            "properties": {"label": {"type": "string", "enum": labels}},
            "required": ["label"],
            "additionalProperties": False,
        }
        extra["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "judgment", "strict": True, "schema": schema},
        }
        extra["max_tokens"] = SCHEMA_MAX_TOKENS
    return {**body, **extra}


def _label_of(token: object) -> tuple[str | None, bool]:
    """(the one label a token begins, whether it begins any): "Acc" -> accept; "a" -> (None, True)."""
    if not isinstance(token, str):
        return None, False
    word = "".join(words(token))
    if not word:
        return None, False
    begun = [label for label in LABELS if label.startswith(word)]
    return (begun[0] if len(begun) == 1 else None), bool(begun)


def _probability(logprob: object) -> float | None:
    """The probability a log-probability stands for, or None where it is none (NaN, infinite, positive, no number)."""
    if isinstance(logprob, bool) or not isinstance(logprob, int | float) or not -math.inf < logprob <= 0:
        return None
    return math.exp(logprob)


def p_accept(response: object) -> float | None:
    """The judge's probability of `accept` from a chat response's log-probabilities (see the module's docstring)."""
    try:
        positions = response["choices"][0]["logprobs"]["content"]
    except (KeyError, IndexError, TypeError):
        return None
    if not isinstance(positions, list):
        return None
    for position in positions:
        if not isinstance(position, dict):
            return None
        label, begins = _label_of(position.get("token"))
        if not begins:
            continue  # Markdown, a quote, JSON's {"label": before the answer
        if label is None:
            return None  # "a": accept or abstain, not told apart here
        if _probability(position.get("logprob")) is None:
            return None  # the answer's own token has no probability (NaN, positive, missing): nothing to share
        mass = dict.fromkeys(LABELS, 0.0)
        seen = set()
        alternatives = position.get("top_logprobs")
        for alternative in [position, *(alternatives if isinstance(alternatives, list) else [])]:
            if not isinstance(alternative, dict) or alternative.get("token") in seen:
                continue
            seen.add(alternative.get("token"))
            named, _ = _label_of(alternative.get("token"))
            probability = _probability(alternative.get("logprob"))
            if named and probability is not None:
                mass[named] += probability
        total = sum(mass.values())
        return round(mass["accept"] / total, 6) if total > 0 else None
    return None


def kept_fields(record: dict) -> dict:
    """An earlier record's `constraint` and `p_accept`, where each is a value this module writes."""
    kept: dict = {}
    if record.get("constraint") in KINDS:
        kept["constraint"] = record["constraint"]
    value = record.get("p_accept")
    if isinstance(value, float | int) and not isinstance(value, bool) and 0.0 <= value <= 1.0:
        kept["p_accept"] = value
    return kept
