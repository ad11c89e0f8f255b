"""The references the metric prepares when the dataset is built: equal to a live preparation for every shipped
split, stamped with the Parquet file they were made from, and refused (not silently used) when that file
changed."""

from __future__ import annotations

import shutil
import warnings

import pyarrow.parquet as pq
import pytest

import swords_dataset
from swords_metric import Scorer
from swords_metric.references.shipped import StalePreparedReferences, load_shipped, prepared_path, write_shipped
from swords_metric.references.split import ReferenceSplit

# The benchmarks with a POS on every row, which the SWORDS metrics lemmatize under; ProLex and TSAR-2022 have none.
PREPARED_CONFIGS = ("swords", "swords_test_subset", "swords_reannotated", "coinco", "semeval07")
SPLITS = [(config, split) for config in PREPARED_CONFIGS for split in swords_dataset.CONFIGS[config]]


@pytest.mark.parametrize("config, split", SPLITS)
@pytest.mark.slow  # 10 s on two cores
def test_every_shipped_split_equals_a_live_preparation(config, split):
    with warnings.catch_warnings():
        warnings.simplefilter("error", StalePreparedReferences)
        shipped = load_shipped(swords_dataset.DATASET_DIR, config, split)
    live = ReferenceSplit.from_rows(swords_dataset.rows(config, split))
    assert shipped is not None
    assert shipped.targets == live.targets and shipped.problematic == live.problematic
    assert shipped.references == live.references  # lemmas, judgement counts, target lemma, POS and id


def test_no_prepared_references_ship_for_benchmarks_without_a_pos():
    """ProLex and TSAR-2022 give no POS, under which the SWORDS metrics lemmatize: the build step skips them."""
    others = [(c, s) for c, splits in swords_dataset.CONFIGS.items() if c not in PREPARED_CONFIGS for s in splits]
    assert len(others) == 8
    for config, split in others:
        assert all(row["pos"] is None for row in swords_dataset.rows(config, split, columns=["pos"]))
        assert not prepared_path(swords_dataset.DATASET_DIR, config, split).exists()


def test_a_stale_file_is_refused_with_a_warning_and_the_rows_are_used(tmp_path):
    folder = tmp_path / "dataset"
    shutil.copytree(swords_dataset.DATASET_DIR / "data" / "swords", folder / "data" / "swords")
    parquet = folder / swords_dataset.parquet_path("swords", "test")
    table = pq.read_table(parquet)
    pq.write_table(table.slice(0, 700), parquet)  # the dataset changed; its prepared file did not
    with pytest.warns(StalePreparedReferences, match="its sha256 differs"):
        assert load_shipped(folder, "swords", "test") is None
    write_shipped(folder)  # the build step brings it up to date
    with warnings.catch_warnings():
        warnings.simplefilter("error", StalePreparedReferences)
        fresh = load_shipped(folder, "swords", "test")
    assert fresh is not None and len(fresh.targets) == 700
    assert prepared_path(folder, "swords", "dev").is_file()


@pytest.mark.slow  # 6.2 s on two cores (the quick lane, 2026-11-28)
def test_the_scorer_of_a_shipped_split_scores_as_the_scorer_of_its_rows():
    rows = swords_dataset.rows("coinco", "test")
    predictions = {row["id"]: [s["substitute"] for s in row["substitutes"][::-1]] for row in rows[::3]}
    shipped = Scorer.from_dataset("coinco", "test").score(predictions, bootstrap=200)
    live = Scorer(rows, split="test", config="coinco").score(predictions, bootstrap=200)
    assert shipped == live
