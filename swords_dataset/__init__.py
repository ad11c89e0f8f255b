"""SWORDS, CoInCo and SemEval-2007 Task 10 as Hugging Face datasets in one schema.

>>> import swords_dataset
>>> test = swords_dataset.load("swords", split="test")
"""

from __future__ import annotations

from pathlib import Path

from .errors import SwordsError

DATASET_DIR = Path(__file__).resolve().parent

# config -> splits, in the order the card lists them.
CONFIGS: dict[str, tuple[str, ...]] = {
    "swords": ("dev", "test"),
    "swords_test_subset": ("test",),
    "swords_reannotated": ("test",),
    "coinco": ("dev", "test"),
    "semeval07": ("trial", "test"),
}
DEFAULT_CONFIG = "swords"


def parquet_path(config: str, split: str) -> str:
    """Where a split lives, relative to the dataset folder (the card's data_files use the same)."""
    return f"data/{config}/{split}.parquet"


def check_config(config: str, split: str | None = None) -> None:
    if config not in CONFIGS:
        raise SwordsError(f"unknown config {config!r}; choose one of {', '.join(CONFIGS)}")
    if split is not None and split not in CONFIGS[config]:
        raise SwordsError(f"config {config!r} has no split {split!r}; it has {', '.join(CONFIGS[config])}")


def load(config: str = DEFAULT_CONFIG, split: str | None = None, **kwargs):
    """`datasets.load_dataset` on the Parquet files shipped inside this package (no network needed)."""
    import datasets

    check_config(config, split)
    return datasets.load_dataset(str(DATASET_DIR), config, split=split, **kwargs)


__all__ = ["CONFIGS", "DATASET_DIR", "DEFAULT_CONFIG", "SwordsError", "check_config", "load", "parquet_path"]
