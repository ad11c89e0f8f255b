"""Real systems' predictions on SWORDS test, for the tests of the details, the summary and the WordNet relations:
the thesaurus oracle (Roget's, from the shared sources), the `wordnet` baseline, the CoInCo oracle (the Space's
stored predictions) and the default system, wordnet+embedding (run once a session, about 30 s)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from ..conftest import REPO_ROOT

COINCO_ORACLE = REPO_ROOT / "space" / "results" / "coinco-oracle.swords.test.jsonl"
SYSTEMS = ("thesaurus-oracle", "wordnet", "coinco-oracle", "wordnet+embedding")


def system_predictions(name: str, rows: list[dict], folder: Path):
    """The system's SWORDS test predictions: a predictions file (the stored one, or the run's JSONL) or a
    mapping from target id to substitutes."""
    if name == "coinco-oracle":
        return COINCO_ORACLE
    if name == "thesaurus-oracle":
        from swords_baselines.classic.thesaurus import default_thesaurus_path, thesaurus_substitutes

        if not default_thesaurus_path().is_file():
            pytest.skip(f"Roget's thesaurus not found at {default_thesaurus_path()}")
        return {row["id"]: thesaurus_substitutes(row["target_lemma"], row["pos"]) for row in rows}
    if name == "wordnet":
        from swords_baselines.classic.wordnet import wordnet_substitutes

        return {row["id"]: wordnet_substitutes(row) for row in rows}
    from swords_baselines.cli import execute

    output = folder / f"{name}.jsonl"
    with contextlib.redirect_stdout(io.StringIO()):
        assert execute(name, {}, "swords", "test", str(output), bootstrap=0, progress=False, as_json=True) == 0
    return output
