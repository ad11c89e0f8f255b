"""`swords evaluate` against the whole upstream SWORDS evaluation, on the same result files.

The reference is `upstream_eval.py` in the shared folder: the upstream library's own `evaluate()`, unmodified
(lemmatization with nltk 3.5, merging, target removal, thresholds, lenient/strict, GAP, and best/oot through
the Perl scorer). Every key it prints must equal ours: floats to 1e-9, the Perl scorer's to the two decimals
it prints. Result files are in the upstream format keyed by upstream target ids, on SWORDS test, CoInCo test
(upstream's default set: problematic targets left out) and SemEval-2007 test, for our baselines and for
synthesized systems that produce every unusual thing a generator emits: empty and whitespace-only
substitutes, the target itself, duplicates differing in case or inflection, multiword, hyphenated and
apostrophe answers, infinite and integer scores, ties, targets with no answer and targets left out
(the systems, and how each side is run, are in upstream_systems.py).

The Perl scorer is itself not deterministic in one case: when a gold set holds both "drawn-out" and
"drawn out", which share the system's "drawn out" gets depends on Perl's hash order. Upstream runs here pin
it (PERL_HASH_SEED, PYTHONHASHSEED); where a system gives such an answer, the check is that upstream's
printed figure is one the scorer can give, i.e. lies within the spread those items allow around ours.

The reference code is run from the shared folder, never copied here.
"""

from __future__ import annotations

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
from .upstream_systems import (
    BASELINES,
    CASES,
    PERL_KEYS,
    SYNTHESIZED,
    TOLERANCE,
    UPSTREAM_DATASETS,
    UPSTREAM_EVAL,
    Outcome,
    _ours,
    _upstream_eval,
    baseline_file,
    gold_shuffled_ties,
    rows_of,
    synthesized_predictions,
)

pytestmark = pytest.mark.parity  # the upstream library's evaluation on whole result files


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


def test_the_parity_files_are_what_upstream_reads(outcomes):
    """The result files, the baselines' as `swords run` wrote them, really are upstream's format, keyed by
    upstream ids it knows (a file it could not read would make the comparison above vacuous)."""
    for (config, _), outcome in outcomes.items():
        with gzip.open(UPSTREAM_DATASETS[config], "rt") as f:
            known = set(json.load(f)["targets"])
        keys = set(json.loads(outcome.result_file.read_text())["substitutes"])
        assert keys and keys <= known
