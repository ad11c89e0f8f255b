"""The metric's preprocessing (references, predictions) and arithmetic against the official scorers
on real systems: the CoInCo and thesaurus oracles, recorded
GPT-3 outputs and seeded random systems on SWORDS, CoInCo and SemEval, each scored side by side with
``semeval07_score.pl`` (best / oot) and Melamud's GAP ``calc()`` (gap / gap_rat); see scorer_parity.py
for how the comparisons are made.
"""

from __future__ import annotations

import gzip
import json
import random
from functools import cache

import pyarrow.parquet as pq
import pytest

from swords_metric.predictions.items import normalize_prediction_items
from swords_metric.predictions.lemmatized import prepare_prediction
from swords_metric.references.reference import Reference, prepare_reference

from ..conftest import REPO_ROOT
from .reference_scorers import SHARED, Prepared
from .scorer_parity import check_gap_parity, check_semeval_parity

pytestmark = pytest.mark.parity  # the official scorers on real systems' whole outputs

DATA_DIR = REPO_ROOT / "swords_dataset" / "data"
GPT3_OUTPUTS = SHARED / "recorded-outputs" / "gpt3-davinci_swords-v0.8_dev-valid.json.gz"


@cache
def dataset_rows(config: str, split: str) -> tuple[dict, ...]:
    path = DATA_DIR / config / f"{split}.parquet"
    if not path.is_file():
        pytest.skip(f"{path} not built")
    return tuple(pq.read_table(path).to_pylist())


@cache
def dataset(config: str, split: str) -> tuple[tuple[dict, ...], tuple[Reference | None, ...]]:
    rows = dataset_rows(config, split)
    return rows, tuple(prepare_reference(row) for row in rows)


def prepare_all(rows, references, items_per_row) -> list[Prepared | None]:
    predictions = []
    for row, ref, items in zip(rows, references, items_per_row, strict=True):
        pairs = normalize_prediction_items(items, row["id"])
        predictions.append(prepare_prediction(pairs, ref) if ref is not None else None)
    return predictions


def coinco_oracle(rows) -> list[list[tuple[str, float]]]:
    """SWORDS targets: the substitutes CoInCo annotators wrote for the same token(s), most annotators first
    (ties in dataset order), scored by that count."""
    coinco = {row["id"]: row for split in ("dev", "test") for row in dataset_rows("coinco", split)}
    outputs = []
    for row in rows:
        counts: dict[str, int] = {}
        for token_id in row["provenance"]["coinco_token_ids"]:
            for sub in coinco[f"coinco:{token_id}"]["substitutes"]:
                counts[sub["substitute"]] = counts.get(sub["substitute"], 0) + sub["votes_positive"]
        outputs.append(sorted(counts.items(), key=lambda item: -item[1]))
    return outputs


def thesaurus_oracle(rows) -> list[list[str]]:
    thesaurus = pytest.importorskip("swords_baselines.classic.thesaurus")
    if not thesaurus.default_thesaurus_path().is_file():
        pytest.skip(f"thesaurus not found at {thesaurus.default_thesaurus_path()}")
    return [[s for s in thesaurus.thesaurus_substitutes(row["target_lemma"], row["pos"]) if s.strip()] for row in rows]


def gpt3_outputs() -> dict[str, list[str]]:
    if not GPT3_OUTPUTS.is_file():
        pytest.skip(f"{GPT3_OUTPUTS} not found")
    with gzip.open(GPT3_OUTPUTS, "rt", encoding="utf-8") as f:
        completions = json.load(f)
    return {
        tid: [s.strip() for s in completion["choices"][0]["text"].split(",") if s.strip()]
        for tid, completion in completions.items()
    }


MADE_UP = [
    "zzyzx", "non-toxic", "non toxic", "nontoxic", "o'clock", "oclock", "rock'n'roll", "colour", "color",
    "x", "q", "pn", "hypnotic", "well-known", "well known", "a-b-c", "a b c", "naïve", "café au lait",
    "self - made", "the", "good", "bright", "run", "ice creams", "Dogs", "dogs", "non-", "'", "don't",
]  # fmt: skip


def random_system(rows, references, seed: str) -> list[list[tuple[str, float]]]:
    """0-60 substitutes per target from the target's reference substitutes, other targets' candidates and
    made-up strings, with few distinct scores (many ties)."""
    rng = random.Random(seed)
    others = sorted({c for row in rows for c in row["candidates"]})
    outputs = []
    for row, ref in zip(rows, references, strict=True):
        own = [s["substitute"] for s in row["substitutes"]] + (list(ref.lemmas) if ref is not None else [])
        pool = own + rng.sample(others, min(len(others), 40)) + MADE_UP
        n = rng.choice([0, 1, 2, rng.randint(0, 60), rng.randint(0, 60), rng.randint(0, 60)])
        outputs.append([(rng.choice(pool), float(rng.choice([0, 1, 1, 2, 2, 3, 0.5, -1]))) for _ in range(n)])
    return outputs


SYSTEMS = [
    ("swords", "test", "coinco"),
    ("swords", "test", "thesaurus"),
    ("swords", "test", "random"),
    ("swords", "dev", "coinco"),
    ("swords", "dev", "thesaurus"),
    ("swords", "dev", "gpt3"),
    ("swords", "dev", "random"),
    ("coinco", "test", "thesaurus"),
    ("coinco", "test", "random"),
    ("semeval07", "test", "thesaurus"),
    ("semeval07", "test", "random"),
]


@cache
def system_predictions(config: str, split: str, system: str):
    rows, references = dataset(config, split)
    if system == "gpt3":
        outputs = gpt3_outputs()
        keep = [i for i, row in enumerate(rows) if row["id"] in outputs]
        assert len(keep) >= 30, "recorded GPT-3 targets missing from SWORDS dev"
        rows, references = tuple(rows[i] for i in keep), tuple(references[i] for i in keep)
        items = [outputs[row["id"]] for row in rows]
    elif system == "coinco":
        items = coinco_oracle(rows)
    elif system == "thesaurus":
        items = thesaurus_oracle(rows)
    else:
        items = random_system(rows, references, seed=f"{config}/{split}")
    return rows, references, prepare_all(rows, references, items)


@pytest.mark.parametrize(("config", "split", "system"), SYSTEMS)
def test_real_systems_best_and_oot_match_the_perl_scorer(perl, config, split, system):
    _, references, predictions = system_predictions(config, split, system)
    results = check_semeval_parity(perl, references, predictions)
    # Hits and misses everywhere, so that the comparison can tell implementations apart.
    for name in ("best_p", "best_r", "best_mode_p", "best_mode_r", "oot_p", "oot_r", "oot_mode_p", "oot_mode_r"):
        assert 0 < results["metrics"][name] < 100, (name, results["metrics"][name])
    for task in ("best", "oot"):
        run = results[task]["run"]
        assert any(0 < credit < 1 for credit in run.credit.values()) and 0 in run.credit.values()
        assert any(run.mode_hit.values()) and not all(run.mode_hit.values())


@pytest.mark.parametrize(("config", "split", "system"), SYSTEMS)
def test_real_systems_gap_matches_the_reference_implementation(gap_calc, config, split, system):
    _, references, predictions = system_predictions(config, split, system)
    upstream = check_gap_parity(gap_calc, references, predictions)
    assert len(upstream["gap"]) >= 30
    for name in ("gap", "gap_rat"):
        assert any(0 < value < 1 for value in upstream[name]) and 0 in upstream[name], name
