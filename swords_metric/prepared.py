"""References prepared once, when the dataset is built, and shipped beside each split's Parquet.

Preparing a split's references (lemmatizing every substitute and candidate, merging, dropping the target)
is most of what scoring costs; it depends only on the dataset and the lemmatizer. `swords data build`
writes the result as `data/CONFIG/SPLIT.references.json.gz`; `Scorer.from_dataset` reads it instead of the
Parquet, and the tests check that it equals a live preparation. A file made by another lemmatizer or
format version is ignored (the references are then prepared live).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path

from .core import Reference, prepare_reference

FORMAT = 1
SUFFIX = ".references.json.gz"


def prepared_path(dataset_dir: Path, config: str, split: str) -> Path:
    return Path(dataset_dir) / "data" / config / f"{split}{SUFFIX}"


@dataclass
class PreparedSplit:
    """What the scorer needs of a split: per row its ids, POS, benchmark and problematic flag, and its
    prepared reference (None for a row without substitutes)."""

    views: list[dict]
    problematic: list[bool]
    references: list[Reference | None]


def encode(rows: list[dict], lemmatizer: str) -> bytes:
    """The prepared references of `rows` as gzipped JSON (byte-identical for identical input)."""
    targets = []
    for row in rows:
        reference = prepare_reference(row)
        targets.append([
            row["id"],
            row.get("upstream_id") or "",
            row["pos"],
            row.get("benchmark") or "",
            bool((row.get("provenance") or {}).get("coinco_problematic")),
            None if reference is None else [reference.target_lemma, list(reference.lemmas),
                                            list(reference.positives), list(reference.totals)],
        ])
    body = json.dumps({"format": FORMAT, "lemmatizer": lemmatizer, "targets": targets}, ensure_ascii=False,
                      separators=(",", ":"))
    return gzip.compress(body.encode("utf-8"), compresslevel=9, mtime=0)


def decode(data: bytes, lemmatizer: str) -> PreparedSplit | None:
    """The prepared split, or None if it was made by another lemmatizer or format version."""
    payload = json.loads(gzip.decompress(data))
    if payload.get("format") != FORMAT or payload.get("lemmatizer") != lemmatizer:
        return None
    views, problematic, references = [], [], []
    for target_id, upstream_id, pos, benchmark, flagged, prepared in payload["targets"]:
        views.append({"id": target_id, "upstream_id": upstream_id, "pos": pos, "benchmark": benchmark})
        problematic.append(flagged)
        if prepared is None:
            references.append(None)
            continue
        target_lemma, lemmas, positives, totals = prepared
        references.append(Reference(
            id=target_id, pos=pos, target_lemma=target_lemma, lemmas=tuple(lemmas), positives=tuple(positives),
            totals=tuple(totals), index={lemma: i for i, lemma in enumerate(lemmas)},
        ))
    return PreparedSplit(views, problematic, references)


def load(dataset_dir: Path, config: str, split: str, lemmatizer: str) -> PreparedSplit | None:
    path = prepared_path(dataset_dir, config, split)
    if not path.is_file():
        return None
    return decode(path.read_bytes(), lemmatizer)
