"""CoInCo (the MASC sentences of Kremer et al. 2014) -> rows of the shared schema, split by MASC document as
SWORDS dev and test were drawn from it."""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from swords_dataset.builder.errors import BuildError
from swords_dataset.builder.readers.row_fields import (
    normalize_whitespace,
    pool_with_gold,
    produced_substitutes,
    read_candidate_lists,
    schema_row,
)
from swords_dataset.schema import PTB_TO_UD, empty_provenance


def coinco_test_documents(swords_dev_documents: set[str], swords_test_documents: set[str]) -> set[str]:
    """CoInCo's split is by MASC document, SWORDS's drawn from it: a document in SWORDS test is test, any other dev."""
    if overlap := swords_dev_documents & swords_test_documents:
        raise BuildError(f"MASC documents in both SWORDS dev and test: {sorted(overlap)}")
    return set(swords_test_documents)


def read_coinco(xml_path: Path, candidates_path: Path, test_documents: set[str]) -> dict[str, list[dict]]:
    """CoInCo rows by split, a context its pre-context, sentence and post-context joined by one space (as SWORDS)."""
    candidate_lists = read_candidate_lists(candidates_path)
    with gzip.open(xml_path, "rb") as f:
        root = ElementTree.parse(f).getroot()
    rows: dict[str, list[dict]] = {"dev": [], "test": []}
    for sentence in root.iter("sent"):
        document, sentence_id = sentence.get("MASCfile"), sentence.get("MASCsentID")
        split = "test" if document in test_documents else "dev"
        parts = [
            normalize_whitespace(sentence.findtext(tag) or "")
            for tag in ("precontext", "targetsentence", "postcontext")
        ]
        pre, region, _ = parts
        context = " ".join(p for p in parts if p)
        region_start = len(pre) + 1 if pre else 0
        context_id = f"coinco:{document}:{sentence_id}"
        cursor = 0  # tokens are located left to right in the target sentence
        for token in sentence.iter("token"):
            wordform = token.get("wordform").strip()
            found = region.find(wordform, cursor)
            if found >= 0:
                cursor = found + len(wordform)
            if token.get("posMASC") == "XXX":  # not a target: CoInCo only annotated content words
                continue
            token_id = token.get("id")
            if found < 0:
                raise BuildError(f"CoInCo token {token_id} {wordform!r} not found in its sentence {context_id}")
            substitutes = produced_substitutes(
                [(normalize_whitespace(subst.get("lemma")), int(subst.get("freq"))) for subst in token.iter("subst")],
                "coinco",
            )
            lemma = token.get("lemma").strip()
            pos_tag = token.get("posMASC").strip()
            pos = PTB_TO_UD[pos_tag[0]]
            pool = candidate_lists.get(f"{lemma}.{pos_tag[0]}", [])
            provenance = empty_provenance(coinco_token_ids=[token_id], masc_sentences=[f"{document}:{sentence_id}"])
            provenance["coinco_problematic"] = token.get("problematic", "no").strip().lower() == "yes"
            rows[split].append(
                schema_row(
                    f"coinco:{token_id}",
                    "coinco",
                    context_id,
                    context,
                    wordform,
                    region_start + found,
                    substitutes,
                    pos=pos,
                    target_lemma=lemma,
                    candidates=pool_with_gold(pool, substitutes),
                    provenance=provenance,
                )
            )
    return rows
