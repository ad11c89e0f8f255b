"""Real systems' predictions on SWORDS test, for the tests of the details, the summary and the WordNet relations:
the thesaurus oracle (Roget's, from the shared sources), the `wordnet` baseline, the CoInCo oracle (the Space's
stored predictions) and the default system, wordnet+embedding (the README's quick-start run, run as written once
for the whole test run and shared with the snippets' test, about 40 s: tests asking for it are slow, SYSTEM_PARAMS).
Each is made when a test first asks for it (RealSystems)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from ..conftest import REPO_ROOT
from ..doc_commands import default_run

COINCO_ORACLE = REPO_ROOT / "space" / "results" / "coinco-oracle.swords.test.jsonl"
SYSTEMS = ("thesaurus-oracle", "wordnet", "coinco-oracle", "wordnet+embedding")
NEURAL = "wordnet+embedding"
# SYSTEMS as test parameters: the default system's run (about 30 s) makes its tests slow.
SYSTEM_PARAMS = [pytest.param(name, marks=pytest.mark.slow) if name == NEURAL else name for name in SYSTEMS]


class RealSystems(Mapping):
    """name -> the system's predictions, each made when first asked for and kept; a system whose data is absent
    is not in it. `made_once(name, make)` makes a folder once for the whole test run (tests/conftest.py)."""

    def __init__(self, rows: list[dict], made_once: Callable[[str, Callable[[Path], None]], Path]) -> None:
        self.rows, self.made_once, self.made = rows, made_once, {}

    def available(self) -> list[str]:
        from swords_baselines.classic.thesaurus import default_thesaurus_path

        return [name for name in SYSTEMS if name != "thesaurus-oracle" or default_thesaurus_path().is_file()]

    def __getitem__(self, name: str):
        if name not in self.available():
            raise KeyError(name)
        if name not in self.made:
            self.made[name] = (
                default_run(self.made_once) / "runs" / f"{name}.swords.test.jsonl"
                if name == NEURAL
                else system_predictions(name, self.rows)
            )
        return self.made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.available())

    def __len__(self) -> int:
        return len(self.available())


def system_predictions(name: str, rows: list[dict]):
    """The system's SWORDS test predictions: a predictions file (the stored one) or a mapping from target id to
    substitutes. (wordnet+embedding's are the README's default run: RealSystems.)"""
    if name == "coinco-oracle":
        return COINCO_ORACLE
    if name == "thesaurus-oracle":
        from swords_baselines.classic.thesaurus import default_thesaurus_path, thesaurus_substitutes

        if not default_thesaurus_path().is_file():
            pytest.skip(f"Roget's thesaurus not found at {default_thesaurus_path()}")
        return {row["id"]: thesaurus_substitutes(row["target_lemma"], row["pos"]) for row in rows}
    from swords_baselines.classic.wordnet import wordnet_substitutes

    assert name == "wordnet", name
    return {row["id"]: wordnet_substitutes(row) for row in rows}
