"""LexSubGen's P@1, P@3 and R@10 by its own conventions (swords_metric/metrics/lexsubgen.py), one rule a case, on
targets built here; every expected value is worked out by hand in the comments. The rules, as issue 25 reads LexSubGen's
`compute_precision_recall_f1_topk` after its post-processing chain: P@k = hits in the first k / k; R@k = hits in
the first k / |gold|; the gold as listed (not lemmatized, the target kept, each listed substitute counted); a
prediction lower-cased, then lemmatized under the target's POS, then dropped if it is the target's lemma (and
repeats of a lemma dropped), then cut to 10."""

from __future__ import annotations

import pytest

from swords_metric import Scorer

NAMES = ("lexsubgen_p@1", "lexsubgen_p@3", "lexsubgen_r@10")


def row(target: str, pos: str, gold: list[str], target_id: str = "t1") -> dict:
    """A CoInCo-like target: each gold substitute given by one annotator."""
    return {
        "id": target_id,
        "benchmark": "coinco",
        "target": target,
        "pos": pos,
        "context": f"a {target} here",
        "substitutes": [{"substitute": g, "votes_positive": 1, "votes_total": 1} for g in gold],
    }


def lexsubgen(rows: list[dict], predictions: dict) -> list[float]:
    metrics = Scorer(rows).score(predictions, by_pos=False)
    return [round(metrics[name], 6) for name in NAMES]


def test_a_short_list_counts_its_empty_slots_as_misses():
    # Gold: brilliant, shiny, smart (|gold| 3). One prediction, a hit.
    # P@1 = 1/1 = 100; P@3 = 1/3 (two slots empty: misses) = 33.33; R@10 = 1/3 = 33.33.
    # (Dividing by the list's length, as this metric did before, gave P@3 = 1/1.)
    rows = [row("bright", "ADJ", ["brilliant", "shiny", "smart"])]
    assert lexsubgen(rows, {"t1": ["brilliant"]}) == [100.0, 33.333333, 33.333333]


def test_the_gold_is_used_as_listed_inflected_and_capitalised():
    # Gold as listed: "homes" (inflected), "Dwelling" (capitalised), "residence". Predictions, lower-cased and
    # lemmatized: home (≠ "homes": the gold is not lemmatized), dwelling (≠ "Dwelling": nor lower-cased), residence
    # (hit). Even "homes" predicted is lemmatized to home and misses.
    # P@1 = 0/1 = 0; P@3 = 1/3 = 33.33; R@10 = 1/3 = 33.33.
    rows = [row("house", "NOUN", ["homes", "Dwelling", "residence"])]
    assert lexsubgen(rows, {"t1": ["home", "dwelling", "residence"]}) == [0.0, 33.333333, 33.333333]
    # homes -> home (miss), residence (hit): P@1 0, P@3 1/3, R@10 1/3.
    assert lexsubgen(rows, {"t1": ["homes", "residence"]}) == [0.0, 33.333333, 33.333333]


def test_the_target_in_the_gold_counts_in_gold_but_is_never_predicted():
    # Gold: car, automobile, vehicle (|gold| 3: the target is not removed). Prediction: automobile, car, vehicle;
    # "car" is the target's lemma and is dropped, leaving automobile, vehicle.
    # P@1 = 1/1 = 100; P@3 = 2/3 = 66.67; R@10 = 2/3 = 66.67.
    rows = [row("car", "NOUN", ["car", "automobile", "vehicle"])]
    assert lexsubgen(rows, {"t1": ["automobile", "car", "vehicle"]}) == [100.0, 66.666667, 66.666667]


def test_a_capitalised_plural_prediction_is_lower_cased_before_it_is_lemmatized():
    # Gold: hound, puppy. Prediction: "Hounds" -> hounds -> hound (hit; lemmatized first, "Hounds" is not in
    # WordNet and would stay "hounds", a miss); "Dogs" -> dogs -> dog, the target: dropped; puppy (hit).
    # Top: hound, puppy. P@1 = 1/1 = 100; P@3 = 2/3 = 66.67; R@10 = 2/2 = 100.
    rows = [row("dog", "NOUN", ["hound", "puppy"])]
    assert lexsubgen(rows, {"t1": ["Hounds", "Dogs", "puppy"]}) == [100.0, 66.666667, 100.0]


def test_the_top_10_is_cut_after_the_target_and_repeats_are_dropped():
    # Gold: sprint, dash. Prediction (12): running -> run, the target: dropped; jog; jogs -> jog, a repeat:
    # dropped; race, hurry, rush, bolt, scamper, scurry, trot, dart (9 lemmas so far); sprint, the 10th: a hit.
    # P@1 = 0 (jog); P@3 = 0 (jog, race, hurry); R@10 = 1/2 = 50.
    words = ["running", "jog", "jogs", "race", "hurry", "rush", "bolt", "scamper", "scurry", "trot", "dart", "sprint"]
    rows = [row("run", "VERB", ["sprint", "dash"])]
    assert lexsubgen(rows, {"t1": words}) == [0.0, 0.0, 50.0]
    # One more word before it pushes sprint to 11th: R@10 = 0.
    assert lexsubgen(rows, {"t1": [*words[:-1], "flee", "sprint"]}) == [0.0, 0.0, 0.0]


def test_scores_order_the_list_and_targets_are_averaged():
    # Target 1 (gold brilliant, shiny, smart): [shiny 0.2, dull 0.9] ranks dull, shiny: P@1 0, P@3 1/3, R@10 1/3.
    # Target 2 (gold hound, puppy): [puppy]: P@1 1, P@3 1/3, R@10 1/2.
    # Target 3 has no gold substitute (one given by nobody): not averaged in, as LexSubGen has no such target.
    # Means: P@1 (0 + 1) / 2 = 50; P@3 (1/3 + 1/3) / 2 = 33.33; R@10 (1/3 + 1/2) / 2 = 41.67.
    rows = [
        row("bright", "ADJ", ["brilliant", "shiny", "smart"], "t1"),
        row("dog", "NOUN", ["hound", "puppy"], "t2"),
        {
            **row("cat", "NOUN", ["feline"], "t3"),
            "substitutes": [{"substitute": "feline", "votes_positive": 0, "votes_total": 1}],
        },
    ]
    predictions = {"t1": [["shiny", 0.2], ["dull", 0.9]], "t2": ["puppy"], "t3": ["feline"]}
    assert lexsubgen(rows, predictions) == [50.0, 33.333333, 41.666667]


@pytest.mark.parametrize("config,split", [("semeval07", "test"), ("coinco", "test")])
def test_the_shipped_references_hold_the_gold_as_listed(config, split):
    """Real data: LexSubGen's gold of every target is its substitutes as the benchmark lists them, those an
    annotator gave, in the dataset's order, inflected and capitalised ones included."""
    import swords_dataset

    scorer = Scorer.from_dataset(config, split, include_problematic=True)
    rows = swords_dataset.rows(config, split, columns=["id", "substitutes"])
    by_id = {r["id"]: [s["substitute"] for s in r["substitutes"] if s["votes_positive"] > 0] for r in rows}
    references = [r for r in scorer.references if r is not None]
    assert len(references) > 1000
    assert all(list(r.lexsubgen_gold) == by_id[r.id] for r in references)
    # Some gold is not a lemma or not lower case: what the SWORDS scorer would lemmatize, LexSubGen keeps.
    assert any(g != g.lower() for r in references for g in r.lexsubgen_gold)
