"""The golden cases of the Python API: the `evaluate` module's compute() (swords_metric.load()) for every family with
each of its options and each refusal, and the Scorer API as the CLI and the Space call it (score, compare,
precision_recall, analyze, differences, restricted_to_given; the official families' scorer alike). Each case is a
function of the shared context (Python) returning what it produced: a result (recorded as JSON, keys sorted) or
the MetricInputError's text."""

from __future__ import annotations

import functools
from collections.abc import Callable
from functools import cached_property
from pathlib import Path

import swords_metric
from swords_lexsub.errors import SwordsError
from swords_metric import MetricInputError, Scorer

from .inputs import CUT, gold_words, noisy_words, split_rows
from .recording import json_text


class Python:
    """What the cases share: the metric module, the rows they score, the test-made files."""

    def __init__(self, inputs: Path, judged: Callable[[], Path]) -> None:
        self.inputs, self._judged = inputs, judged

    @cached_property
    def metric(self):
        """The `evaluate` module, loaded afresh for each case (what add/add_batch stored is the case's own)."""
        return swords_metric.load()

    def rows(self, config: str, split: str = "test") -> list[dict]:
        """The split's rows, read once for every case (read-only to them)."""
        return _rows(config, split)

    def noisy(self, config: str, split: str = "test") -> list[list[str]]:
        return [noisy_words(row, number) for number, row in enumerate(self.rows(config, split))]

    def gold(self, config: str, split: str = "test") -> dict[str, list[str]]:
        return {row["id"]: gold_words(row)[:12] for row in self.rows(config, split)}

    def compute(self, config: str, split: str = "test", **options) -> dict:
        return self.metric.compute(
            predictions=self.noisy(config, split), references=self.rows(config, split), **options
        )

    def file(self, name: str) -> str:
        return str(self.inputs / name)

    @cached_property
    def judged(self) -> Path:
        """The judgments' folder (inputs.make_judged), made when a case first asks for it."""
        return self._judged()

    @property
    def unread_judgments(self) -> list[str]:
        """Paths of judgments where none are (for the refusals that come before any file is read)."""
        return [self.file(name) for name in ("tasks.jsonl", "a.judgments.jsonl")]

    @cached_property
    def judgments(self) -> list[str]:
        return [str(self.judged / f"{name}.jsonl") for name in ("tasks", "a.judgments", "b.judgments")]


@functools.cache
def _rows(config: str, split: str) -> list[dict]:
    return split_rows(config, split)


@functools.cache
def _swords_test(inputs: Path) -> tuple[Scorer, object, object]:
    """SWORDS test's Scorer and the noisy and gold files read by it, once for every case (read-only to them)."""
    scorer = Scorer.from_dataset("swords", "test")
    return scorer, *(scorer.read(inputs / f"{name}.swords.test.jsonl") for name in ("noisy", "gold"))


def outcome(produce: Callable[[], object]) -> str:
    """What a call gave: its result as JSON, or the MetricInputError (or SwordsError) it raised, as its text."""
    try:
        return json_text(produce())
    except (MetricInputError, SwordsError) as error:
        return f"{type(error).__name__}: {error}\n"


def compute_cases() -> dict[str, Callable[[Python], object]]:
    sub = "swords_test_subset"
    cases: dict[str, Callable[[Python], object]] = {
        "swords-test": lambda p: p.compute("swords"),
        "swords-test.mapping-upstream-ids": lambda p: p.metric.compute(
            predictions=swords_metric.read_predictions(p.file("coinco-oracle.swords.test.jsonl"))[0],
            references=p.rows("swords"),
        ),
        "swords-test-subset": lambda p: p.compute(sub),
        "swords-test-subset.k-5": lambda p: p.compute(sub, k=5),
        "swords-test-subset.bootstrap-200-seed-1": lambda p: p.compute(sub, bootstrap=200, seed=1),
        "swords-test-subset.ranking": lambda p: p.compute(sub, setting="ranking"),
        "swords-test-subset.ranking.k-3.bootstrap-100": lambda p: p.compute(sub, setting="ranking", k=3, bootstrap=100),
        "swords-test-subset.split-mine": lambda p: p.compute(sub, split="mine"),
        "swords-test-subset.include-problematic": lambda p: p.compute(sub, include_problematic=True),
        "swords-test-subset.mapping-gold": lambda p: p.metric.compute(predictions=p.gold(sub), references=p.rows(sub)),
        "swords-test-subset.part": lambda p: p.metric.compute(
            predictions=p.noisy(sub)[:CUT], references=p.rows(sub)[:CUT]
        ),
        "swords-test-subset.add-batch": _add_batch,
        "swords-dev": lambda p: p.compute("swords", "dev"),
        "swords-reannotated": lambda p: p.compute("swords_reannotated", bootstrap=100, seed=3),
        "semeval07-trial": lambda p: p.compute("semeval07", "trial"),
        "semeval07-trial.ranking-k-3": lambda p: p.compute("semeval07", "trial", setting="ranking", k=3),
        "prolex-test": lambda p: p.compute("prolex"),
        "prolex-test.k-5": lambda p: p.compute("prolex", k=5),
        "prolex-test.bootstrap-200-seed-1": lambda p: p.compute("prolex", bootstrap=200, seed=1),
        "prolex-dev": lambda p: p.compute("prolex", "dev"),
        "tsar2022-en-test.add": _add,
        # slow (SLOW_COMPUTE)
        "swords-test.judgments": lambda p: p.metric.compute(
            predictions=swords_metric.read_predictions(p.judged / "wordnet.swords.test.json")[0],
            references=p.rows("swords"),
            judgments=p.judgments,
        ),
        "swords-dev-test": lambda p: p.compute("swords", "dev+test"),
        "semeval07-test": lambda p: p.compute("semeval07"),
        "coinco-test": lambda p: p.compute("coinco"),
        "coinco-test.include-problematic": lambda p: p.compute("coinco", include_problematic=True),
    }
    for language in ("en", "es", "pt"):
        cases[f"tsar2022-{language}-test"] = lambda p, c=f"tsar2022_{language}": p.compute(c)
    cases["tsar2022-en-test.bootstrap-200-seed-1"] = lambda p: p.compute("tsar2022_en", bootstrap=200, seed=1)
    cases["tsar2022-en-test.k-10-split-mine"] = lambda p: p.compute("tsar2022_en", k=10, split="mine")
    cases["tsar2022-en-trial"] = lambda p: p.compute("tsar2022_en", "trial")
    refused = {
        "unknown-option": lambda p: p.compute("swords_test_subset", cutoff=5),
        "setting-unknown": lambda p: p.compute("swords_test_subset", setting="best"),
        "k-0": lambda p: p.compute("swords_test_subset", k=0),
        "k-text": lambda p: p.compute("swords_test_subset", k="10"),
        "bootstrap-negative": lambda p: p.compute("swords_test_subset", bootstrap=-1),
        "seed-negative": lambda p: p.compute("swords_test_subset", seed=-1),
        "split-bad": lambda p: p.compute("swords_test_subset", split="a/b"),
        "include-problematic-text": lambda p: p.compute("swords_test_subset", include_problematic="yes"),
        "tsar-k-5": lambda p: p.compute("tsar2022_en", k=5),
        "tsar-ranking": lambda p: p.compute("tsar2022_en", setting="ranking"),
        "tsar-include-problematic": lambda p: p.compute("tsar2022_en", include_problematic=True),
        "tsar-judgments": lambda p: p.compute("tsar2022_en", judgments=p.unread_judgments),
        "prolex-ranking": lambda p: p.compute("prolex", setting="ranking"),
        "coinco-judgments": lambda p: p.metric.compute(
            predictions=p.noisy("coinco", "dev")[:3],
            references=p.rows("coinco", "dev")[:3],
            judgments=p.unread_judgments,
        ),
        "judgments-not-a-list": lambda p: p.compute("swords_test_subset", judgments=p.unread_judgments[0]),
        "positional": lambda p: p.metric.compute(p.noisy("swords_test_subset"), p.rows("swords_test_subset")),
        "predictions-without-references": lambda p: p.metric.compute(predictions=p.noisy("swords_test_subset")),
        "nothing-given": lambda p: p.metric.compute(),
        "lengths-differ": lambda p: p.metric.compute(
            predictions=p.noisy("swords_test_subset")[:3], references=p.rows("swords_test_subset")
        ),
        "predictions-text": lambda p: p.metric.compute(predictions="abc", references=p.rows("swords_test_subset")),
        "reference-without-id": lambda p: p.metric.compute(
            predictions=[["a"]], references=[{k: v for k, v in p.rows("swords_test_subset")[0].items() if k != "id"}]
        ),
        "score-null": lambda p: p.metric.compute(
            predictions=[[["a", None]]], references=p.rows("swords_test_subset")[:1]
        ),
        "mapping-unknown-id": lambda p: p.metric.compute(
            predictions={"nowhere": ["a"]}, references=p.rows("swords_test_subset")
        ),
        "add-batch-unknown-argument": lambda p: p.metric.add_batch(
            predictions=[["a"]], references=p.rows("swords_test_subset")[:1], k=5
        ),
        "add-without-reference": lambda p: p.metric.add(prediction=["a"]),
        "mixed-families": lambda p: p.metric.compute(
            predictions=[["a"], ["b"]], references=[p.rows("swords_test_subset")[0], p.rows("prolex")[0]]
        ),
    }
    cases |= {f"refused.{name}": produce for name, produce in refused.items()}
    return cases


def _add_batch(p: Python) -> dict:
    rows, noisy = p.rows("swords_test_subset"), p.noisy("swords_test_subset")
    for start in range(0, len(rows), 30):
        p.metric.add_batch(predictions=noisy[start : start + 30], references=rows[start : start + 30])
    return p.metric.compute(bootstrap=100, seed=2)


def _add(p: Python) -> dict:
    for row, words in zip(p.rows("tsar2022_en"), p.noisy("tsar2022_en"), strict=True):
        p.metric.add(prediction=words, reference=row)
    return p.metric.compute()


# 1.5 s or more each on two cores (SWORDS test's, SemEval-2007 test's and CoInCo test's rows through the `evaluate`
# module's store; the judgments' extended gold).
SLOW_COMPUTE = frozenset(
    {
        "swords-test.mapping-upstream-ids",
        "swords-test.judgments",
        "swords-dev",
        "swords-dev-test",
        "semeval07-test",
        "coinco-test",
        "coinco-test.include-problematic",
    }
)


def scorer_cases() -> dict[str, Callable[[Python], object]]:
    """The Scorer API as `swords evaluate`, `swords run` and the Space call it: on SWORDS test (the noisy and the
    gold files read as files), CoInCo-free; the official families' scorers on their official formats."""

    def swords(p: Python) -> tuple[Scorer, object, object]:
        return _swords_test(p.inputs)

    def family(p: Python, config: str, suffix: str):
        scorer = Scorer.from_dataset(config, "test")
        noisy, gold = (scorer.read(p.file(f"{name}.{config}.test{suffix}")) for name in ("noisy", "gold"))
        return scorer, noisy, gold

    def restricted(p: Python, config: str, name: str, **options) -> dict:
        scorer = Scorer.from_dataset(config, "test")
        part, prepared = scorer.restricted_to_given(scorer.read(p.file(name), **options))
        return {"signature": part.signature(), "result": part.score(prepared, bootstrap=100, seed=5)}

    cases: dict[str, Callable[[Python], object]] = {
        "swords-test.signature": lambda p: Scorer.from_dataset("swords", "test").signature(200, 1),
        "swords-test.score": lambda p: (lambda s, a, b: s.score(a, bootstrap=200, seed=1))(*swords(p)),
        "swords-test.score-by-pos-off": lambda p: (lambda s, a, b: s.score(b, by_pos=False))(*swords(p)),
        "swords-test.compare": lambda p: (lambda s, a, b: s.compare(a, b, bootstrap=200, seed=1, sources=("n", "g")))(
            *swords(p)
        ),
        "swords-test.precision-recall": lambda p: (lambda s, a, b: s.precision_recall(a))(*swords(p)),
        "swords-test.analyze": lambda p: (lambda s, a, b: s.analyze(a, worst=5, relations=True))(*swords(p)),
        "swords-test.analyze-no-relations": lambda p: (lambda s, a, b: s.analyze(b, worst=2, relations=False))(
            *swords(p)
        ),
        "swords-test.differences": lambda p: (lambda s, a, b: s.differences(a, b, n=10))(*swords(p)),
        "swords-test.target-details": lambda p: (lambda s, a, b: s.target_details(a)[:12])(*swords(p)),
        "swords-test.restricted-to-given": lambda p: restricted(p, "swords", "cut.swords.test.jsonl"),
        "swords-test.ranking-k-5": lambda p: (lambda s: s.score(s.read(p.file("noisy.swords.test.jsonl"))))(
            Scorer.from_dataset("swords", "test", setting="ranking", k=5)
        ),
        "tsar2022-en-test.score": lambda p: (lambda s, a, b: s.score(a, bootstrap=200, seed=1, source="noisy"))(
            *family(p, "tsar2022_en", ".tsv")
        ),
        "tsar2022-en-test.compare": lambda p: (lambda s, a, b: s.compare(a, b, bootstrap=200, seed=1))(
            *family(p, "tsar2022_en", ".tsv")
        ),
        "tsar2022-en-test.restricted-to-given": lambda p: restricted(
            p, "tsar2022_en", "cut.tsar2022_en.test.tsv", partial=True
        ),
        "prolex-test.score": lambda p: (lambda s, a, b: s.score(a, bootstrap=200, seed=1))(
            *family(p, "prolex", ".csv")
        ),
        "prolex-test.compare": lambda p: (lambda s, a, b: s.compare(a, b, bootstrap=200, seed=1))(
            *family(p, "prolex", ".csv")
        ),
        "score-function.swords-test-subset": lambda p: swords_metric.score(
            p.gold("swords_test_subset"), p.rows("swords_test_subset"), k=5
        ),
        "refused.precision-recall-k-25": lambda p: (lambda s, a, b: s.precision_recall(a, ks=[25]))(*swords(p)),
        "refused.prepared-by-another": lambda p: Scorer.from_dataset("swords", "test").score(swords(p)[1]),
        "refused.compare-bootstrap-10": lambda p: (lambda s, a, b: s.compare(a, b, bootstrap=10))(*swords(p)),
        "refused.tsar-read-cut": lambda p: Scorer.from_dataset("tsar2022_en", "test").read(
            p.file("cut.tsar2022_en.test.tsv")
        ),
        "refused.from-dataset-unknown": lambda p: Scorer.from_dataset("swords", "nope"),
    }
    return cases
