"""The thesaurus oracle of the SWORDS paper: Roget's substitutes for the target lemma, in thesaurus order,
from the senses whose part of speech includes the target's."""

from __future__ import annotations

import gzip
import json
import os
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

from swords_lexsub.errors import SwordsError

THESAURUS_ENV = "SWORDS_THESAURUS"
_SENSE_POS = {"n": "NOUN", "v": "VERB", "adj": "ADJ", "adv": "ADV"}


def default_thesaurus_path() -> Path:
    """$SWORDS_THESAURUS, else the shared data folder beside the repository (not bundled: unclear terms)."""
    if os.environ.get(THESAURUS_ENV):
        return Path(os.environ[THESAURUS_ENV])
    from swords_dataset.builder.sources import default_sources_dir

    return default_sources_dir() / "thesaurus" / "rogets.json.gz"


def _entries(path: str) -> list[dict]:
    """[{lemma, pos, substitutes}] from rogets.json.gz, or from the SWORDS authors' rogets.pkl, in thesaurus order."""
    if path.endswith(".pkl"):
        import pickle

        with open(path, "rb") as f:
            raw = pickle.load(f)  # the user's own copy of the upstream file
        return [{"lemma": lemma, "pos": pos, "substitutes": value["results"]} for (lemma, pos), value in raw.items()]
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


@lru_cache(maxsize=4)
def load_thesaurus(path: str) -> dict[str, list[tuple[frozenset[str], list[str]]]]:
    """lemma -> [(UD POS tags of the sense, substitutes in thesaurus order)], senses in file order."""
    if not Path(path).is_file():
        raise SwordsError(
            f"thesaurus not found at {path}",
            hint=f"pass --thesaurus with rogets.pkl or rogets.json.gz, or set {THESAURUS_ENV}",
        )
    try:
        entries = _entries(path)
    except (OSError, ValueError, KeyError, TypeError, EOFError, AttributeError) as error:
        raise SwordsError(f"{path}: not Roget's thesaurus as rogets.pkl or rogets.json.gz ({error})") from None
    senses = defaultdict(list)
    for entry in entries:
        # Sense tags look like "v1", "adj2/adv1": the letters name the POS, the digit the sense.
        tags = frozenset(_SENSE_POS["".join(c for c in tag if c.isalpha())] for tag in entry["pos"].split("/"))
        senses[entry["lemma"]].append((tags, list(entry["substitutes"])))
    return dict(senses)


def thesaurus_substitutes(target_lemma: str, pos: str, path: Path | None = None) -> list[str]:
    """Substitutes of every sense of target_lemma whose POS includes pos, in order (repeats kept: the metric merges)."""
    senses = load_thesaurus(str(path or default_thesaurus_path())).get(target_lemma, [])
    return [substitute for tags, substitutes in senses if pos in tags for substitute in substitutes]
