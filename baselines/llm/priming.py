"""Where the prompted LLM's priming examples come from: never from the split being scored (an example carries its
gold answer). `auto` takes the SWORDS paper's choice (SWORDS dev for SWORDS, CoInCo and SemEval-2007) or, for ProLex
and TSAR-2022, the benchmark's own dev or trial split; when that split is scored, the config's other one; when every
split is (`dev+test`), it refuses, naming `--priming`, as it refuses an explicit scored split. Splits holding the
same targets under another config count as scored too (SAME_TARGETS). Nothing here reads a file.
"""

from __future__ import annotations

import swords_dataset
from swords_lexsub.errors import SwordsError

AUTO_PRIMING = "auto"
# Benchmarks primed from their own split (`auto`): another task or language than SWORDS dev's (the instruction stays
# the paper's English line; the examples show the language and the task).
OWN_PRIMING = swords_dataset.UNTAGGED_CONFIGS
# Splits that hold the same targets: SWORDS's are CoInCo's (357 of SWORDS dev's 370 targets are CoInCo dev tokens,
# 742 of test's 762 CoInCo test tokens), and the 89-target subset and its reannotation are SWORDS test targets.
# Priming from one while scoring another would show the model answers to the targets it is asked.
SAME_TARGETS = (
    frozenset({("swords", "dev"), ("coinco", "dev")}),
    frozenset({("swords", "test"), ("coinco", "test"), ("swords_test_subset", "test"), ("swords_reannotated", "test")}),
)


def scored_splits(benchmark: str, split: str) -> frozenset[tuple[str, str]]:
    """Every (config, split) holding targets of the scored split: its parts (`dev+test`: both), and SAME_TARGETS'."""
    parts = {(benchmark, part) for part in swords_dataset.split_parts(benchmark, split)}
    for group in SAME_TARGETS:
        if parts & group:
            parts |= group
    return frozenset(parts)


def named(priming: str, flag: str = "--priming") -> tuple[str, str]:
    """(config, split) of an explicit `--priming CONFIG:SPLIT`, checked (a SwordsError naming the option)."""
    config, colon, split = str(priming).partition(":")
    if not colon or not split:
        raise SwordsError(f"{flag} {priming!r}: give CONFIG:SPLIT (e.g. swords:dev) or auto")
    swords_dataset.check_config(config, split)
    return config, split


def priming_split(priming: str, benchmark: str | None, split: str | None, flag: str = "--priming") -> tuple[str, str]:
    """(config, split) of the priming examples for a run scoring `split` of `benchmark` (None: not known, as for a
    sentence of one's own: `auto` is SWORDS dev), as the module docstring says; SwordsErrors name `flag`."""
    scored = scored_splits(benchmark, split) if benchmark and split else frozenset()
    if priming != AUTO_PRIMING:
        source = named(priming, flag)
        if source in scored:
            relation = (
                "is the split being scored"
                if source == (benchmark, split)
                else "is part of the split being scored"
                if source[0] == benchmark
                else "holds the targets of the split being scored"
            )
            raise SwordsError(
                f"{flag} {priming} {relation} ({benchmark} {split}): every prompt would carry the other "
                f"targets' gold answers; choose another{_other(scored, source)}"
            )
        return source
    default = swords_dataset.example_split(benchmark) if benchmark in OWN_PRIMING else ("swords", "dev")
    for candidate in (default, *_same_config(default)):
        if candidate not in scored:
            return candidate
    raise SwordsError(
        f"{flag} auto: every split of {default[0]} holds targets being scored ({benchmark} {split}) and "
        f"priming never comes from them; choose another benchmark's split as {flag} CONFIG:SPLIT"
        f"{_other(scored, default)}"
    )


def _same_config(source: tuple[str, str]) -> list[tuple[str, str]]:
    return [(source[0], other) for other in swords_dataset.CONFIGS[source[0]] if other != source[1]]


def _other(scored: frozenset[tuple[str, str]], source: tuple[str, str]) -> str:
    """A split holding none of the scored targets, as an example: of the same config if one is ('' if none is)."""
    everything = [(config, split) for config, splits in swords_dataset.CONFIGS.items() for split in splits]
    free = [candidate for candidate in (*_same_config(source), *everything) if candidate not in scored]
    return f" (e.g. {free[0][0]}:{free[0][1]})" if free else ""
