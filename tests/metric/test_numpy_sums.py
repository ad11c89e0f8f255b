"""The per-target columns are summed in plain Python (swords_metric/metrics/target_scores.py: summed), so that a
plain evaluation need not import numpy; every figure recorded before was numpy's float64 `.sum()`. The two agree to
the bit: on random columns of every size class of numpy's pairwise summation, on a strided column of a matrix and a
subset of rows (what the sums were taken of), and on every column of a real system's SWORDS test scores."""

from __future__ import annotations

import random

import numpy as np
import pytest

from swords_metric import Scorer
from swords_metric.metrics.target_scores import summed

from ..conftest import REPO_ROOT

# Below 8 numpy adds one by one, up to 128 in eight accumulators, above that it halves at a multiple of 8.
SIZES = [0, 1, 7, 8, 9, 15, 16, 17, 127, 128, 129, 130, 255, 256, 257, 762, 1_703, 8_192, 10_001, 65_537]


@pytest.mark.parametrize("n", SIZES)
def test_the_sum_is_numpys_to_the_bit(n):
    rng = random.Random(n)
    for _ in range(20):
        values = [rng.random() * 10 ** rng.randint(-4, 4) / rng.choice([1, 3, 7]) for _ in range(n)]
        matrix = np.zeros((n, 7))
        matrix[:, 3] = values
        assert summed(values) == float(np.asarray(values).sum()) == float(matrix[:, 3].sum())
        rows = [i for i in range(n) if rng.random() < 0.4] * 2  # a resample: rows repeat
        assert summed([values[i] for i in rows]) == float(matrix[:, 3][rows].sum())


def test_a_real_systems_columns_sum_as_numpy_sums_them():
    scorer = Scorer.from_dataset("swords", "test")
    run = REPO_ROOT / "space" / "results" / "coinco-oracle.swords.test.jsonl"
    scores = scorer.target_scores(scorer.read(run))
    matrix = np.array(list(scores.columns.values()), dtype=np.float64).T.copy()
    totals = scores.totals()
    assert len(totals) == 38 and len(scores) == 762
    for j, name in enumerate(scores.columns):
        assert totals[name] == float(matrix[:, j].sum()), name
    nouns = [i for i, pos in enumerate(scores.pos) if pos == "NOUN"]
    assert scores.totals(nouns)["gap"] == float(matrix[nouns, list(scores.columns).index("gap")].sum())
