"""The SWORDS generation task for lm-evaluation-harness: one class, configured per benchmark split by the YAML
files beside it (`dataset_name`, `test_split`).

What it sends is what `swords run --system llm` sends for the same settings: the prompt from the same builder
(the paper's few-shot prompt, priming examples drawn the same seeded way, the budget counted with the served
model's tokenizer), the same stops, penalties and logit bias (`prompted.prompting`, from LLMConfig), and each
completion goes through the same parser. The per-target answers are scored together by the SWORDS Scorer, on
the targets lm-eval asked (all of the split, or `--limit` of them), so the figures are `swords evaluate`'s.

Settings: lm-eval passes its `--model_args` to tasks, so `model` and `base_url` come from there; the prompted
LLM's own options come from `--metadata '{"swords": {"budget": 640, ...}}'` (the names of `swords run --system
llm`'s options). The completion's finish reason does not reach a task (lm-eval keeps only the text), so a
completion as long as `max_tokens` in the served model's tokens counts as cut by the limit, as the server
would have said.
"""

from __future__ import annotations

import sys

import datasets
from lm_eval.api.task import ConfigurableTask

import swords_dataset
from swords_baselines.llm.config import LLMConfig
from swords_baselines.llm.parse import parse_completion, to_prediction
from swords_baselines.llm.prompted import prompting
from swords_dataset.errors import SwordsError
from swords_metric import MetricInputError, Scorer

# The figures of the SWORDS paper's Tables 4 and 8 (percent), and the Scorer's signature.
METRICS = ("lenient_a_f@10", "lenient_c_f@10", "strict_a_f@10", "strict_c_f@10", "strict_c_p@1", "best_r",
           "best_mode_r", "oot_r", "oot_mode_r")
SIGNATURE = "signature"
# Options of the prompted LLM that lm-eval decides with its own (`--model_args`, `--limit`, its retries).
LM_EVAL_DECIDES = ("model", "base_url", "local", "parallel", "mode", "system_prompt", "api_key_env", "concurrency",
                   "cache_dir", "timeout", "max_retries", "backoff", "abort_after", "on_failure", "price_prompt",
                   "price_completion", "limit")
VERSION = 1


class TaskError(SwordsError):
    """A task that cannot run as configured (named, one line)."""


def fail(task: str, error: Exception):
    """Stop on a task that cannot run: under the `lm_eval` command, with one line on stderr (exit 2), as every
    swords command does, not a traceback; from Python (`lm_eval.simple_evaluate`), with a TaskError."""
    message = f"{task}: {error}"
    if sys.argv and sys.argv[0].rsplit("/", 1)[-1] in ("lm_eval", "lm-eval"):
        print(f"lm_eval: error: {message}", file=sys.stderr)
        raise SystemExit(2)
    raise TaskError(message) from None


def api_root(base_url: str | None) -> str | None:
    """The API's base URL from lm-eval's `base_url` (which names the endpoint, …/v1/completions)."""
    if not base_url:
        return None
    root = base_url.rstrip("/")
    for endpoint in ("/chat/completions", "/completions"):
        if root.endswith(endpoint):
            return root[: -len(endpoint)]
    return root


def settings_of(metadata: dict) -> LLMConfig:
    """The prompted LLM's settings for a task: `model` and `base_url` from lm-eval's model arguments, the rest
    from `--metadata '{"swords": {...}}'`."""
    ours = metadata.get("swords") or {}
    if not isinstance(ours, dict):
        raise SwordsError("--metadata's \"swords\" must be an object of `swords run --system llm` options")
    decided = [name for name in ours if name in LM_EVAL_DECIDES]
    if decided:
        raise SwordsError(f"--metadata swords.{decided[0]}: lm-eval decides that (its --model_args, --limit); the "
                          "tasks send completions, as the paper did")
    return LLMConfig.of(model=metadata.get("model") or metadata.get("pretrained"),
                        base_url=api_root(metadata.get("base_url")), **ours)


class SwordsGeneration(ConfigurableTask):
    """A benchmark split as an lm-eval generation task; see the module's docstring."""

    def __init__(self, config: dict) -> None:
        name = config.get("task") or "swords task"
        self.benchmark, self.split = config.get("dataset_name"), config.get("test_split")
        try:
            swords_dataset.check_config(self.benchmark, self.split)
            self.settings = settings_of(config.get("metadata") or {})
        except SwordsError as error:
            fail(name, error)
        self._tokenizer = self._builder = self._scorer = None
        self._scored: dict = {}
        aggregations = {metric: self._aggregation(metric) for metric in (*METRICS, SIGNATURE)}
        super().__init__(config={
            **{key: value for key, value in config.items() if key != "class"},  # the YAML's pointer to this class
            "output_type": "generate_until",
            "test_split": self.split,
            "doc_to_text": self._prompt,
            "doc_to_target": lambda doc: "",  # zero-shot: the priming examples are in the prompt itself
            "process_results": self._answer,
            "generation_kwargs": self._generation(None),
            "metric_list": [{"metric": metric, "aggregation": aggregate,
                             "higher_is_better": None if metric == SIGNATURE else True}
                            for metric, aggregate in aggregations.items()],
            "metadata": {**(config.get("metadata") or {}), "version": VERSION},
        })

    def download(self, dataset_kwargs=None, **kwargs) -> None:
        """The shipped split, offline (no Hub)."""
        self.dataset = datasets.DatasetDict({self.split: swords_dataset.load(self.benchmark, split=self.split)})

    # -- what is sent --

    def _generation(self, parameters: dict | None) -> dict:
        """lm-eval's generation arguments for the request the runner would send (`parameters`: the runner's,
        once the served model's tokenizer is known; None: before, without the logit bias)."""
        settings = self.settings
        arguments = {"until": settings.stops or [], "max_gen_toks": settings.max_tokens,
                     "temperature": settings.temperature, "do_sample": False,
                     "presence_penalty": settings.presence_penalty, "frequency_penalty": settings.frequency_penalty}
        if parameters and "logit_bias" in parameters:
            arguments["logit_bias"] = parameters["logit_bias"]
        return arguments

    def _prepare(self) -> None:
        """The tokenizer and prompt builder (asking the server's /tokenize where the runner would), once."""
        if self._builder is None:
            try:
                if not self.settings.base_url and not self.settings.tokenizer:
                    raise SwordsError("give the server as lm-eval's --model_args base_url (its tokenizer counts the "
                                      "prompt's budget)")
                self._tokenizer, self._builder, parameters = prompting(self.settings, self.settings.base_url or "",
                                                                       self.settings.model_name)
            except SwordsError as error:
                fail(self.config.task, error)
            self.config.generation_kwargs = self._generation(parameters)

    def _prompt(self, doc: dict) -> str:
        self._prepare()
        return self._builder.build(doc).text

    def construct_requests(self, doc, ctx, **kwargs):
        self._prepare()  # the logit bias is in the served model's token ids
        return super().construct_requests(doc, ctx, **kwargs)

    # -- what is scored --

    def _answer(self, doc: dict, results: list[str]) -> dict:
        """One target's completion as the runner parses it: (target id, ranked substitutes) for every metric."""
        self._prepare()
        text = results[0] if results else ""
        cut = text and self._tokenizer.count(text) >= self.settings.max_tokens
        prediction = to_prediction(parse_completion(text, doc["target"], "length" if cut else "stop"))
        return {metric: (doc["id"], prediction) for metric in (*METRICS, SIGNATURE)}

    def _score(self, items: list) -> dict:
        key = tuple((target_id, tuple(map(tuple, prediction))) for target_id, prediction in items)
        if key not in self._scored:
            if self._scorer is None:
                self._scorer = Scorer.from_dataset(self.benchmark, self.split)
            try:
                scorer, prepared = self._scorer.restricted_to_given(self._scorer.prepare(dict(items)))
            except MetricInputError as error:
                fail(self.config.task, error)
            self._scored = {key: scorer.score(prepared)}  # one set of answers at a time: every metric reads it
        return self._scored[key]

    def _aggregation(self, metric: str):
        def aggregate(items: list) -> float | str:
            return self._score(items)[metric]

        aggregate.__name__ = f"swords_{metric}"
        return aggregate
