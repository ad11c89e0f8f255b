"""The SWORDS paper's Humans row, system by system as upstream scored it (its notebooks/Repro_Codalab.ipynb,
quoted in ../shared/papers/reproduction-recipe.txt): the second annotation above 0.5 for F@10, at least 0.1
for Fc@10, all of it for GAP. Every published figure must lie in the range the order of ties allows: upstream
ordered equal scores arbitrarily, so the exact extremes are taken here by putting, within each run of equal
scores, the substitutes the reference scores highest first (the best order) or last (the worst)."""

from __future__ import annotations

import json

import pytest

import swords_dataset
from swords_baselines.classic.oracles import Humans, HumansAcceptable, HumansAll, HumansConceivable
from swords_baselines.system import SYSTEMS, Prediction
from swords_lexsub.errors import SwordsError
from swords_metric import Scorer

from ..conftest import run_swords


@pytest.fixture(scope="module")
def subset() -> list[dict]:
    return swords_dataset.rows("swords_test_subset", "test")


@pytest.fixture(scope="module")
def scorer(subset) -> Scorer:
    return Scorer(subset)


def predictions(system, rows: list[dict]) -> dict[str, Prediction]:
    return dict(system.predict(system.covers(rows)))


def tie_order(scorer: Scorer, target_id: str, prediction: Prediction, best: bool) -> Prediction:
    """The prediction with each run of equal scores ordered by the reference's score of its substitutes
    (not in the reference: below every judged one), highest first if `best`, else lowest first."""
    gold = {
        j.substitute: (-1.0 if j.score is None else j.score)
        for j in scorer.judge(target_id, [s for s, _ in prediction])
    }
    sign = -1.0 if best else 1.0
    return sorted(prediction, key=lambda item: (-item[1], sign * gold[item[0]]))


def tie_extremes(scorer: Scorer, prediction: dict[str, Prediction], names: list[str]) -> dict[str, tuple]:
    worst = scorer.score({t: tie_order(scorer, t, p, False) for t, p in prediction.items()}, by_pos=False)
    best = scorer.score({t: tie_order(scorer, t, p, True) for t, p in prediction.items()}, by_pos=False)
    return {name: (worst[name], best[name]) for name in names}


def random_tie_ranges(scorer: Scorer, prediction: dict[str, Prediction], names: list[str], orders: int = 30):
    import random

    values = {name: [] for name in names}
    for seed in range(orders):
        rng = random.Random(seed)
        shuffled = {}
        for target, items in prediction.items():
            items = list(items)
            rng.shuffle(items)
            shuffled[target] = sorted(items, key=lambda item: -item[1])  # stable: ties in the shuffled order
        metrics = scorer.score(shuffled, by_pos=False)
        for name in names:
            values[name].append(metrics[name])
    return {name: (min(v), max(v)) for name, v in values.items()}


def assert_published_within(extremes: dict[str, tuple], published: dict[str, float]) -> None:
    for name, value in published.items():
        low, high = extremes[name]
        # The paper prints one decimal: a figure is reproduced when it is the rounding of a value in range.
        assert low - 0.05 <= value <= high + 0.05, (name, value, extremes[name])


def test_the_systems_keep_upstreams_thresholds(subset):
    """Upstream's OracleGenerator keeps score >= threshold: 0.5 + 1e-4 (acceptable), 0.1 (conceivable);
    the `all` system keeps the substitutes judged unacceptable by every annotator too."""
    second = {row["id"]: row["substitutes"] for row in swords_dataset.rows("swords_reannotated", "test")}
    kept = {cls: predictions(cls(), subset) for cls in (HumansAcceptable, HumansConceivable, HumansAll, Humans)}
    scores = {cls: sorted(score for p in found.values() for _, score in p) for cls, found in kept.items()}
    every = sorted(s["score"] for subs in second.values() for s in subs)
    assert scores[HumansAll] == every and min(every) == 0.0  # 5,384 substitutes, 2,304 of them scored 0
    assert scores[HumansAcceptable] == [s for s in every if s > 0.5]  # no score lies in (0.5, 0.5001)
    assert scores[HumansConceivable] == [s for s in every if s >= 0.1]
    assert scores[Humans] == [s for s in every if s > 0]  # `humans`, as before
    assert kept[Humans] == kept[HumansConceivable]  # no score lies in (0, 0.1): the same system
    assert 0.5 in every and len(scores[HumansAcceptable]) < len([s for s in every if s >= 0.5])


def test_humans_acceptable_reproduces_f10_p_and_r_against_acceptable(scorer, subset):
    prediction = predictions(HumansAcceptable(), subset)
    names = ["lenient_a_f@10", "lenient_a_p@10", "lenient_a_r@10"]
    extremes, ranges = tie_extremes(scorer, prediction, names), random_tie_ranges(scorer, prediction, names)
    # SWORDS paper (arXiv), Table 4: Humans F@10 48.8; Table 7: P 43.9, R 54.8.
    assert_published_within(ranges, {"lenient_a_f@10": 48.8, "lenient_a_r@10": 54.8})
    # P and R count the same hits (R/P is n_pred/n_ref_k, 1.221 here whatever the order; the paper's
    # 54.8/43.9 is 1.248): P 43.9 is within the exact range but below what these 30 orders reach (44.07).
    assert_published_within(extremes, {"lenient_a_f@10": 48.8, "lenient_a_p@10": 43.9, "lenient_a_r@10": 54.8})
    # The dataset's order of ties (what the issue got with swords evaluate: 47.8, P 43.5, R 53.1) is in range.
    given = scorer.score(prediction, by_pos=False)
    assert [round(given[n], 1) for n in names] == [47.8, 43.5, 53.1]
    assert all(extremes[n][0] <= given[n] <= extremes[n][1] for n in names)


def test_humans_conceivable_reproduces_fc10_p_and_r_against_conceivable(scorer, subset):
    prediction = predictions(HumansConceivable(), subset)
    # SWORDS paper (arXiv), Table 4: Humans Fc@10 77.9; Table 7: Pc 76.7, Rc 79.1.
    published = {"lenient_c_f@10": 77.9, "lenient_c_p@10": 76.7, "lenient_c_r@10": 79.1}
    assert_published_within(random_tie_ranges(scorer, prediction, list(published)), published)


def test_humans_all_reproduces_gap(scorer, subset):
    # SWORDS paper (arXiv), Table 6: Humans GAP 66.2 (upstream's metric key gap_rat, per the recipe).
    assert_published_within(random_tie_ranges(scorer, predictions(HumansAll(), subset), ["gap_rat"]), {"gap_rat": 66.2})


def test_the_best_and_worst_tie_orders_bound_random_ones(scorer, subset):
    """The extremes are extremes: the random tie orders' ranges lie between them."""
    names = ["lenient_a_f@10", "lenient_a_p@10", "lenient_a_r@10", "gap_rat"]
    prediction = predictions(HumansAcceptable(), subset)
    extremes, ranges = tie_extremes(scorer, prediction, names), random_tie_ranges(scorer, prediction, names, 20)
    for name in names:
        assert extremes[name][0] - 1e-9 <= ranges[name][0] <= ranges[name][1] <= extremes[name][1] + 1e-9, name


def test_swords_run_offers_the_three_systems(tmp_path):
    listing = run_swords("run", "--list")
    assert listing.returncode == 0
    for name in ("humans-acceptable", "humans-conceivable", "humans-all"):
        assert name in listing.stdout and name in SYSTEMS.entries
    result = run_swords(
        "run",
        "--system",
        "humans-acceptable",
        "--dataset",
        "swords_test_subset",
        "--split",
        "test",
        "--output",
        str(tmp_path / "h.jsonl"),
        "--json",
        "--bootstrap",
        "0",
        "--no-progress",
    )
    assert result.returncode == 0, result.stderr
    metrics = json.loads(result.stdout)
    assert metrics["targets_scored"] == 89
    assert round(metrics["lenient_a_f@10"], 1) == 47.8  # the dataset's order of ties (above)


def test_the_humans_systems_refuse_a_benchmark_without_a_second_annotation():
    rows = swords_dataset.rows("swords", "dev")[:5]
    for cls in (HumansAcceptable, HumansConceivable, HumansAll):
        with pytest.raises(SwordsError, match=f"^{cls.name}: only the 89 doubly annotated"):
            cls().covers(rows)
    result = run_swords("run", "--system", "humans-all", "--dataset", "coinco", "--split", "test", "--no-progress")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") <= 2 and "humans-all: only the 89 doubly annotated" in result.stderr
