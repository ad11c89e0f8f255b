"""The one schema shared by every benchmark config: one row per (context, target) instance."""

from __future__ import annotations

import datasets
import pyarrow as pa

SUBSTITUTE = {
    "substitute": datasets.Value("string"),
    # SWORDS: fraction of annotators who judged it acceptable (abstentions count as "no");
    # CoInCo / SemEval-2007: number of annotators who produced it.
    "score": datasets.Value("float64"),
    "votes_positive": datasets.Value("int32"),
    "votes_total": datasets.Value("int32"),
    # Raw per-annotator judgements (SWORDS: TRUE / FALSE / UNSURE); empty where the source has none.
    "labels": datasets.List(datasets.Value("string")),
    # Where the candidate came from: "coinco", "roget", "semeval07", "prolex", "tsar2022".
    "sources": datasets.List(datasets.Value("string")),
    # ProLex: the substitute's CEFR level as the source gives it (0-5 = A1-C2), for the proficiency-oriented
    # substitutes only; null elsewhere and in every other benchmark.
    "cefr": datasets.Value("int32"),
}

PROVENANCE = {
    "coinco_token_ids": datasets.List(datasets.Value("string")),
    # "<MASC file>:<MASC sentence id>" of the target sentence.
    "masc_sentences": datasets.List(datasets.Value("string")),
    "coinco_problematic": datasets.Value("bool"),
    "semeval_lexelt": datasets.Value("string"),
    "semeval_instance": datasets.Value("int32"),
}

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        # The id the upstream SWORDS library gives the target (`t:<sha1>`); SWORDS: the same as `id`.
        "upstream_id": datasets.Value("string"),
        "benchmark": datasets.Value("string"),
        "context_id": datasets.Value("string"),
        "context": datasets.Value("string"),
        "target": datasets.Value("string"),
        "offset": datasets.Value("int32"),
        "pos": datasets.Value("string"),
        "target_lemma": datasets.Value("string"),
        # ProLex test: the target's CEFR level as the source gives it (0-5 = A1-C2); null elsewhere.
        "target_cefr": datasets.Value("int32"),
        "substitutes": datasets.List(SUBSTITUTE),
        # The candidate pool for the ranking setting, alphabetical so its order leaks no gold.
        "candidates": datasets.List(datasets.Value("string")),
        "provenance": PROVENANCE,
    }
)

ARROW_SCHEMA: pa.Schema = FEATURES.arrow_schema

# What is never null in a row, and in each of its substitutes (the others are null where a source has no such
# thing: a POS, a lemma, vote counts, a CEFR level, a provenance field).
REQUIRED_COLUMNS = (
    "id",
    "upstream_id",
    "benchmark",
    "context_id",
    "context",
    "target",
    "offset",
    "substitutes",
    "candidates",
    "provenance",
)
REQUIRED_SUBSTITUTE_FIELDS = ("substitute", "score", "labels", "sources")

UD_POS = ("NOUN", "VERB", "ADJ", "ADV")

# Penn Treebank tag (first letter) and SemEval-2007 lexelt POS to Universal Dependencies.
PTB_TO_UD = {"N": "NOUN", "V": "VERB", "J": "ADJ", "R": "ADV"}
SEMEVAL_TO_UD = {"n": "NOUN", "v": "VERB", "a": "ADJ", "r": "ADV"}


def empty_provenance(**given) -> dict:
    """A row's provenance: the `given` fields, the others empty ([] or null)."""
    empty = {key: [] if isinstance(feature, datasets.List) else None for key, feature in PROVENANCE.items()}
    return empty | given


def sort_substitutes(substitutes: list[dict]) -> list[dict]:
    """Score descending; Python's sort is stable, so ties keep source order."""
    return sorted(substitutes, key=lambda s: -s["score"])


def sorted_candidates(words: list[str]) -> list[str]:
    """Unique, in a gold-blind order (case-insensitive alphabetical, then exact)."""
    return sorted(set(words), key=lambda w: (w.lower(), w))
