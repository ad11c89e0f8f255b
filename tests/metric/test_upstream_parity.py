"""`swords evaluate` against the whole upstream SWORDS evaluation, on the same result files.

The reference is `upstream_eval.py` in the shared folder: the upstream library's own `evaluate()`, unmodified
(lemmatization with nltk 3.5, merging, target removal, thresholds, lenient/strict, GAP, and best/oot through
the Perl scorer). Every key it prints must equal ours: floats to 1e-9, the Perl scorer's to the two decimals
it prints. Result files are in the upstream format keyed by upstream target ids, on SWORDS test, CoInCo test
(upstream's default set: problematic targets left out) and SemEval-2007 test, for our baselines and for
synthesized systems that produce every unusual thing a generator emits: empty and whitespace-only
substitutes, the target itself, duplicates differing in case or inflection, multiword, hyphenated and
apostrophe answers, infinite and integer scores, ties, targets with no answer and targets left out
(the systems are in upstream_systems.py, how each side is run in upstream_runs.py).

Upstream runs once per dataset, not once per result file: one process (upstream_batch.py) imports
upstream_eval.py and calls its own `main()`, unmodified, for each result file in turn. Most of an upstream run
is the dataset side (loading the gold and lemmatizing it, the same for every file), so that process memoises
upstream's pure dataset-side functions; upstream's evaluation only reads the dataset and its lemmatized form.
As a guard that sharing them changes nothing, each batch evaluates its first result file again after all the
others, and that output must equal the first, fresh one exactly.

The Perl scorer is itself not deterministic in one case: when a gold set holds both "drawn-out" and
"drawn out", which share the system's "drawn out" gets depends on Perl's hash order. Upstream runs here pin
it (PERL_HASH_SEED, PYTHONHASHSEED); where a system gives such an answer, the check is that upstream's
printed figure is one the scorer can give, i.e. lies within the spread those items allow around ours.

The reference code is run from the shared folder, never copied here.
"""

from __future__ import annotations

import functools
import gzip
import json
import os
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from swords_metric.metrics.semeval import semeval_answers, semeval_gold
from swords_metric.predictions.items import normalize_prediction_items
from swords_metric.predictions.lemmatized import prepare_prediction
from swords_metric.references.reference import prepare_reference

from ..conftest import run_swords
from .upstream_runs import CACHE_ENV, Outcome, UpstreamBatch, _ours, upstream_batch
from .upstream_systems import (
    BASELINES,
    CASES,
    PERL_KEYS,
    SYNTHESIZED,
    TOLERANCE,
    UPSTREAM_DATASETS,
    UPSTREAM_EVAL,
    baseline_file,
    gold_shuffled_ties,
    rows_of,
    synthesized_predictions,
)

pytestmark = pytest.mark.parity  # the upstream library's evaluation on whole result files


@pytest.fixture(scope="session")
def parity_runs(tmp_path_factory, nltk35_path) -> tuple[dict[tuple[str, str], Outcome], dict[str, UpstreamBatch]]:
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

    def batch(config):
        results = [path for (of, _), path in files.items() if of == config]
        return upstream_batch(UPSTREAM_DATASETS[config], results, nltk35_path)

    # Upstream's CoInCo batch is the longest: start it first; our runs fill the other thread when it is free.
    with ThreadPoolExecutor(max_workers=2) as pool:
        batches = {c: pool.submit(batch, c) for c in sorted(UPSTREAM_DATASETS, key=lambda c: c != "coinco")}
        ours = {case: pool.submit(_ours, case[0], path) for case, path in files.items()}
        upstream = {config: future.result() for config, future in batches.items()}
        outcomes = {
            case: Outcome(upstream[case[0]].outputs[path], *ours[case].result(), path) for case, path in files.items()
        }
    return outcomes, upstream


@pytest.fixture(scope="session")
def outcomes(parity_runs) -> dict[tuple[str, str], Outcome]:
    return parity_runs[0]


@pytest.fixture(scope="session")
def upstream_batches(parity_runs) -> dict[str, UpstreamBatch]:
    return parity_runs[1]


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
    everything = run_swords(
        "evaluate",
        "--dataset",
        "coinco",
        "--split",
        "test",
        "--predictions",
        str(path),
        "--bootstrap",
        "0",
        "--json",
        "--include-problematic",
    )
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


@functools.cache
def _upstream_target_ids(config: str) -> frozenset[str]:
    with gzip.open(UPSTREAM_DATASETS[config], "rt") as f:
        return frozenset(json.load(f)["targets"])


def test_the_parity_files_are_what_upstream_reads(outcomes):
    """The result files, the baselines' as `swords run` wrote them, really are upstream's format, keyed by
    upstream ids it knows (a file it could not read would make the comparison above vacuous)."""
    for (config, _), outcome in outcomes.items():
        known = _upstream_target_ids(config)
        keys = set(json.loads(outcome.result_file.read_text())["substitutes"])
        assert keys and keys <= known


def test_evaluating_many_files_in_one_upstream_process_changes_nothing(upstream_batches):
    """Each dataset's batch evaluated its first result file again after all the others (with the dataset side
    shared and every other file's evaluation done in between): upstream printed exactly what it printed fresh.
    And upstream's per-call scratch folders are all gone from the process's own temporary folder."""
    ran = {config: batch for config, batch in upstream_batches.items() if batch.first is not None}
    if not ran:
        pytest.skip(f"every upstream output came from the cache (${CACHE_ENV})")
    assert set(ran) == set(UPSTREAM_DATASETS) or os.environ.get(CACHE_ENV)
    for config, batch in ran.items():
        assert batch.rerun == batch.first, config
        assert '"lenient_a_f@10"' in batch.first, config
        assert batch.left_behind == (), (config, batch.left_behind)
