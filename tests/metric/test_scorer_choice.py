"""Which scorer a benchmark gets is decided once, by scorer_for (asked by Scorer.from_dataset, compute() and
`swords evaluate`), and every scorer's signature is one Signature's string: the SWORDS metrics', the official
TSAR-2022 and ProLex ones', a custom set of rows and splits scored together, as the manual documents them."""

from __future__ import annotations

import pytest

import swords_dataset
from swords_metric import FamilyScorer, MetricInputError, Scorer, scorer_for
from swords_metric.signature import Signature

SWORDS_TEST = (
    "swords-metric:1.2|bench:swords-v1.1|split:test|setting:generative|k:10|acc:>0.5|conc:>=0.1|"
    "lemma:wordnet3.0+nltk3.5-morphy|targets:762"  # as docs/scoring/index.md gives it
)


def test_one_factory_gives_each_benchmark_its_scorer():
    swords, tsar, prolex = (scorer_for(config, "test") for config in ("swords", "tsar2022_en", "prolex"))
    assert type(swords) is Scorer and swords.family.name == "swords"
    assert type(tsar) is FamilyScorer and tsar.family.name == "tsar2022" and len(tsar.rows) == 373
    assert type(prolex) is FamilyScorer and prolex.family.name == "prolex"
    assert Scorer.from_dataset("tsar2022_en", "test").signature() == tsar.signature()  # from_dataset asks it
    rows = swords_dataset.rows("tsar2022_en", "test")
    assert type(scorer_for(rows)) is FamilyScorer and type(scorer_for(iter(rows))) is FamilyScorer
    assert type(scorer_for(swords_dataset.rows("semeval07", "trial"))) is Scorer
    with pytest.raises(MetricInputError, match=r"^scorer_for\('swords'\): give the split too, e\.g\. scorer_for"):
        scorer_for("swords")
    with pytest.raises(MetricInputError, match=r"^reference tsar2022_en:test:0001: a tsar2022 row; .*scorer_for"):
        Scorer(rows)


@pytest.mark.slow  # 4.8 s on two cores (the quick lane, 2026-11-28)
def test_every_signature_is_built_by_one_signature_object():
    assert (
        str(Signature("swords", "1.2", "mine", None, (("k", 10),))) == "swords-metric:1.2|bench:mine|split:custom|k:10"
    )
    swords = Scorer.from_dataset("swords", "test")
    assert swords.signature() == SWORDS_TEST
    assert swords.signature(1000, 7) == SWORDS_TEST + "|bootstrap:1000,seed:7"
    assert swords.signature(0, 7) == SWORDS_TEST  # no resamples: no seed either
    custom = Scorer(swords_dataset.rows("swords", "test")[:100])
    assert custom.signature() == SWORDS_TEST.replace("split:test", "split:custom").replace("762", "100")
    assert Scorer.from_dataset("coinco", "test").signature() == (
        "swords-metric:1.2|bench:coinco|split:test|setting:generative|k:10|acc:>0.5|conc:>=0.1|"
        "lemma:wordnet3.0+nltk3.5-morphy|targets:5388|problematic:excluded"
    )
    assert Scorer.from_dataset("tsar2022_en", "trial+test").signature() == (
        "tsar2022-metric:1.0|bench:tsar2022_en|split:trial+test|family:tsar2022|scorer:tsar_eval.py@089c266|"
        "match:exact|scale:fraction|targets:383"  # 10 trial + 373 test instances
    )
    prolex = scorer_for("prolex", "test", k=5)
    signed = (
        "prolex-metric:1.0|bench:prolex|split:test|family:prolex|k:5|scorer:evaluate.py@f54ba0f:hard|match:exact|"
        "scale:fraction|targets:680"
    )
    assert prolex.signature() == signed
    assert prolex.score({}, bootstrap=50, seed=3)["signature"] == signed + "|bootstrap:50,seed:3"
    comparison = swords.compare({}, {}, bootstrap=100, seed=2)
    assert comparison["signature"] == SWORDS_TEST + "|bootstrap:100,seed:2"
