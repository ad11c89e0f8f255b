"""SWORDS, CoInCo, SemEval-2007 Task 10, ProLex and TSAR-2022 as Hugging Face datasets in one schema.

>>> import swords_dataset
>>> test = swords_dataset.load("swords", split="test")
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path

from swords_dataset.configs import (
    CONFIGS,
    DEFAULT_CONFIG,
    EXAMPLE_SPLITS,
    LANGUAGE_NAMES,
    LANGUAGES,
    LICENSED_CONFIGS,
    SPLIT_JOINER,
    UNTAGGED_CONFIGS,
    check_config,
    example_split,
    language,
    license_path,
    parquet_path,
    split_parts,
    splits_text,
)
from swords_lexsub import __version__  # noqa: F401 (the release's version, also as swords_dataset.__version__)
from swords_lexsub.errors import SwordsError

DATASET_DIR = Path(__file__).resolve().parent


def load(config: str = DEFAULT_CONFIG, split: str | None = None, **kwargs):
    """`datasets.load_dataset` on the Parquet files shipped inside this package (no network needed). One SwordsError,
    before `datasets` starts, for an unknown config or split, a dataset card that disagrees with CONFIGS, or a
    datasets cache (HF_HOME, HF_DATASETS_CACHE, `cache_dir`) where no file can be written."""
    import datasets

    from swords_lexsub.files import check_writable_folder

    check_config(config, split)
    _check_shipped_card()
    cache = kwargs.get("cache_dir") or datasets.config.HF_DATASETS_CACHE
    check_writable_folder(cache, "the datasets cache", "set HF_HOME or HF_DATASETS_CACHE to a folder you can write")
    return datasets.load_dataset(str(DATASET_DIR), config, split=split, **kwargs)


@cache
def _check_shipped_card() -> None:
    from swords_dataset.card import card_problem

    if problem := card_problem(DATASET_DIR):
        raise SwordsError(problem)


def split_table(config: str, split: str, columns: list[str] | None = None, dataset_dir: Path | None = None):
    """A split's shipped Parquet (or the one in `dataset_dir`, a build's folder) as a pyarrow Table. Read as one
    file: `pyarrow.parquet.read_table` would import pyarrow.dataset and with it pandas, a quarter of a second at
    every command's start for nothing a single file needs."""
    import pyarrow.parquet as pq

    with pq.ParquetFile((dataset_dir or DATASET_DIR) / parquet_path(config, split)) as parquet:
        return parquet.read(columns=columns)


def rows(config: str = DEFAULT_CONFIG, split: str = "test", columns: list[str] | None = None) -> list[dict]:
    """A split's rows as plain dicts, read straight from the shipped Parquet with pyarrow: what the toolkit's
    own commands use (no `datasets` import, no cache written, nothing printed). Use `load` for a Dataset."""
    check_config(config)
    if split is None:  # `load` gives every split for None; a list of rows is one split's
        raise SwordsError(
            f"rows() reads one split: give split= one of {', '.join(CONFIGS[config])} (load({config!r}) "
            "gives every split)"
        )
    check_config(config, split)
    return split_table(config, split, columns).to_pylist()


# The two id columns: ours, and the one the upstream SWORDS library uses (equal for SWORDS).
ID_COLUMNS = ("id", "upstream_id")


@cache
def _ids(config: str, split: str) -> dict[str, frozenset[str]]:
    table = split_table(config, split, list(ID_COLUMNS))
    return {column: frozenset(table.column(column).to_pylist()) for column in ID_COLUMNS}


def locate_ids(ids: Iterable[str], sample: int = 500) -> list[tuple[str, str, str, int]]:
    """Where target ids belong: (config, split, id column, how many of the first `sample` ids it holds),
    best first; empty when no split holds any. For saying which split a misdirected file was made for."""
    wanted = [str(i) for _, i in zip(range(sample), ids, strict=False)]
    found = []
    for config, splits in CONFIGS.items():
        for split in splits:
            for column, known in _ids(config, split).items():
                hits = sum(i in known for i in wanted)
                if hits:
                    found.append((config, split, column, hits))
    return sorted(found, key=lambda entry: -entry[3])


__all__ = [
    "CONFIGS",
    "DATASET_DIR",
    "DEFAULT_CONFIG",
    "EXAMPLE_SPLITS",
    "ID_COLUMNS",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LICENSED_CONFIGS",
    "SPLIT_JOINER",
    "SwordsError",
    "UNTAGGED_CONFIGS",
    "check_config",
    "example_split",
    "language",
    "license_path",
    "load",
    "locate_ids",
    "parquet_path",
    "rows",
    "split_parts",
    "splits_text",
]
