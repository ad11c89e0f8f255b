"""The LLM judge: one chat request per candidate (prompt.py) through `swords run`'s client (baselines/llm/), to any
OpenAI-compatible server or the embedded engine, constrained to a label where the server can be (constraint.py). A
reply naming no label, or several, is a failed item, never guessed. A local model is known by its sha256.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from swords_baselines.judge import constraint as constraints
from swords_baselines.judge.model_file import content_sha256
from swords_baselines.judge.prompt import judge_id, parse_label, request_body
from swords_baselines.llm.batch import custom_id
from swords_baselines.llm.cache import ResponseCache
from swords_baselines.llm.client import Reply, api_key, check_server_proxy, effective_base_url, is_openai
from swords_baselines.llm.config import default_cache_dir
from swords_baselines.llm.errors import BadOutput, TargetFailed
from swords_baselines.llm.parse import extract
from swords_baselines.llm.retry import Backoff
from swords_baselines.llm.session import LLMSession, Served
from swords_baselines.llm.timeouts import request_timeout
from swords_lexsub.credentials import public_url
from swords_lexsub.errors import SwordsError
from swords_metric import Candidate, Task

LOCAL_CONTEXT = 1024  # tokens a slot of the embedded engine: the instructions, a context and a candidate fit in 600
LOCAL_SLOTS = 2


@dataclass(frozen=True)
class Verdict:
    """One candidate's outcome: its label, or why it has none (`failure`; `answer` is what the model said)."""

    task: Task
    candidate: Candidate
    label: str | None
    answer: str | None = None
    failure: str | None = None
    constraint: str = constraints.NONE  # how the answer was constrained (constraints.KINDS)
    p_accept: float | None = None  # the judge's probability of accept, where the server gave log-probabilities

    def fields(self) -> dict:
        """What a judgments record holds of the verdict besides its label."""
        return {"constraint": self.constraint, **({"p_accept": self.p_accept} if self.p_accept is not None else {})}


@dataclass(frozen=True)
class JudgeSettings:
    model: str | None = None  # with --local: the bundled model's name or a .gguf path
    base_url: str | None = None
    local: bool = False
    api_key_env: str = "OPENAI_API_KEY"
    cache_dir: str | None = None  # 'off' disables; None: the cache `swords run` uses
    timeout: float | None = None  # None: llm/config.py's default, for a server or for --local
    max_retries: int = 6
    backoff: float = 1.0
    concurrency: int = 4
    constraint: str = constraints.AUTO  # --constraint: auto (what the server takes) or none (free text)

    @property
    def seconds_a_request(self) -> float:
        return request_timeout(self.timeout, self.local)

    def cache_folder(self) -> Path | None:
        if (self.cache_dir or "").lower() == "off":
            return None
        return Path(self.cache_dir) if self.cache_dir else default_cache_dir()


class LLMJudge(Served):
    """`with LLMJudge(settings) as judge: judge.verdicts(items)`; only entering starts anything (engine, client)."""

    def __init__(self, settings: JudgeSettings) -> None:
        if not settings.local and not settings.model:
            raise SwordsError("judge llm: name the model the server serves with --model (or pass --local)")
        if settings.local and settings.base_url:
            raise SwordsError("judge llm: --local serves its own model; leave out --base-url")
        self.settings = settings
        self.model = settings.model  # as sent in requests
        self.constraint = constraints.NONE  # known once the server was asked (__enter__)
        self.sha256: str | None = None  # a local model file's content
        self.session = LLMSession()  # the engine, the client and the event loop
        self._entered = False
        self._first = asyncio.Lock()  # held by the requests that wait for the first constrained answer
        self._tried = False  # a constrained request was answered, or the constraint refused
        self.batch = False  # a batch file's judging (use_batch): no server is asked anything
        self.slots_said: str | None = None  # the server's slots and what is sent at once, once asked (__enter__)
        if settings.local:
            from swords_baselines.llm.engine import DEFAULT_MODEL, LocalEngine

            self.session.engine = LocalEngine(settings.model, parallel=LOCAL_SLOTS, context=LOCAL_CONTEXT)
            self.model = self.engine.path.stem
            self.sha256 = content_sha256(self.engine.path)
            # Named by content: the shipped model's name only for the shipped model's bytes, any other file by its
            # file's name; both with the content's digest, so no other file can take a judge's id or its figures.
            shipped = self.engine.model == DEFAULT_MODEL or self.sha256 == _shipped_sha256()
            name = DEFAULT_MODEL if shipped else self.engine.path.stem
            self.judge = judge_id(f"{name}@{self.sha256[:12]}")
        else:
            self.judge = judge_id(settings.model)

    def check(self) -> None:
        """Before any work: OpenAI's API needs a key, and the server's proxy must work (a batch file's: nothing)."""
        if not self.settings.local and not self.batch:
            base_url = effective_base_url(self.settings.base_url)
            api_key(base_url, self.settings.api_key_env)  # a missing key: said before work
            check_server_proxy(base_url, "judge llm")  # so is a proxy variable that cannot work

    def use_batch(self) -> None:
        """Before it is entered: a batch file's judging (llm/batch.py), asking no server; the constraint the file's
        engine takes: OpenAI's JSON schema for OpenAI's API (no --base-url), else vLLM's guided choice (run_batch)."""
        if self.settings.local:
            raise SwordsError(
                "judge llm: a batch file is for another engine (OpenAI's Batch API, vLLM's run_batch), and --local "
                "serves the model here: drop --local, and name the model the engine serves with --model"
            )
        self.batch = True
        if self.settings.constraint != constraints.NONE:
            openai = is_openai(effective_base_url(self.settings.base_url))
            self.constraint = constraints.SCHEMA if openai else constraints.GUIDED

    def batch_requests(self, items: Sequence[tuple[Task, Candidate]], settings: dict) -> Iterator[tuple]:
        """(item key, custom_id, endpoint, body) of each request, the constraint in the body (extra_body merged)."""
        for task, candidate in items:
            body = constraints.constrained(request_body(self.model, task, candidate.substitute), self.constraint)
            body = {**{k: v for k, v in body.items() if k != "extra_body"}, **body.get("extra_body", {})}
            item = batch_item(task, candidate)
            yield item, custom_id(item, "chat", body, settings), "chat", body

    def _imported(self, task: Task, candidate: Candidate) -> Verdict:
        kind, outcome = self.constraint, self.imported.outcomes.get(batch_item(task, candidate))
        if outcome is None or outcome.failure is not None:
            why = outcome.failure if outcome else "not in the batch output file"
            return Verdict(task, candidate, None, failure=f"no answer: {why}", constraint=kind)
        try:
            text, _ = extract("chat", outcome.body)
        except BadOutput as error:
            return Verdict(task, candidate, None, failure=f"no answer: {error}", constraint=kind)
        return self._read(task, candidate, kind, Reply(self.client.redact(text), None, outcome.body, cached=False))

    @property
    def server(self) -> str:
        """What answers: the server's public URL, or the embedded engine's model file."""
        if self.engine is not None:
            return f"local:{self.engine.path.name}@sha256:{self.sha256}"
        return public_url(effective_base_url(self.settings.base_url))

    def __enter__(self) -> LLMJudge:
        try:
            return self._enter()
        except BaseException:  # a start that fails or is interrupted (Ctrl-C during the probe) closes what it started
            self.__exit__()
            raise

    def _enter(self) -> LLMJudge:
        settings = self.settings
        self.session.start(
            lambda engine: f"local:sha256:{self.sha256}",  # the model's content
            base_url=settings.base_url,
            api_key_env=settings.api_key_env,
            timeout=settings.seconds_a_request,
            max_retries=settings.max_retries,
            backoff=Backoff(settings.backoff),
            concurrency=LOCAL_SLOTS if self.engine is not None else settings.concurrency,
            cache=ResponseCache(settings.cache_folder()),
        )
        self._entered = True
        if not self.batch:  # a server that queues what its slots cannot take gets no more at once
            self.slots_said = self.session.fit_to_slots()
        if settings.constraint == constraints.NONE:
            self.constraint = constraints.NONE  # the server is not asked what it is
        elif self.batch:
            pass  # the batch file's engine's (use_batch)
        elif self.engine is not None:
            self.constraint = constraints.GRAMMAR  # llama.cpp's
        else:
            openai = is_openai(effective_base_url(settings.base_url))
            self.constraint = self.session.run(constraints.probe(self.client, openai))
        return self

    def __exit__(self, *exc) -> None:
        self._entered = False
        self.session.close()

    async def _verdict(self, task: Task, candidate: Candidate) -> Verdict:
        if self.constraint != constraints.NONE and not self._tried:
            # One request at a time until the server took or refused the constraint: one that refuses it is sent it
            # once, not once a request in flight.
            async with self._first:
                if not self._tried:
                    try:
                        return await self._asked(task, candidate)
                    finally:
                        self._tried = True
        return await self._asked(task, candidate)

    async def _asked(self, task: Task, candidate: Candidate) -> Verdict:
        kind = self.constraint
        body = request_body(self.model, task, candidate.substitute)
        try:
            reply = await self.client.request("chat", constraints.constrained(body, kind))
        except TargetFailed as error:
            if kind == constraints.NONE or error.status not in constraints.REFUSED_STATUSES:
                return Verdict(task, candidate, None, failure=f"no answer: {error}", constraint=kind)
            try:  # the same request without the constraint: answered, the server refused the constraint alone
                reply = await self.client.request("chat", body)
            except TargetFailed as again:
                return Verdict(task, candidate, None, failure=f"no answer: {again}", constraint=kind)
            if self.constraint != constraints.NONE:  # said once, for the requests in flight with it too
                self.constraint = constraints.NONE
                constraints.say_redacted(self.client, constraints.refusal_line(self.client, kind, error))
            kind = constraints.NONE
        return self._read(task, candidate, kind, reply)

    def _read(self, task: Task, candidate: Candidate, kind: str, reply: Reply) -> Verdict:
        """A reply as the candidate's verdict: a label, its probability where the reply tells it, or a failure."""
        if not finite_json(reply.response):  # Python reads NaN and Infinity; no JSON writer writes them
            failure = "no answer: the server's answer is malformed (its JSON holds NaN or Infinity, which JSON has not)"
            return Verdict(task, candidate, None, failure=failure, constraint=kind)
        label = parse_label(reply.text)
        if label is None:
            failure = f"not a label: {reply.text[:60]!r}"
            return Verdict(task, candidate, None, reply.text, failure=failure, constraint=kind)
        probability = constraints.p_accept(reply.response) if kind != constraints.NONE else None
        return Verdict(task, candidate, label, reply.text, constraint=kind, p_accept=probability)

    def verdicts(self, items: Sequence[tuple[Task, Candidate]]) -> Iterator[Verdict]:
        """Each item's Verdict in completion order; a SwordsError only when no request can succeed."""
        if not self._entered:
            raise SwordsError("judge llm: use the judge in a with block")
        if self.imported is not None:
            yield from (self._imported(task, candidate) for task, candidate in items)
            return
        requests = (self._verdict(task, candidate) for task, candidate in items)
        yield from self.session.completed(requests, "judge llm")

    @property
    def requests(self) -> int:
        return self.client.usage.requests if self.client is not None else 0

    @property
    def cache_hits(self) -> int:
        return self.client.usage.cache_hits if self.client is not None else 0


def batch_item(task: Task, candidate: Candidate) -> str:
    """A candidate's key in a batch file: its task and its place there (the tasks file's digest is in the custom_id)."""
    return f"{task.task}/{task.candidates.index(candidate)}"


def finite_json(value: object) -> bool:
    """Whether every number in parsed JSON is finite (walked without recursion, however deep)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return False
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return True


def _shipped_sha256() -> str | None:
    """The shipped model's content digest, or None where it is not installed."""
    from swords_baselines.llm.engine import DEFAULT_MODEL, model_path

    try:
        return content_sha256(model_path(DEFAULT_MODEL))
    except (SwordsError, OSError):
        return None
