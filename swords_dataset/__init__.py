"""SWORDS, CoInCo, SemEval-2007 Task 10, ProLex and TSAR-2022 as Hugging Face datasets in one schema.

>>> import swords_dataset
>>> test = swords_dataset.load("swords", split="test")
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path

from swords_lexsub import __version__  # noqa: F401 (the release's version, also as swords_dataset.__version__)
from swords_lexsub.arguments import did_you_mean
from swords_lexsub.errors import SwordsError
from swords_lexsub.terminal import clipped

DATASET_DIR = Path(__file__).resolve().parent

# config -> splits, in the order the card lists them.
CONFIGS: dict[str, tuple[str, ...]] = {
    "swords": ("dev", "test"),
    "swords_test_subset": ("test",),
    "swords_reannotated": ("test",),
    "coinco": ("dev", "test"),
    "semeval07": ("trial", "test"),
    "prolex": ("dev", "test"),
    "tsar2022_en": ("trial", "test"),
    "tsar2022_es": ("trial", "test"),
    "tsar2022_pt": ("trial", "test"),
}
DEFAULT_CONFIG = "swords"
# Configs whose rows give no POS and no lemma (ProLex, TSAR-2022): what tags or lemmatizes the target (WordNet
# systems, the SWORDS metrics, the Space's views) does not apply to them as it stands.
UNTAGGED_CONFIGS = ("prolex", "tsar2022_en", "tsar2022_es", "tsar2022_pt")
# The language of a config's text (ISO 639-1), where it is not English.
LANGUAGES = {"tsar2022_es": "es", "tsar2022_pt": "pt"}
LANGUAGE_NAMES = {"en": "English", "es": "Spanish", "pt": "Portuguese"}
# Each config's split of examples that are not scored (priming examples, few-shot examples): dev or trial.
EXAMPLE_SPLITS = {"swords_test_subset": ("swords", "dev"), "swords_reannotated": ("swords", "dev")}


def language(config: str) -> str:
    """The ISO 639-1 code of a config's language: 'es', 'pt', else 'en'."""
    return LANGUAGES.get(config, "en")


def example_split(config: str) -> tuple[str, str]:
    """(config, split) of a benchmark's own examples that are not scored: its dev split, else its trial split
    (SWORDS's subsets: SWORDS dev)."""
    if config in EXAMPLE_SPLITS:
        return EXAMPLE_SPLITS[config]
    splits = CONFIGS[config]
    return config, "dev" if "dev" in splits else "trial"


# Configs whose license text ships beside their data: ProLex (Apache-2.0), TSAR-2022 (CC-BY-NC-SA-4.0).
LICENSED_CONFIGS = ("prolex", "tsar2022_en", "tsar2022_es", "tsar2022_pt")


def license_path(config: str) -> str | None:
    """The license text shipped beside a config's data (relative to the dataset folder), where its license asks
    for one; None for the others (the card names every license)."""
    return f"data/{config}/LICENSE" if config in LICENSED_CONFIGS else None


def parquet_path(config: str, split: str) -> str:
    """Where a split lives, relative to the dataset folder (the card's data_files use the same)."""
    return f"data/{config}/{split}.parquet"


def splits_text() -> str:
    """Every config's splits in one line, for help texts: 'swords: dev, test; …'."""
    return "; ".join(f"{config}: {', '.join(splits)}" for config, splits in CONFIGS.items())


# Splits scored together, as published tables pool them (e.g. LexSubGen's CoInCo dev+test, SemEval trial+test).
SPLIT_JOINER = "+"


def split_parts(config: str, split: str) -> tuple[str, ...]:
    """The splits a split name stands for: itself, or for a combination such as "dev+test", each of its
    parts (distinct splits of the config, in the order given); a SwordsError naming what is wrong."""
    check_config(config)
    if not isinstance(split, str) or SPLIT_JOINER not in split:
        check_config(config, split)
        return (split,)
    parts = tuple(split.split(SPLIT_JOINER))
    splits = CONFIGS[config]
    unknown = [part for part in parts if part not in splits]
    if unknown or len(set(parts)) != len(parts) or len(splits) < 2:
        combined = SPLIT_JOINER.join(splits)
        reason = (
            f"{clipped(unknown[0], quote=True)} is not one of its splits{did_you_mean(unknown[0], splits)}"
            if unknown
            else "a split is named twice"
        )
        hint = f"; combine its splits as {combined}" if len(splits) > 1 else "; it has one split, " + splits[0]
        raise SwordsError(f"config {config!r} has no split {clipped(split, quote=True)}: {reason}{hint}")
    return parts


def check_config(config: str, split: str | None = None) -> None:
    """A SwordsError naming an unknown config or split (with "did you mean", a look-alike letter named, a long
    name shortened); `split` None checks the config alone. Every entry point that takes a split checks it here."""
    if not isinstance(config, str) or config not in CONFIGS:
        raise SwordsError(
            f"unknown config {_named(config)}{did_you_mean(config, CONFIGS)}; choose one of {', '.join(CONFIGS)}"
        )
    if split is not None and (not isinstance(split, str) or split not in CONFIGS[config]):
        raise SwordsError(
            f"config {config!r} has no split {_named(split)}{did_you_mean(split, CONFIGS[config])}; "
            f"it has {', '.join(CONFIGS[config])}"
        )


def _named(value: object) -> str:
    """A config or split name as an error line shows it: quoted and shortened; another type by its type."""
    if isinstance(value, str):
        return clipped(value, quote=True)
    return f"{clipped(repr(value))} (of type {type(value).__name__})"


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

    problem = card_problem(DATASET_DIR)
    if problem:
        raise SwordsError(problem)


def rows(config: str = DEFAULT_CONFIG, split: str = "test", columns: list[str] | None = None) -> list[dict]:
    """A split's rows as plain dicts, read straight from the shipped Parquet with pyarrow: what the toolkit's
    own commands use (no `datasets` import, no cache written, nothing printed). Use `load` for a Dataset."""
    import pyarrow.parquet as pq

    check_config(config)
    if split is None:  # `load` gives every split for None; a list of rows is one split's
        raise SwordsError(
            f"rows() reads one split: give split= one of {', '.join(CONFIGS[config])} (load({config!r}) "
            "gives every split)"
        )
    check_config(config, split)
    return pq.read_table(DATASET_DIR / parquet_path(config, split), columns=columns).to_pylist()


# The two id columns: ours, and the one the upstream SWORDS library uses (equal for SWORDS).
ID_COLUMNS = ("id", "upstream_id")


@cache
def _ids(config: str, split: str) -> dict[str, frozenset[str]]:
    import pyarrow.parquet as pq

    table = pq.read_table(DATASET_DIR / parquet_path(config, split), columns=list(ID_COLUMNS))
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
    "splits_text",
]
