"""The benchmarks' configs and splits: what each gives, where a split's file lives, and the one check of a config
or split name every entry point makes. Re-exported by swords_dataset, which users import."""

from __future__ import annotations

from swords_lexsub.arguments import did_you_mean
from swords_lexsub.errors import SwordsError
from swords_lexsub.terminal import clipped

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
    """A config or split name as an error line shows it (quoted, shortened; another type by its type)."""
    if isinstance(value, str):
        return clipped(value, quote=True)
    return f"{clipped(repr(value))} (of type {type(value).__name__})"
