"""Every config's rows, read by each benchmark's reader from the checksum-verified sources, with the id the upstream
SWORDS library gives each target (checked against the dataset ids upstream pins)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from swords_dataset.builder.errors import BuildError
from swords_dataset.builder.readers import prolex as readers_prolex
from swords_dataset.builder.readers import tsar2022 as readers_tsar2022
from swords_dataset.builder.readers.coinco import coinco_test_documents, read_coinco
from swords_dataset.builder.readers.semeval07 import read_semeval07, semeval_instance_texts
from swords_dataset.builder.readers.swords import read_swords, swords_documents
from swords_dataset.builder.sources import SEMEVAL_UPSTREAM_ASSET
from swords_dataset.builder.upstream_ids import (
    UpstreamTarget,
    check_dataset_ids,
    semeval_placements_by_recipe,
    semeval_placements_from_asset,
    upstream_targets,
)

Detokenizer = Callable[[list[list[str]]], list[str]]


def add_upstream_ids(rows: dict[str, dict[str, list[dict]]], paths: dict[str, Path], detokenize: Detokenizer) -> None:
    """Give every row its upstream target id, once each split reproduces upstream's pinned dataset id (so every id is
    there, and right). `detokenize`: nltk 3.5's, for SemEval-2007 trial."""
    for config, splits in rows.items():
        for split, split_rows in splits.items():
            if config != "semeval07":
                targets = upstream_targets(split_rows)
            else:
                if split == "test":
                    placements = semeval_placements_from_asset(paths[SEMEVAL_UPSTREAM_ASSET])
                else:
                    raw = semeval_instance_texts(paths["semeval07/lst_all.xml"])
                    wanted = {row["provenance"]["semeval_instance"] for row in split_rows}
                    placements = semeval_placements_by_recipe(
                        {i: text for i, text in raw.items() if i in wanted}, detokenize
                    )
                missing = [r["id"] for r in split_rows if r["provenance"]["semeval_instance"] not in placements]
                if missing:
                    raise BuildError(f"semeval07 {split}: no upstream context for {len(missing)} rows ({missing[0]})")
                targets = [
                    UpstreamTarget(*placements[row["provenance"]["semeval_instance"]], row["pos"]) for row in split_rows
                ]
            check_dataset_ids(config, split, split_rows, targets)
            for row, target in zip(split_rows, targets, strict=True):
                row["upstream_id"] = target.id
                if config.startswith("swords") and row["upstream_id"] != row["id"]:
                    raise BuildError(f"{config} {split} {row['id']}: its upstream id computes as {row['upstream_id']}")


def build_rows(paths: dict[str, Path], detokenize: Detokenizer) -> dict[str, dict[str, list[dict]]]:
    """config -> split -> rows, from the checked sources (`paths`), with upstream ids."""
    swords_dev = paths["swords/swords-v1.1_dev.json.gz"]
    swords_test = paths["swords/swords-v1.1_test.json.gz"]
    test_documents = coinco_test_documents(swords_documents([swords_dev]), swords_documents([swords_test]))
    rows = {
        "swords": {
            "dev": read_swords(swords_dev, "swords-v1.1"),
            "test": read_swords(swords_test, "swords-v1.1"),
        },
        "swords_test_subset": {
            "test": read_swords(paths["swords/swords-v1.1_test-subset.json.gz"], "swords-v1.1"),
        },
        "swords_reannotated": {
            "test": read_swords(paths["swords/swords-v1.1_test-subset_reannotated.json.gz"], "swords-v1.1-reannotated"),
        },
        "coinco": read_coinco(
            paths["coinco/coinco_patched.xml.gz"], paths["coinco/coinco.no_problematic.candidates"], test_documents
        ),
        "semeval07": read_semeval07(
            paths["semeval07/lst_all.xml"],
            paths["semeval07/lst_trial.gold"],
            paths["semeval07/lst_test.gold"],
            paths["semeval07/lst.gold.candidates"],
        ),
    }
    add_upstream_ids(rows, paths, detokenize)
    # Benchmarks the upstream SWORDS library never had: their upstream_id is their own id.
    rows.update(readers_prolex.read_all(paths))
    rows.update(readers_tsar2022.read_all(paths))
    return rows
