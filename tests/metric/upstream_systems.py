"""What test_upstream_parity.py scores on both sides: the result files (synthesized systems that produce every
unusual thing a generator emits, and our baselines as `swords run` writes them, in the upstream format keyed
by upstream target ids). How each side is run over them is in upstream_runs.py.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import swords_dataset
from swords_dataset.builder.sources import default_sources_dir

from ..conftest import run_swords

SHARED = default_sources_dir()
UPSTREAM_EVAL = SHARED / "upstream-swords" / "upstream_eval.py"
UPSTREAM_DATASETS = {
    "swords": SHARED / "swords" / "swords-v1.1_test.json.gz",
    "coinco": SHARED / "upstream-swords" / "parsed" / "coinco_test.json.gz",
    "semeval07": SHARED / "upstream-swords" / "parsed" / "semeval07_test.json.gz",
}
PERL_KEYS = {f"{task}_{part}" for task in ("best", "oot") for part in ("p", "r", "mode_p", "mode_r")}
TOLERANCE = 1e-9


# --- Systems ---------------------------------------------------------------------------------------------


def rows_of(config: str, upstreams_set: bool = True) -> list[dict]:
    """The test rows; by default those upstream's test set has (CoInCo's problematic targets left out)."""
    rows = pq.read_table(swords_dataset.DATASET_DIR / swords_dataset.parquet_path(config, "test")).to_pylist()
    return [row for row in rows if not (upstreams_set and row["provenance"]["coinco_problematic"])]


def _gold(row: dict) -> list[str]:
    return [s["substitute"] for s in row["substitutes"]]


def _pool(row: dict, rng: random.Random, n: int) -> list[str]:
    pool = list(row["candidates"])
    rng.shuffle(pool)
    return pool[:n]


def gold_shuffled_ties(row, rng):
    """Every gold substitute and some of the pool, scores rounded to one decimal: many ties."""
    items = _gold(row) + _pool(row, rng, 5)
    rng.shuffle(items)
    return [[s, round(rng.random(), 1)] for s in items]


def pool_ranked(row, rng):
    """The ranking setting: up to 50 candidates of the pool, scored."""
    return [[s, rng.random()] for s in _pool(row, rng, 50)]


def empty_strings(row, rng):
    """Gold with "", " ", tabs, newline-only and padded substitutes mixed in; some targets only empties."""
    if rng.random() < 0.1:
        return [["", 1.0], [" ", 0.5]]
    items = [[s, rng.random()] for s in _gold(row)[:8]]
    for junk in ("", " ", "\t", "\n", "  "):
        if rng.random() < 0.6:
            items.insert(rng.randrange(len(items) + 1), [junk, rng.choice([1.0, 0.5, rng.random()])])
    if items and rng.random() < 0.5:
        items.append([f"  {items[0][0]}  ", 2.0])  # padding is stripped after lemmatization
    return items


def target_copies(row, rng):
    """The target itself, in several cases and inflections, among gold answers, often ranked first."""
    target = row["target"]
    copies = [
        target,
        target.upper(),
        target.capitalize(),
        row["target_lemma"],
        row["target_lemma"] + "s",
        target + "ed",
        target + "ing",
    ]
    items = [[s, rng.random()] for s in _gold(row)[:6]]
    for copy in rng.sample(copies, 3):
        items.insert(rng.randrange(len(items) + 1), [copy, rng.choice([5.0, rng.random()])])
    return items


def case_and_inflection_duplicates(row, rng):
    """Each gold answer also in upper case, capitalized and inflected, with conflicting scores from {0, 1, 2}."""
    items = []
    for s in _gold(row)[:6]:
        for variant in (s, s.upper(), s.capitalize(), s + "s", s + "es", s + "ed"):
            if rng.random() < 0.6:
                items.append([variant, float(rng.choice([0, 1, 2]))])
    rng.shuffle(items)
    return items


def multiword_hyphen_apostrophe(row, rng):
    """Multiword answers and their hyphenated forms, non- prefixes, apostrophes, a ';' and a line break
    inside an answer (the Perl scorer splits on both)."""
    items = []
    for s in _gold(row):
        if " " in s or "-" in s:
            items += [[s, 3.0], [s.replace(" ", "-"), 2.5], [s.replace("-", " "), 2.5]]
    gold = _gold(row)
    extras = [
        "non-" + row["target_lemma"],
        "non " + row["target_lemma"],
        "o'" + row["target_lemma"],
        "rock'n'roll",
        "well-known",
        "well known",
        "a bit",
        "kind of",
    ]
    if len(gold) >= 2:
        extras += [f"{gold[0]};{gold[1]}", f"{gold[1]}\n{gold[0]}"]
    items += [[s, rng.random()] for s in gold[:5]] + [[s, rng.random() * 3] for s in rng.sample(extras, 4)]
    rng.shuffle(items)
    return items


def partial_coverage(row, rng):
    """Half the targets missing from the file; some of the rest with no answer at all."""
    if rng.random() < 0.5:
        return None
    if rng.random() < 0.2:
        return []
    return [[s, rng.random()] for s in _gold(row)[:10]]


def odd_scores(row, rng):
    """Integer, boolean and infinite scores, including ties between infinities."""
    items = []
    for s in _gold(row)[:8] + _pool(row, rng, 4):
        items.append([s, rng.choice([1, 0, -3, True, False, math.inf, -math.inf, -math.inf, rng.random()])])
    return items


def long_lists(row, rng):
    """100 answers: the gold among pool words, scores with few distinct values."""
    items = _gold(row) + _pool(row, rng, 100)
    rng.shuffle(items)
    return [[s, float(rng.randrange(4))] for s in items[:100]]


SYNTHESIZED = {
    "gold-shuffled-ties": gold_shuffled_ties,
    "pool-ranked": pool_ranked,
    "empty-strings": empty_strings,
    "target-copies": target_copies,
    "case-and-inflection-duplicates": case_and_inflection_duplicates,
    "multiword-hyphen-apostrophe": multiword_hyphen_apostrophe,
    "partial-coverage": partial_coverage,
    "odd-scores": odd_scores,
    "long-lists": long_lists,
}
BASELINES = {
    "swords": ("wordnet", "thesaurus-oracle", "coinco-oracle"),
    "coinco": ("wordnet", "thesaurus-oracle"),
    "semeval07": ("wordnet", "thesaurus-oracle"),
}


def baseline_file(system: str, config: str, folder: Path) -> Path:
    """The upstream-format file `swords run` writes for a baseline: what a user would hand to upstream."""
    if system == "thesaurus-oracle" and not (SHARED / "thesaurus" / "rogets.json.gz").is_file():
        pytest.skip("the thesaurus is not in the shared folder")
    output = folder / f"{config}.{system}.jsonl"
    done = run_swords(
        "run",
        "--system",
        system,
        "--dataset",
        config,
        "--split",
        "test",
        "--output",
        str(output),
        "--bootstrap",
        "0",
        "--no-progress",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    return output.with_suffix(".json")


def synthesized_predictions(name: str, config: str, rows: list[dict]) -> dict[str, list]:
    rng = random.Random(f"{name}/{config}")
    predictions = {}
    for row in rows:
        items = SYNTHESIZED[name](row, rng)
        if items is not None:
            predictions[row["upstream_id"]] = items
    return predictions


CASES = [(config, system) for config in UPSTREAM_DATASETS for system in (*SYNTHESIZED, *BASELINES[config])]
