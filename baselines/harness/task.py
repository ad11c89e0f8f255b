"""The SWORDS generation task for lm-evaluation-harness: one class, configured per benchmark split by the YAML
files beside it (`dataset_name`, `test_split`).

It sends what `swords run --system llm` sends for the same settings (one prompt builder, the same stops, penalties
and logit bias, the same parser), and the answers are scored by the benchmark's scorer on the targets lm-eval asked,
so the figures are `swords evaluate --given-only`'s. The LLM's options come from `--metadata '{"swords": {...}}'`
(settings.py). `--num_fewshot`, `--apply_chat_template` and `--system_instruction` would change the prompt (its
priming examples are in it): refused, as is a `--limit` leaving no target; `fewshot_as_multiturn` acts only through
a chat template, and `simple_evaluate` sets it by default. lm-eval keeps no finish reason, so a completion counts as
cut when the logit bias leaves the server no other stop (the paper's setting), or when it is `max_tokens` long in the
served model's tokens.

lm-eval's model bounds its own waits (`--model_args timeout=SECONDS,max_retries=N`: 300 s × 3 by default, about 15
minutes, then lm-eval's traceback); the task first asks GET /models (SERVER_ANSWER_SECONDS), so a server that does
not answer at all is one line within seconds.
"""

from __future__ import annotations

import functools
import sys
import urllib.error
import urllib.request
from collections.abc import Callable

import datasets
from lm_eval.api.task import ConfigurableTask

import swords_dataset
from swords_baselines.harness.settings import check_limit, settings_of
from swords_baselines.llm.config import PAPER_STOPS
from swords_baselines.llm.parse import bounded, parse_completion, to_prediction
from swords_baselines.llm.prompting import prompting
from swords_lexsub.credentials import public_url
from swords_lexsub.errors import SwordsError
from swords_lexsub.terminal import shown
from swords_metric import MetricInputError, evaluate, family_of, scorer_for

SIGNATURE = "signature"  # every task also reports the scorer's signature
VERSION = 2  # 2: priming never from the split being scored (swords_dev_gen primes from SWORDS test)
SERVER_ANSWER_SECONDS = 10.0  # the task's own question to the server, before lm-eval's requests
# lm-eval's options that would change the prompt, as lm-eval passes them to build_all_requests.
PROMPT_OPTIONS = (
    ("num_fewshot", "--num_fewshot"),
    ("apply_chat_template", "--apply_chat_template"),
    ("system_instruction", "--system_instruction"),
)


def kept_whole(method: Callable) -> Callable:
    """A task's method as a plain function for lm-eval's task config: lm-eval dumps it with dataclasses.asdict,
    which deep-copies a bound method's whole task (5-7 s and 140 MB a task) but keeps a function as it is."""

    @functools.wraps(method)
    def call(*args, **kwargs):
        return method(*args, **kwargs)

    return call


class TaskError(SwordsError):
    """A task that cannot run as configured (named, one line)."""


def fail(task: str, error: Exception):
    """Stop a task that cannot run: under `lm_eval`, one line on stderr (exit 2); from Python, a TaskError."""
    message = shown(f"{task}: {error}")
    if sys.argv and sys.argv[0].rsplit("/", 1)[-1] in ("lm_eval", "lm-eval"):
        print(f"lm_eval: error: {message}", file=sys.stderr)
        raise SystemExit(2)
    raise TaskError(message) from None


def check_server_answers(base_url: str, seconds: float = SERVER_ANSWER_SECONDS) -> None:
    """The server answers GET BASE_URL/models (any HTTP status) within `seconds`; else a SwordsError."""
    where = public_url(base_url)
    try:
        with urllib.request.urlopen(where.rstrip("/") + "/models", timeout=seconds) as response:
            response.read(1)
    except urllib.error.HTTPError:
        return  # an answer: the server is there (a key, if it needs one, is lm-eval's)
    except (OSError, ValueError) as error:  # refused, timed out, reset; a URL urllib cannot use
        reason = getattr(error, "reason", error)  # a URLError wraps the socket's error
        why = (
            f"no answer within {seconds:g} s"
            if isinstance(reason, TimeoutError)
            else (getattr(reason, "strerror", None) or str(reason))
        )
        raise SwordsError(
            f"the server at {where} does not answer (GET /models: {why}); lm-eval itself waits up to "
            "--model_args timeout (300 s) × max_retries (3) for each request"
        ) from None


class SwordsGeneration(ConfigurableTask):
    """A benchmark split as an lm-eval generation task; see the module's docstring."""

    def __init__(self, config: dict) -> None:
        name = config.get("task") or "swords task"
        self.benchmark, self.split = config.get("dataset_name"), config.get("test_split")
        try:
            swords_dataset.check_config(self.benchmark, self.split)
            self.settings = settings_of(config.get("metadata") or {})
            priming = self.settings.priming_split(self.benchmark, self.split, flag="--metadata swords.priming")
        except SwordsError as error:
            fail(name, error)
        self._tokenizer = self._builder = self._scorer = None
        self._scored: dict = {}
        self.family = family_of(self.benchmark)  # decided once, with the config: its figures, its scorer
        self.metrics = self.family.reader.reported
        aggregations = {metric: self._aggregation(metric) for metric in (*self.metrics, SIGNATURE)}
        super().__init__(
            config={
                **{key: value for key, value in config.items() if key != "class"},  # the YAML's pointer to this class
                "output_type": "generate_until",
                "test_split": self.split,
                "doc_to_text": kept_whole(self._prompt),
                "doc_to_target": lambda doc: "",  # zero-shot: the priming examples are in the prompt itself
                "process_results": kept_whole(self._answer),
                "generation_kwargs": self._generation(None),
                "metric_list": [
                    {
                        "metric": metric,
                        "aggregation": aggregate,
                        "higher_is_better": None if metric == SIGNATURE else True,
                    }
                    for metric, aggregate in aggregations.items()
                ],
                "metadata": {**(config.get("metadata") or {}), "version": VERSION, "priming": ":".join(priming)},
            }
        )

    def build_all_requests(self, *args, **kwargs) -> None:
        """lm-eval's requests, once no option of PROMPT_OPTIONS would change the prompt."""
        given = {**kwargs, "num_fewshot": self.config.num_fewshot}
        changed = [flag for name, flag in PROMPT_OPTIONS if given.get(name)]
        if changed:
            fail(
                self.config.task,
                SwordsError(
                    f"{changed[0]} would change the prompt: the priming examples are in the prompt itself, which the "
                    "task sends as a completion, as the paper did (`swords run --mode chat` is the way for chat models)"
                ),
            )
        try:
            check_limit(kwargs.get("limit"), len(self.eval_docs))
        except SwordsError as error:
            fail(self.config.task, error)
        return super().build_all_requests(*args, **kwargs)

    def download(self, dataset_kwargs=None, **kwargs) -> None:
        """The shipped split, offline (no Hub)."""
        self.dataset = datasets.DatasetDict({self.split: swords_dataset.load(self.benchmark, split=self.split)})

    def _generation(self, parameters: dict | None) -> dict:
        """lm-eval's generation arguments for the runner's request (`parameters` None: before the logit bias)."""
        settings = self.settings
        return {
            "until": settings.stops or [],
            "max_gen_toks": settings.max_tokens,
            "temperature": settings.temperature,
            "do_sample": False,
            "presence_penalty": settings.presence_penalty,
            "frequency_penalty": settings.frequency_penalty,
            **({"logit_bias": parameters["logit_bias"]} if parameters and "logit_bias" in parameters else {}),
        }

    def _prepare(self) -> None:
        """The tokenizer and prompt builder (asking the server's /tokenize where the runner would), once."""
        if self._builder is None:
            try:
                if not self.settings.base_url and not self.settings.tokenizer:
                    raise SwordsError(
                        "give the server as lm-eval's --model_args base_url (its tokenizer counts the prompt's budget)"
                    )
                if self.settings.base_url:
                    check_server_answers(self.settings.base_url)
                self._tokenizer, self._builder, parameters = prompting(
                    self.settings,
                    self.settings.base_url or "",
                    self.settings.model_name,
                    benchmark=self.benchmark,
                    split=self.split,
                )
            except SwordsError as error:
                fail(self.config.task, error)
            self.config.generation_kwargs = self._generation(parameters)

    def _prompt(self, doc: dict) -> str:
        self._prepare()
        return self._builder.build(doc).text

    def construct_requests(self, doc, ctx, **kwargs):
        self._prepare()  # the logit bias is in the served model's token ids
        return super().construct_requests(doc, ctx, **kwargs)

    def _answer(self, doc: dict, results: list[str]) -> dict:
        """One target's completion as the runner parses it: (target id, ranked substitutes) for every metric."""
        self._prepare()
        max_tokens = self.settings.max_tokens
        text = results[0] if results else ""
        # As the runner keeps it: a server that ignores max_tokens cannot make an answer no reader takes back.
        text, finish_reason = bounded(text, None, max_tokens)
        if finish_reason is None:
            finish_reason = (
                "length"
                if text and (self._only_the_limit_stops() or self._tokenizer.count(text) >= max_tokens)
                else "stop"
            )
        prediction = to_prediction(parse_completion(text, doc["target"], finish_reason, most=max_tokens))
        return {metric: (doc["id"], prediction) for metric in (*self.metrics, SIGNATURE)}

    def _only_the_limit_stops(self) -> bool:
        """Whether the server can end a completion only at max_tokens (the paper's setting): counting tokens again is
        not enough there, as re-tokenized text can take fewer tokens than were generated."""
        return self.settings.bans_newlines and set(self.settings.stops or ()) <= set(PAPER_STOPS)

    def _score(self, items: list) -> dict:
        key = tuple((target_id, tuple(map(tuple, prediction))) for target_id, prediction in items)
        if key not in self._scored:
            if self._scorer is None:
                self._scorer = scorer_for(self.benchmark, self.split, family=self.family)
            try:  # the targets answered (a --limit run's), scored as `swords run` scores them
                evaluation = evaluate(  # no intervals: lm-eval draws its own (--bootstrap_iters)
                    dict(items), scorer=self._scorer, given_only=True, analysis=False, bootstrap=0, source="predictions"
                )
            except MetricInputError as error:
                fail(self.config.task, error)
            self._scored = {key: evaluation.result}  # one set of answers at a time: every metric reads it
        return self._scored[key]

    def _aggregation(self, metric: str):
        def aggregate(items: list) -> float | str:
            return self._score(items)[metric]

        aggregate.__name__ = f"swords_{metric}"
        return aggregate
