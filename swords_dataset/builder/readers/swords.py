"""SWORDS (v1.1: dev, test, the test subset and its reannotation) -> rows of the shared schema, ids unchanged; and
the MASC documents its contexts were drawn from, which decide CoInCo's split."""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from pathlib import Path

from swords_dataset.builder.readers.row_fields import schema_row
from swords_dataset.schema import empty_provenance, sort_substitutes, sorted_candidates


def read_swords(path: Path, benchmark: str) -> list[dict]:
    """Rows of an upstream SWORDS JSON file, ids unchanged, in the file's target order."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        raw = json.load(f)
    substitutes_by_target = defaultdict(list)
    for substitute_id, substitute in raw["substitutes"].items():
        labels = raw["substitute_labels"][substitute_id]
        positive = labels.count("TRUE")
        substitutes_by_target[substitute["target_id"]].append(
            {
                "substitute": substitute["substitute"],
                "score": positive / len(labels),
                "votes_positive": positive,
                "votes_total": len(labels),
                "labels": list(labels),
                "sources": list(substitute["extra"]["sources"]),
                "cefr": None,
            }
        )
    rows = []
    for target_id, target in raw["targets"].items():
        context = raw["contexts"][target["context_id"]]
        substitutes = sort_substitutes(substitutes_by_target[target_id])
        token_ids, sentences = list(target["extra"]["coinco_ids"]), list(context["extra"]["coinco_ids"])
        rows.append(
            schema_row(
                target_id,
                benchmark,
                target["context_id"],
                context["context"],
                target["target"],
                target["offset"],
                substitutes,
                pos=target["pos"],
                target_lemma=target["extra"]["coinco_lemma"],
                candidates=sorted_candidates([s["substitute"] for s in substitutes]),
                provenance=empty_provenance(coinco_token_ids=token_ids, masc_sentences=sentences),
            )
        )
    return rows


def swords_documents(paths: list[Path]) -> set[str]:
    """The MASC documents that SWORDS contexts were drawn from."""
    documents = set()
    for path in paths:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            raw = json.load(f)
        for context in raw["contexts"].values():
            documents.update(masc_id.split(":", 1)[0] for masc_id in context["extra"]["coinco_ids"])
    return documents
