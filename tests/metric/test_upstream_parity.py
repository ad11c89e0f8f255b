"""`swords evaluate` against the whole upstream SWORDS evaluation, on the same result files.

The reference is `upstream_eval.py` in the shared folder: the upstream library's own `evaluate()`, unmodified
(lemmatization with nltk 3.5, merging, target removal, thresholds, lenient/strict, GAP, and best/oot through
the Perl scorer). Every key it prints must equal ours: floats to 1e-9, the Perl scorer's to the two decimals
it prints. Result files are in the upstream format keyed by upstream target ids, on SWORDS test, CoInCo test
(upstream's default set: problematic targets left out) and SemEval-2007 test, for our baselines and for
synthesized systems that produce every unusual thing a generator emits: empty and whitespace-only
substitutes, the target itself, duplicates differing in case or inflection, multiword, hyphenated and
apostrophe answers, infinite and integer scores, ties, targets with no answer and targets left out.

The Perl scorer is itself not deterministic in one case: when a gold set holds both "drawn-out" and
"drawn out", which share the system's "drawn out" gets depends on Perl's hash order. Upstream runs here pin
it (PERL_HASH_SEED, PYTHONHASHSEED); where a system gives such an answer, the check is that upstream's
printed figure is one the scorer can give, i.e. lies within the spread those items allow around ours.

The reference code is run from the shared folder, never copied here.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import swords_dataset
from swords_dataset.sources import default_sources_dir
from swords_metric.core import normalize_prediction_items, prepare_prediction, prepare_reference
from swords_metric.semeval import semeval_answers, semeval_gold

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
# For local reruns: reuse upstream's outputs for identical inputs (CI leaves it unset and runs everything).
CACHE_ENV = "SWORDS_UPSTREAM_EVAL_CACHE"


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
    copies = [target, target.upper(), target.capitalize(), row["target_lemma"], row["target_lemma"] + "s",
              target + "ed", target + "ing"]
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
    extras = ["non-" + row["target_lemma"], "non " + row["target_lemma"], "o'" + row["target_lemma"],
              "rock'n'roll", "well-known", "well known", "a bit", "kind of"]
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
BASELINES = {"swords": ("wordnet", "thesaurus-oracle", "coinco-oracle"), "coinco": ("wordnet", "thesaurus-oracle"),
             "semeval07": ("wordnet", "thesaurus-oracle")}


def baseline_file(system: str, config: str, folder: Path) -> Path:
    """The upstream-format file `swords run` writes for a baseline: what a user would hand to upstream."""
    if system == "thesaurus-oracle" and not (SHARED / "thesaurus" / "rogets.json.gz").is_file():
        pytest.skip("the thesaurus is not in the shared folder")
    output = folder / f"{config}.{system}.jsonl"
    done = run_swords("run", "--system", system, "--dataset", config, "--split", "test", "--output", str(output),
                      "--bootstrap", "0", "--no-progress", "--json")
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


# --- Running both sides ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    upstream: dict
    ours: dict
    notes: str
    result_file: Path


def _upstream_eval(dataset: Path, result: Path, nltk35: Path) -> dict:
    cache = os.environ.get(CACHE_ENV)
    key = hashlib.sha256(
        dataset.read_bytes() + result.read_bytes() + UPSTREAM_EVAL.read_bytes()
    ).hexdigest() if cache else None
    if key and (Path(cache) / f"{key}.json").is_file():
        return json.loads((Path(cache) / f"{key}.json").read_text())
    env = {**os.environ, "PYTHONPATH": str(nltk35), "PYTHONHASHSEED": "0", "PERL_HASH_SEED": "0",
           "PERL_PERTURB_KEYS": "0"}
    done = subprocess.run(
        [sys.executable, str(UPSTREAM_EVAL), str(dataset), str(result)],
        capture_output=True, text=True, timeout=1200, env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    output = json.loads(done.stdout[done.stdout.index("{"):])
    if key:
        Path(cache).mkdir(parents=True, exist_ok=True)
        (Path(cache) / f"{key}.json").write_text(json.dumps(output))
    return output


def _ours(config: str, result: Path) -> tuple[dict, str]:
    done = run_swords("evaluate", "--dataset", config, "--split", "test", "--predictions", str(result),
                      "--bootstrap", "0", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


@pytest.fixture(scope="session")
def outcomes(tmp_path_factory, nltk35_path) -> dict[tuple[str, str], Outcome]:
    if not UPSTREAM_EVAL.is_file():
        pytest.skip(f"the upstream library is not in the shared folder ({UPSTREAM_EVAL})")
    if not Path("/usr/share/wordnet/data.noun").is_file() and not os.environ.get("NLTK_DATA"):
        pytest.skip("WordNet 3.0 for nltk: apt-get install wordnet-base wordnet-sense-index")
    folder = tmp_path_factory.mktemp("upstream-results")
    files = {}
    for config in UPSTREAM_DATASETS:
        rows = rows_of(config)
        for system in SYNTHESIZED:
            path = folder / f"{config}.{system}.lsr.json"
            predictions = synthesized_predictions(system, config, rows)
            path.write_text(json.dumps({"substitutes_lemmatized": False, "substitutes": predictions}))
            files[(config, system)] = path
        for system in BASELINES[config]:
            files[(config, system)] = baseline_file(system, config, folder)

    def run(case):
        config, _ = case
        upstream = _upstream_eval(UPSTREAM_DATASETS[config], files[case], nltk35_path)
        ours, notes = _ours(config, files[case])
        return case, Outcome(upstream, ours, notes, files[case])

    # Upstream's CoInCo runs are the long ones (about 30 s each): start them first.
    order = sorted(files, key=lambda case: case[0] != "coinco")
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(run, order))


# --- The Perl scorer's one non-determinism ----------------------------------------------------------------


def perl_spread(config: str, result_file: Path) -> dict[str, float]:
    """Per Perl key, how far (in printed percent) the hash order can move it for this system: the sum,
    over items whose gold holds a hyphenated answer and its spaced form, of what the system's matching
    answers gain or lose if the spaced form takes the other share."""
    with open(result_file) as f:
        predictions = json.load(f)["substitutes"]
    spread = {"best": 0.0, "oot": 0.0}
    items = {"best": 0, "oot": 0}
    attempted = {"best": 0, "oot": 0}
    for row in rows_of(config):
        reference = prepare_reference(row)
        if reference is None or not reference.lemmas:
            continue
        gold = semeval_gold(reference)
        if gold is None:
            continue
        prepared = prepare_prediction(normalize_prediction_items(predictions.get(row["upstream_id"])), reference)
        answers = semeval_answers([lemma for lemma, _ in prepared])
        for task in spread:
            items[task] += 1
            attempted[task] += bool(answers) and bool(gold.norms)
        votes = dict(zip(reference.lemmas, reference.positives, strict=True))
        total = sum(n for lemma, n in votes.items() if n > 0)
        for lemma, n in votes.items():
            spaced = lemma.replace("-", " ")
            if "-" not in lemma or n <= 0 or votes.get(spaced, 0) <= 0:
                continue
            swing = abs(n - votes[spaced]) / total
            spread["oot"] += sum(answer == spaced for answer in answers[:10]) * swing
            spread["best"] += sum(answer == spaced for answer in answers) * swing / max(len(answers), 1)
    out = {}
    for key in PERL_KEYS:
        task = key.split("_")[0]
        denominator = attempted[task] if key == f"{task}_p" else items[task]
        out[key] = 0.0 if "mode" in key or not denominator else 100 * spread[task] / denominator
    return out


# --- The checks -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("config", "system"), CASES)
def test_every_upstream_metric_equals_ours(outcomes, config, system):
    outcome = outcomes[(config, system)]
    upstream, ours = outcome.upstream, outcome.ours
    assert upstream, "upstream printed nothing"
    spread = perl_spread(config, outcome.result_file)
    for key, value in upstream.items():
        assert value is not None, f"upstream could not compute {key}"
        if key in PERL_KEYS:
            # Printed with two decimals; allow the hash-order spread where the system meets it.
            assert abs(ours[key] - value) <= 0.005 + spread[key] + TOLERANCE, (key, ours[key], value, spread[key])
        else:
            assert abs(ours[key] - value) <= TOLERANCE, (key, ours[key], value)
    assert ours["id_scheme"] == "upstream"


def test_the_systems_exercise_what_they_are_meant_to(outcomes):
    notes = {system: outcomes[("swords", system)].ours["input_notes"] for system in SYNTHESIZED}
    assert notes["empty-strings"]["empty_substitutes"] > 100
    assert notes["target-copies"]["target_copies"] > 500
    assert notes["case-and-inflection-duplicates"]["duplicates"] > 1000
    assert outcomes[("swords", "partial-coverage")].ours["targets_not_in_predictions"] > 300
    assert "are not in" in outcomes[("swords", "partial-coverage")].notes
    assert "empty substitutes" in outcomes[("swords", "empty-strings")].notes
    for config in UPSTREAM_DATASETS:
        ties = outcomes[(config, "gold-shuffled-ties")]
        assert ties.ours["targets_scored"] == {"swords": 762, "coinco": 5388, "semeval07": 1703}[config]


def test_coinco_is_scored_on_upstreams_set_unless_asked(outcomes, tmp_path):
    """Upstream's CoInCo test leaves the 62 problematic targets out; so do we, by default. Predictions for
    them are accepted (keyed by the upstream ids upstream gives them when it keeps them) and counted."""
    problematic = [row for row in rows_of("coinco", upstreams_set=False) if row["provenance"]["coinco_problematic"]]
    assert len(problematic) == 62
    base = json.loads(outcomes[("coinco", "gold-shuffled-ties")].result_file.read_text())
    rng = random.Random(0)
    base["substitutes"].update({row["upstream_id"]: gold_shuffled_ties(row, rng) for row in problematic})
    path = tmp_path / "with-problematic.json"
    path.write_text(json.dumps(base))
    default, notes = _ours("coinco", path)
    assert default["predictions_for_skipped_targets"] == 62 and default["targets_scored"] == 5388
    assert "problematic" in notes and "problematic:excluded" in default["signature"]
    for key, value in outcomes[("coinco", "gold-shuffled-ties")].upstream.items():
        assert abs(default[key] - value) <= (0.005 if key in PERL_KEYS else TOLERANCE), key
    everything = run_swords("evaluate", "--dataset", "coinco", "--split", "test", "--predictions", str(path),
                            "--bootstrap", "0", "--json", "--include-problematic")
    assert everything.returncode == 0, everything.stderr
    result = json.loads(everything.stdout)
    assert result["targets_scored"] == 5450 and "problematic:included" in result["signature"]
    assert result["lenient_a_f@10"] != default["lenient_a_f@10"]


def test_the_same_file_keyed_by_dataset_ids_scores_the_same(outcomes, tmp_path):
    for config in ("coinco", "semeval07"):
        outcome = outcomes[(config, "multiword-hyphen-apostrophe")]
        by_upstream = json.loads(outcome.result_file.read_text())["substitutes"]
        ours_ids = {row["upstream_id"]: row["id"] for row in rows_of(config, upstreams_set=False)}
        path = tmp_path / f"{config}.jsonl"
        with open(path, "w") as f:
            for upstream_id, items in by_upstream.items():
                f.write(json.dumps({"id": ours_ids[upstream_id], "substitutes": items}) + "\n")
        result, _ = _ours(config, path)
        assert result["id_scheme"] == "dataset"
        numbers = {k: v for k, v in result.items() if isinstance(v, float)}
        assert numbers == {k: v for k, v in outcome.ours.items() if k in numbers}


def test_the_parity_files_are_what_upstream_reads(outcomes):
    """The result files, the baselines' as `swords run` wrote them, really are upstream's format, keyed by
    upstream ids it knows (a file it could not read would make the comparison above vacuous)."""
    for (config, _), outcome in outcomes.items():
        with gzip.open(UPSTREAM_DATASETS[config], "rt") as f:
            known = set(json.load(f)["targets"])
        keys = set(json.loads(outcome.result_file.read_text())["substitutes"])
        assert keys and keys <= known
