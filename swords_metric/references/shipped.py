"""References prepared once, when the dataset is built, and shipped beside each split's Parquet.

Preparing a split's references is most of what scoring costs and depends only on the dataset and the lemmatizer, so
`swords data build` writes `data/CONFIG/SPLIT.references.json.gz` (`write_shipped`, a `swords.build_steps` entry
point: the dataset package knows nothing of the metric) and `Scorer.from_dataset` reads it. Each file is stamped
with the sha256 of its Parquet file and the lemmatizer's name: one that does not match is refused with a warning and
the references are prepared from the rows.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import warnings
from collections.abc import Sequence
from pathlib import Path

from swords_lexsub.files import atomic_write
from swords_metric.references.reference import Reference, prepare_reference
from swords_metric.references.split import TARGET_FIELDS, ReferenceSplit, reference_view

FORMAT = 4  # 3: each target's word kept (the details name it); 4: LexSubGen's gold and target lemma
SUFFIX = ".references.json.gz"
LEMMATIZER = "wordnet3.0+nltk3.5-morphy"


class StalePreparedReferences(UserWarning):
    """A shipped prepared-references file that does not match its split's Parquet file."""


def prepared_path(dataset_dir: Path, config: str, split: str) -> Path:
    return Path(dataset_dir) / "data" / config / f"{split}{SUFFIX}"


def _sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def encode(rows: list[dict], parquet_sha256: str) -> bytes:
    """The prepared references of `rows` as gzipped JSON (byte-identical for identical input)."""
    targets = []
    for position, row in enumerate(rows):
        view = reference_view(row, position)
        reference = prepare_reference(view)
        prepared = None
        if reference is not None:
            lists = map(list, (reference.lemmas, reference.positives, reference.totals, reference.lexsubgen_gold))
            prepared = [reference.target_lemma, *lists, reference.lexsubgen_target]
        targets.append([*(view[key] for key in TARGET_FIELDS), view["provenance"]["coinco_problematic"], prepared])
    body = json.dumps(
        {"format": FORMAT, "lemmatizer": LEMMATIZER, "parquet_sha256": parquet_sha256, "targets": targets},
        ensure_ascii=False,
        separators=(",", ":"),
        allow_nan=False,
    )
    return gzip.compress(body.encode("utf-8"), compresslevel=9, mtime=0)


def decode(data: bytes) -> tuple[dict, ReferenceSplit]:
    """(the file's stamp: format, lemmatizer, parquet_sha256; the prepared split)."""
    payload = json.loads(gzip.decompress(data))
    stamp = {key: payload.get(key) for key in ("format", "lemmatizer", "parquet_sha256")}
    if stamp["format"] != FORMAT:
        return stamp, ReferenceSplit([], [], [])
    targets, problematic, references = [], [], []
    for *fields, flagged, prepared in payload["targets"]:
        target = dict(zip(TARGET_FIELDS, fields, strict=True))
        targets.append(target)
        problematic.append(flagged)
        if prepared is None:
            references.append(None)
            continue
        target_lemma, lemmas, positives, totals, lexsubgen_gold, lexsubgen_target = prepared
        references.append(
            Reference(
                id=target["id"],
                pos=target["pos"],
                target_lemma=target_lemma,
                lemmas=tuple(lemmas),
                positives=tuple(positives),
                totals=tuple(totals),
                lexsubgen_gold=tuple(lexsubgen_gold),
                lexsubgen_target=lexsubgen_target,
                index={lemma: i for i, lemma in enumerate(lemmas)},
            )
        )
    return stamp, ReferenceSplit(targets, problematic, references)


def load_shipped(dataset_dir: Path, config: str, split: str) -> ReferenceSplit | None:
    """The split's shipped prepared references; None (prepare from the rows) when there is no such file, or it was
    made by another format or lemmatizer, or not from the Parquet file beside it (warned)."""
    import swords_dataset

    path = prepared_path(dataset_dir, config, split)
    if not path.is_file():
        return None
    stamp, prepared = decode(path.read_bytes())
    if stamp["format"] != FORMAT or stamp["lemmatizer"] != LEMMATIZER:
        return None
    parquet = Path(dataset_dir) / swords_dataset.parquet_path(config, split)
    if stamp["parquet_sha256"] != _sha256(parquet):
        warnings.warn(
            f"{path} was not prepared from {parquet} (its sha256 differs): not used, the references are "
            "prepared from the rows (rebuild with `swords data build`)",
            StalePreparedReferences,
            stacklevel=3,
        )
        return None
    return prepared


def shipped_references(config: str, parts: Sequence[str]) -> ReferenceSplit:
    """The prepared references of a shipped split, or of splits scored together (`parts`, in order), from the
    shipped files or else from the rows."""
    import swords_dataset

    references = [
        load_shipped(swords_dataset.DATASET_DIR, config, part)
        or ReferenceSplit.from_rows(swords_dataset.rows(config, part))
        for part in parts
    ]
    return references[0] if len(references) == 1 else ReferenceSplit.joined(references)


def write_shipped(dataset_dir: Path) -> list[Path]:
    """The build step: write the prepared references of every split in `dataset_dir` whose rows all have a POS."""
    import swords_dataset

    written = []
    for config, splits in swords_dataset.CONFIGS.items():
        for split in splits:
            parquet = Path(dataset_dir) / swords_dataset.parquet_path(config, split)
            if not parquet.is_file():
                continue
            rows = swords_dataset.split_table(config, split, dataset_dir=Path(dataset_dir)).to_pylist()
            if not all(isinstance(row.get("pos"), str) for row in rows):
                continue  # no POS (ProLex, TSAR-2022): the SWORDS metrics' lemmatized references do not apply
            path = prepared_path(dataset_dir, config, split)
            atomic_write(path, encode(rows, _sha256(parquet)))
            written.append(path)
    return written
