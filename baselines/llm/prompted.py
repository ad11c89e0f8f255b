"""The SWORDS paper's few-shot prompted LLM baseline (appendix D.5), for any OpenAI-compatible API: each target's
prompt (prompt.py) sent through the `openai` client with bounded concurrency, retries and a cache (client.py), the
completion parsed (parse.py), under LLMConfig (config.py). Building it does no I/O; `start()` does. Answers are
yielded as they complete, so the runner checkpoints each one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from swords_baselines.llm.batch import custom_id, summary
from swords_baselines.llm.cache import ResponseCache
from swords_baselines.llm.client import Reply, api_key, check_server_proxy, effective_base_url
from swords_baselines.llm.config import LLMConfig
from swords_baselines.llm.errors import BadOutput, TargetFailed
from swords_baselines.llm.failures import Failure, FailurePolicy
from swords_baselines.llm.parse import bounded, extract, kept_length, parse_completion, to_prediction
from swords_baselines.llm.priming import priming_split
from swords_baselines.llm.prompting import prompting
from swords_baselines.llm.retry import Backoff
from swords_baselines.llm.session import LLMSession, Served
from swords_baselines.llm.tokens import encoding_for_model
from swords_baselines.llm.usage import reported_tokens, usage_figures
from swords_baselines.options import options_from
from swords_baselines.system import Prediction, System
from swords_lexsub.errors import SwordsError
from swords_lexsub.extras import EXTRAS
from swords_lexsub.terminal import shown


def _log(message: str) -> None:
    from tqdm import tqdm

    tqdm.write(shown(message), file=sys.stderr)  # above the runner's progress bar, not through it


@dataclass(frozen=True)
class TargetAnswer:
    """One target's outcome: its prediction, or why it has none (`failure`, credentials removed)."""

    target_id: str
    prediction: Prediction | None
    failure: str | None = None
    empty: bool = False  # the failure is an empty completion: the model's answer, not the server's fault


class LLM(Served, System):
    name = "llm"
    description = (
        "few-shot prompted LLM (SWORDS paper, appendix D.5) through an OpenAI-compatible API (any --base-url: "
        "OpenAI, vLLM, llama.cpp…) or a model served on this machine (--local): completions (base models, "
        "as in the paper) or chat"
    )
    batch_size = 256  # the runner's unit; within it requests run concurrently and answers stream back
    requires = EXTRAS["llm"]  # every module the client and its tokenizers import (swords_lexsub/extras.py)
    extra = "llm"
    needs = (
        "an OpenAI-compatible server: OpenAI's (a key in $OPENAI_API_KEY), any --base-url (vLLM, llama.cpp), "
        "or --local (the local-llm extra)"
    )
    options = options_from(LLMConfig)

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.settings = LLMConfig.of(**options)
        self.model = self.settings.model_name
        self.session = LLMSession()  # the engine, the client and the event loop
        self.tokenizer = self.builder = None
        self.parameters: dict = {}
        self.failed: dict[str, str] = {}  # target id -> why it failed, for the report
        self.empty_answers = 0  # empty completions recorded as no substitutes (--on-failure empty)
        self.bad_usage: set[str] = set()  # usage fields the server reported as no count (the cost is unknown)
        self.bounded_targets = 0  # completions cut to what is kept of them (parse.bounded)
        self._session_key: str | None = None
        self._ready = False
        self.offline = False  # a batch file's run (use_batch): no server is asked anything
        self.unimported: dict[str, str] = {}  # target id -> why the batch output file left it unanswered
        self.answers_imported = 0

    @classmethod
    def resolved_options(cls, options: dict, config: str, split: str) -> dict:
        """`priming` as the split the examples come from (`auto` resolved; never the scored split)."""
        priming = options.get("priming") or LLMConfig.priming
        try:
            source = priming_split(priming, config, split)
        except SwordsError as error:
            raise SwordsError(f"llm: {error}") from None
        return {**options, "priming": ":".join(source)}

    def use_api_key(self, key: str) -> None:
        """Use this key, held in this object only (a Space session's key: not the process's environment)."""
        if self._ready:
            raise SwordsError("llm: the API key is set before the system starts")
        self._session_key = key

    def use_batch(self) -> None:
        """Before it starts: the run writes or reads a batch file (batch.py), asking no server anything."""
        if self.settings.local:
            raise SwordsError(
                "llm: a batch file is for another engine (OpenAI's Batch API, vLLM's run_batch), and --local serves "
                "the model here: drop --local, and name the model the engine serves with --model"
            )
        if not self.settings.tokenizer and encoding_for_model(self.model) is None:
            raise SwordsError(
                f"llm: a batch file is made without asking any server, and no tokenizer is known for model "
                f"{self.model!r}: pass --tokenizer (an encoding such as cl100k_base, or the model's tokenizer.json)"
            )
        self.offline = True

    def check(self) -> None:
        """Before any work: OpenAI's API needs a key, and the environment's proxy for the server must work."""
        if not self.settings.local and not self.offline:
            base_url = effective_base_url(self.settings.base_url)
            api_key(base_url, self.settings.api_key_env, self._session_key)
            check_server_proxy(base_url)

    def start(self) -> None:
        """Start the local engine (--local), the client, the tokenizer and the prompt builder; once."""
        if self._ready:
            return
        settings = self.settings
        if settings.local:
            from swords_baselines.llm.engine import LocalEngine

            self.session.engine = LocalEngine(
                self.model, parallel=settings.parallel, context=settings.budget, flags={"context": "--budget"}
            )
        self.session.start(
            lambda engine: f"local:{engine.path.name}:{engine.path.stat().st_size}",  # the model file
            base_url=settings.base_url,
            api_key_env=settings.api_key_env,
            session_key=self._session_key,
            timeout=settings.seconds_a_request,
            max_retries=settings.max_retries,
            backoff=Backoff(settings.backoff),
            concurrency=settings.requests_in_flight,
            cache=ResponseCache(settings.cache_folder),
            on_retry=self._retrying,
            keep=lambda body, text: len(text) <= kept_length(body["max_tokens"]),  # no oversized answer on disk
        )
        if not self.offline:  # a server that queues what its slots cannot take gets no more at once
            said = self.session.fit_to_slots()
            if said is not None:
                _log(f"llm: {said}")
        served = self.model if not self.engine else self.engine.path.stem
        self.tokenizer, self.builder, self.parameters = prompting(
            settings,
            self.client.base_url,
            served,
            local=self.engine is not None,
            benchmark=self.benchmark,
            split=self.split,
        )
        self._ready = True

    def _retrying(self, usage, reason: str, wait: float) -> None:
        short = reason if len(reason) <= 40 else reason[:37] + "..."
        self.show_status(
            shown(f"{usage.retries} retr{'y' if usage.retries == 1 else 'ies'} (last: {short}), waiting {wait:.3g} s")
        )

    def request_body(self, row: dict) -> tuple[str, dict]:
        """(endpoint, body) of a target's request: everything that decides the answer, hence the cache key."""
        self._started()
        prompt = self.builder.build(row)
        if self.settings.mode == "chat":
            return "chat", {**self.parameters, "messages": prompt.messages}
        return "completions", {**self.parameters, "prompt": prompt.text}

    def _started(self) -> None:
        if not self._ready:
            raise SwordsError("llm: start() the system (or use it in a with block) before asking it")

    def batch_requests(self, rows: Sequence[dict], settings: dict) -> Iterator[tuple[str, str, str, dict]]:
        """(target id, custom_id, endpoint, body) of each row's request, as a batch file names it (batch.py)."""
        for row in rows:
            endpoint, body = self.request_body(row)
            yield row["id"], custom_id(row["id"], endpoint, body, settings), endpoint, body

    def _imported(self, row: dict) -> TargetAnswer:
        outcome = self.imported.outcomes.get(row["id"])
        if outcome is None or outcome.failure is not None:
            return TargetAnswer(row["id"], None, outcome.failure if outcome else "not in the file")
        endpoint, body = self.request_body(row)
        try:
            text, finish_reason = extract(endpoint, outcome.body)
        except BadOutput as error:
            return TargetAnswer(row["id"], None, str(error))
        return self._answered(row, body, Reply(self.client.redact(text), finish_reason, outcome.body, cached=False))

    async def _answer(self, row: dict) -> TargetAnswer:
        endpoint, body = self.request_body(row)
        try:
            reply = await self.client.request(endpoint, body)
        except TargetFailed as error:
            return TargetAnswer(row["id"], None, str(error))
        return self._answered(row, body, reply)

    def _answered(self, row: dict, body: dict, reply: Reply) -> TargetAnswer:
        """A reply as the target's answer: its tokens counted, its completion bounded and parsed."""
        usage = reply.response.get("usage") if isinstance(reply.response.get("usage"), dict) else {}
        counts = {}
        for field in ("prompt_tokens", "completion_tokens"):
            try:
                counts[field] = reported_tokens(usage, field)
            except ValueError as error:
                counts[field] = None  # our own count below; the cost is unknown from here on
                if field not in self.bad_usage:
                    self.bad_usage.add(field)
                    _log(
                        f"llm: the server at {self.client.public_base_url} reported usage.{field} = {error}, not a "
                        "token count; counting tokens here, and the cost is unknown"
                    )
        prompt_tokens, completion_tokens = counts["prompt_tokens"], counts["completion_tokens"]
        if prompt_tokens is None:  # a server without usage: our own count
            messages = body.get("messages")
            prompt_tokens = self.tokenizer.count_chat(messages) if messages else self.tokenizer.count(body["prompt"])
        text, finish_reason = bounded(reply.text, reply.finish_reason, self.settings.max_tokens)
        if completion_tokens is None:
            completion_tokens = self.tokenizer.count(text)
        self.client.usage.add_tokens(prompt_tokens, completion_tokens, cached=reply.cached)
        if not text.strip():  # the model's answer, which asking again would only repeat (or resample)
            reason = f"finish reason {finish_reason!r}"[:60] if finish_reason else "no finish reason"
            return TargetAnswer(row["id"], None, f"empty completion ({reason})", empty=True)
        if len(text) < len(reply.text):
            self.bounded_targets += 1
            _log(
                f"llm: {row['id']}: the server at {self.client.public_base_url} sent a completion of "
                f"{len(reply.text):,} characters for --max-tokens {self.settings.max_tokens}; kept the first "
                f"{len(text):,} ({kept_length(1)} a token), and at most {self.settings.max_tokens} substitutes"
            )
        # A completion that echoes a credential (some servers repeat the request) must not reach a file.
        substitutes = parse_completion(
            self.client.redact(text), row["target"], finish_reason, most=self.settings.max_tokens
        )
        return TargetAnswer(row["id"], to_prediction(substitutes))

    def answers(self, rows: Sequence[dict]) -> Iterator[TargetAnswer]:
        """Each row's TargetAnswer in completion order; a SwordsError only when no request can succeed (the server
        down, the key refused). The loop runs only while this generator waits, requests in flight on their sockets."""
        self._started()
        if self.imported is not None:
            yield from (self._imported(row) for row in rows)
            return
        finished = 0

        def kept() -> str:
            return (
                f"; {finished} finished targets are checkpointed, rerun the same command to resume once the server "
                "answers"
            )

        for answer in self.session.completed((self._answer(row) for row in rows), "llm", kept):
            finished += answer.failure is None
            yield answer

    def predict(self, rows: Sequence[dict]) -> Iterator[tuple[str, Prediction]]:
        """The run's --on-failure and --abort-after policy over answers() (failures.py); a failure is logged."""
        policy, finished = FailurePolicy(self.settings.on_failure, self.settings.abort_after), 0
        for answer in self.answers(rows):
            if answer.failure is None or (answer.empty and self.settings.on_failure == "empty"):
                policy.answered()
                finished += answer.failure is None
                self.empty_answers += answer.failure is not None
                self.answers_imported += self.imported is not None
                yield answer.target_id, answer.prediction or []
                continue
            if self.imported is not None:  # left unanswered, for the summary (no_answer): nothing to abort
                self.unimported[answer.target_id] = answer.failure
                continue
            self.failed[answer.target_id] = answer.failure
            _log(f"llm: {answer.target_id} failed: {answer.failure}")  # shown escaped: the server wrote part of it
            if self.settings.on_failure == "empty":
                yield answer.target_id, []
            policy.failed(Failure(answer.target_id, answer.failure, answer.empty))
        policy.end_of_batch(finished)

    def no_answer(self, missing: list[str], total: int) -> str:
        if self.imported is None:
            return super().no_answer(missing, total)
        return summary(self.imported, self.unimported, missing, total - len(missing), total)

    def report(self) -> dict:
        if self.client is None:
            return {}
        pricing = self.settings.pricing(self.client.base_url)
        figures = usage_figures(self.client.usage, pricing, self.bad_usage, batch=self.imported is not None)
        if self.imported is not None:
            figures["answers imported"] = self.answers_imported
        if self.failed:
            figures["failed targets"] = len(self.failed)
        if self.empty_answers:
            figures["empty completions (no substitutes)"] = self.empty_answers
        if self.bounded_targets:
            figures["completions cut to what is kept"] = self.bounded_targets
        return figures

    def close(self) -> None:
        self.session.close()
