"""`swords data build`: every check first, then the rows (rows.py) written as Parquet files, license texts, the
dataset card and the build steps' files into a scratch folder that replaces the data, all or nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from swords_dataset import CONFIGS, DATASET_DIR, license_path, parquet_path
from swords_dataset.builder.folder import BuildFolder
from swords_dataset.builder.readers import prolex as readers_prolex
from swords_dataset.builder.readers import tsar2022 as readers_tsar2022
from swords_dataset.builder.rows import build_rows
from swords_dataset.builder.sources import BUILD_SOURCES, checked_sources
from swords_dataset.builder.upstream_ids import nltk35_detokenizer
from swords_dataset.card import write_card
from swords_dataset.schema import ARROW_SCHEMA
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import check_room, no_space, no_space_reason
from swords_lexsub.plugins import BUILD_STEPS, entry_points_of

# The license text the build copies beside a config's data (swords_dataset.license_path), from its source.
LICENSE_SOURCES = {
    readers_prolex.CONFIG: readers_prolex.LICENSE,
    **{readers_tsar2022.config_name(language): readers_tsar2022.LICENSE for language in readers_tsar2022.LANGUAGES},
}


def write_parquet(rows: list[dict], path: Path) -> None:
    table = pa.Table.from_pylist(rows, schema=ARROW_SCHEMA)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Fixed settings so that a rebuild gives byte-identical files.
    pq.write_table(
        table,
        path,
        compression="zstd",
        compression_level=9,
        row_group_size=1 << 20,
        write_statistics=False,
        store_schema=True,
    )


def shipped_size() -> tuple[int, int]:
    """(bytes in all, bytes of the largest file) of the shipped dataset folder: near enough what a build writes."""
    sizes = [path.stat().st_size for path in (DATASET_DIR / "data").rglob("*") if path.is_file()]
    sizes.append((DATASET_DIR / "README.md").stat().st_size)
    return sum(sizes), max(sizes)


def write_dataset(rows: dict[str, dict[str, list[dict]]], paths: dict[str, Path], scratch: Path) -> None:
    """Everything the build writes, into the scratch folder: Parquet, licenses, the card, the build steps' files."""
    for config, splits in rows.items():
        for split, split_rows in splits.items():
            write_parquet(split_rows, scratch / parquet_path(config, split))
    for config, source in LICENSE_SOURCES.items():
        target = scratch / license_path(config)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(paths[source], target)
    write_card(scratch, {c: {s: len(r) for s, r in splits.items()} for c, splits in rows.items()})
    for step in entry_points_of(BUILD_STEPS):  # what other installed packages derive from the folder
        step.load()(scratch)


def build(sources_dir: Path, output_dir: Path = DATASET_DIR, nltk35: str | None = None) -> dict[str, dict[str, int]]:
    """Build every config into output_dir/data and output_dir/README.md (folder.py); returns row counts. `nltk35`: a
    folder holding nltk 3.5, for upstream's SemEval-2007 trial ids. What can stop it is checked first, in a few
    milliseconds (the folder, the room, nltk 3.5, every source's sha256); then all is read, checked, written to a
    scratch folder and moved into place, so a failure leaves output_dir as it was."""
    with BuildFolder(output_dir) as folder:
        check_room(folder.folder, *shipped_size(), folder.what)
        detokenize = nltk35_detokenizer(nltk35)
        paths = checked_sources(Path(sources_dir), BUILD_SOURCES)
        rows = build_rows(paths, detokenize)
        if set(rows) != set(CONFIGS) or any(set(rows[c]) != set(CONFIGS[c]) for c in CONFIGS):
            raise AssertionError("build produced configs/splits other than CONFIGS")
        write_into(folder, rows, paths)
    return {c: {s: len(r) for s, r in splits.items()} for c, splits in rows.items()}


def write_into(folder: BuildFolder, rows: dict[str, dict[str, list[dict]]], paths: dict[str, Path]) -> None:
    """Write the dataset into a scratch folder inside `folder` and swap it in; an OSError is one SwordsError."""
    scratch = None
    try:
        scratch = folder.scratch()
        write_dataset(rows, paths, scratch)
        folder.replace_with(scratch)
    except OSError as error:  # pyarrow raises OSError too; the scratch folder goes, the dataset stays
        full = no_space(error) or "No space left" in str(error)  # an older pyarrow's error has no errno
        where = f" ({error.filename})" if error.filename else ""
        reason = no_space_reason(error) if full else f"{error.strerror or str(error).splitlines()[0]}{where}"
        raise SwordsError(f"{folder.what}: cannot write the dataset: {reason}; nothing was changed") from None
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
