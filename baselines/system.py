"""What a baseline system is (its options: options.py), and the registry `swords run` picks systems from.

A system turns benchmark rows into ranked substitutes; the runner records each answer as soon as it is yielded, so
a system that yields target by target loses nothing on a crash.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from swords_baselines.options import Option
from swords_lexsub.arguments import did_you_mean
from swords_lexsub.errors import SwordsError
from swords_lexsub.extras import import_failure, installed, owner

Prediction = list[tuple[str, float]]  # ranked (substitute, score), best first


class System:
    """Base class. Subclasses set `name`, `description`, `options`, and implement `predict`."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()
    setting: ClassVar[str] = "generative"  # or "ranking": orders each row's candidate pool
    batch_size: ClassVar[int] = 64  # rows per call of predict (the runner checkpoints between answers)
    substitutes_lemmatized: ClassVar[bool] = False
    requires: ClassVar[tuple[str, ...]] = ()  # the modules it imports when it runs, installed by `extra`
    extra: ClassVar[str] = ""
    needs: ClassVar[str] = ""  # what else it needs (data, a model, a key, a server), for `swords run --list`
    # What it needs of a benchmark (see `refusal`).
    english_only: ClassVar[bool] = False
    needs_tags: ClassVar[bool] = False
    needs_candidates: ClassVar[bool] = False

    @classmethod
    def missing_modules(cls) -> list[str]:
        return [module for module in cls.requires if not installed(module)]

    @classmethod
    def install_hint(cls) -> str:
        return f"pip install 'swords-lexsub[{cls.extra}]'"

    def __init__(self, **options) -> None:  # each class reads its own options (checked by its parser)
        self.benchmark: str | None = None  # set by for_benchmark
        self.split: str | None = None

    def for_benchmark(self, config: str, split: str | None = None) -> None:
        """Tell the system, before it starts, which config and split it will answer (the LLM's priming follows)."""
        self.benchmark, self.split = config, split

    @classmethod
    def resolved_options(cls, options: dict, config: str, split: str) -> dict:
        """The options as used on `split` of `config` (`priming auto` becomes a split); a SwordsError if unusable."""
        return options

    def show_status(self, status: str) -> None:
        """A short live status (retries under way); the runner shows it beside its progress bar."""

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """Why the system cannot run here with its defaults (an extra, model or data file missing), else None."""
        missing = cls.missing_modules()
        return f"needs {', '.join(missing)}: {cls.install_hint()}" if missing else None

    @classmethod
    def default(cls, option: str) -> object:
        return next(o.default for o in cls.options if o.name == option)

    @classmethod
    def refusal(cls, config: str) -> str | None:
        """Why the system cannot answer a benchmark's targets at all, in one line, checked before any work."""
        import swords_dataset

        if cls.english_only and swords_dataset.language(config) != "en":
            language = swords_dataset.LANGUAGE_NAMES.get(swords_dataset.language(config), "not English")
            return f"{cls.name} is English-only (English WordNet or thesaurus); {config} is {language}"
        if cls.needs_tags and config in swords_dataset.UNTAGGED_CONFIGS:
            return f"{cls.name} needs the target's POS and lemma, which {config} does not give"
        if cls.needs_candidates and config in swords_dataset.UNTAGGED_CONFIGS:
            return f"{cls.name} ranks the benchmark's candidate pool, which {config} does not give"
        return None

    def check(self) -> None:
        """Raise SwordsError if the system cannot run (a missing key, file or model), before any work."""

    def start(self) -> None:
        """Acquire what predicting needs (a server, a connection, a model), after `check`; a second call does nothing.
        `with system:` starts and closes; `swords run` starts a system only when targets remain to answer."""

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def covers(self, rows: Sequence[dict]) -> list[dict]:
        """The rows this system can answer at all (recorded outputs exist for some targets); the runner scores these."""
        return list(rows)

    def predict(self, rows: Sequence[dict]) -> Iterator[tuple[str, Prediction]]:
        """Yield (row id, ranked substitutes) for every row, in any order."""
        raise NotImplementedError

    def no_answer(self, missing: list[str], total: int) -> str:
        """The line a run ends with when rows of its `total` are left without an answer (`missing`, in row order)."""
        return f"{self.name} gave no answer for {len(missing)} targets (first: {missing[0]})"

    def report(self) -> dict:
        """Figures for the end of a run (tokens, cost, cache hits…); empty by default."""
        return {}

    def close(self) -> None:
        """Release resources (servers, sessions)."""


@dataclass
class Registry:
    # name -> "module:Class", imported only when the system is used (heavy dependencies stay optional).
    entries: dict[str, str] = field(default_factory=dict)

    def cls(self, name: str) -> type[System]:
        """The system's class, whether or not its extra is installed (for its --help and the CLI reference)."""
        if name not in self.entries:
            raise SwordsError(
                f"unknown system {name!r}{did_you_mean(name, self.entries)}; `swords run --list` shows them"
            )
        module, cls_name = self.entries[name].split(":")
        try:
            return getattr(importlib.import_module(module), cls_name)
        except ImportError as error:
            raise import_failure(f"system {name!r}", error, owner(module)) from None

    def get(self, name: str) -> type[System]:
        """The system's class; a SwordsError naming the extra to install if its dependencies are missing."""
        cls = self.cls(name)
        missing = cls.missing_modules()
        if missing:
            raise SwordsError(f"system {name!r} needs {', '.join(missing)}: {cls.install_hint()}")
        return cls


SYSTEMS = Registry(
    {
        "coinco-oracle": "swords_baselines.classic.oracles:CoincoOracle",
        "thesaurus-oracle": "swords_baselines.classic.oracles:ThesaurusOracle",
        "humans": "swords_baselines.classic.oracles:Humans",
        "humans-acceptable": "swords_baselines.classic.oracles:HumansAcceptable",
        "humans-conceivable": "swords_baselines.classic.oracles:HumansConceivable",
        "humans-all": "swords_baselines.classic.oracles:HumansAll",
        "wordnet": "swords_baselines.classic.wordnet:WordNet",
        "bert-k": "swords_baselines.neural.masked_lm:BertKeep",
        "bert-m": "swords_baselines.neural.masked_lm:BertMask",
        "embedding-rank": "swords_baselines.neural.embedding:EmbeddingRank",
        "wordnet+embedding": "swords_baselines.neural.embedding:WordNetEmbedding",
        "llm": "swords_baselines.llm:LLM",
        "gpt3-recorded": "swords_baselines.llm:GPT3Recorded",
    }
)
