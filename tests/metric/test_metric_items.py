"""What the scorer does with the items of a prediction: what generators emit (empty substitutes, the target,
duplicates, padding) scored and noted as upstream scores it, duplicates merged in upstream's order, scores read as
upstream reads them, unreadable items named with their target; and what scoring costs: resamples drawn in bounded
memory, an upstream file with a byte order mark read, no heavy library imported on the Scorer's path."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from swords_metric import MetricInputError, Scorer, read_predictions
from swords_metric.predictions.items import normalize_prediction_items
from swords_metric.predictions.lemmatized import prepare_prediction
from swords_metric.references.reference import prepare_reference

from ..conftest import run_swords


def test_what_generators_emit_is_scored_not_refused(dataset_rows, tmp_path):
    """Upstream's thesaurus generator emits empty strings for 5 SWORDS test targets; LLMs emit the target,
    duplicates in other cases, padding and blank items. All are scored (as upstream does), and noted."""
    rows = dataset_rows[("swords", "test")]
    row = rows[0]
    lines = [
        {
            "id": row["id"],
            "substitutes": [
                ["", 1.0],
                ["  ", 0.9],
                [row["target"], 0.8],
                [row["target"].upper(), 0.7],
                ["Quickly", 0.5],
                ["quickly", 0.5],
                [" padded ", 0.4],
            ],
        },
        {"id": rows[1]["id"], "substitutes": []},
    ]
    path = tmp_path / "odd.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    done = run_swords("evaluate", "--predictions", str(path), "--bootstrap", "0", "--json")
    assert done.returncode == 0, done.stderr
    notes = json.loads(done.stdout)["input_notes"]
    assert notes == {"empty_substitutes": 2, "target_copies": 2, "duplicates": 1, "unicode_variants": 0}
    assert "2 empty substitutes" in done.stderr and "760 of 762 scored targets are not in" in done.stderr


def test_duplicates_merge_in_upstreams_order():
    """Upstream sorts a system's list by score (stable) before lemmatizing, then keeps each lemma's first
    occurrence. So among equal scores the earlier *sorted* item wins its place: here "house" (2.0, given
    second) ranks above "home" (2.0 through "homes"' duplicate "home", given third), whatever the place of
    the weaker "homes" (1.0) given first."""
    row = {
        "id": "t1",
        "target": "dwelling",
        "pos": "NOUN",
        "candidates": [],
        "substitutes": [
            {"substitute": s, "labels": ["TRUE"], "votes_positive": 1, "votes_total": 1} for s in ("home", "house")
        ],
    }
    reference = prepare_reference(row)
    prepared = prepare_prediction(
        normalize_prediction_items([("homes", 1.0), ("house", 2.0), ("home", 2.0)]), reference
    )
    assert prepared == [("house", 2.0), ("home", 2.0)]


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ([["word", float("nan")]], "is NaN"),
        ([["word", "high"]], "'high' is not a number"),
        ([["word", None, 3]], "expected a substitute or"),
        ([[7, 1.0]], "substitute 7 is not a string"),
        ([["word", 10**400]], "too large"),
        ("word", "must be a list of substitutes"),
    ],
)
def test_unreadable_items_name_the_target_and_item(items, message):
    with pytest.raises(MetricInputError, match=message):
        normalize_prediction_items(items, "t:1")


def test_scores_are_read_as_upstream_reads_them():
    items = [["a", 1], ["b", True], ["c", "0.5"], ["d", float("-inf")], ["e", np.float32(2)]]
    pairs = normalize_prediction_items(items)
    assert pairs == [("a", 1.0), ("b", 1.0), ("c", 0.5), ("d", float("-inf")), ("e", 2.0)]


def test_many_resamples_are_drawn_in_bounded_memory(dataset_rows):
    """Resamples are drawn and summed a thousand at a time: 20,000 of them stay far below the 120 MB one
    matrix would take, and up to a thousand they are exactly the single matrix of draws (the intervals of
    earlier versions are unchanged)."""
    import tracemalloc

    from swords_metric.metrics.target_scores import metrics_from_totals

    rows = dataset_rows[("swords", "test")]
    scorer = Scorer(rows, split="test")
    predictions = {row["id"]: [s["substitute"] for s in row["substitutes"][:3]] for row in rows}
    tracemalloc.start()
    result = scorer.score(predictions, bootstrap=20_000, by_pos=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 60 * 2**20
    low, high = result["confidence_intervals"]["lenient_a_f@10"]
    assert low < result["lenient_a_f@10"] < high
    # One matrix of draws, counted with np.add.at, as before chunking.
    scores = scorer.target_scores(predictions)
    draws = np.random.default_rng(0).integers(0, len(scores), size=(1000, len(scores)))
    counts = np.zeros((1000, len(scores)))
    np.add.at(counts, (np.arange(1000)[:, None], draws), 1)
    resampled = metrics_from_totals(scores.resampled_totals(counts), 10)["gap"]
    expected = [float(np.percentile(resampled, 2.5)), float(np.percentile(resampled, 97.5))]
    assert scorer.score(predictions, bootstrap=1000, by_pos=False)["confidence_intervals"]["gap"] == expected


def test_upstream_files_with_a_byte_order_mark_are_read(tmp_path, dataset_rows):
    row = dataset_rows[("swords", "test")][0]
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"substitutes": {row["id"]: ["a"]}}).encode())
    assert read_predictions(path)[0] == {row["id"]: [("a", 0.0)]}


def test_the_scorer_path_imports_no_heavy_library():
    """The manual offers Scorer for training loops "with no datasets or evaluate import": importing the metric
    package, loading the prepared references, reading rows and scoring must not pull them (or torch) in."""
    code = (
        "import sys, swords_dataset\n"
        "from swords_metric import Scorer\n"
        "scorer = Scorer.from_dataset('swords', 'test')\n"
        "first = swords_dataset.rows('swords', 'test')[0]\n"
        "assert scorer.score({first['id']: ['pressure']})['targets_scored'] == 762\n"
        "print(sorted(m for m in ('datasets', 'evaluate', 'torch', 'transformers', 'gradio') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]", done.stdout
