"""The dataset's Hugging Face Hub repository (`swords hub export/publish`, or `swords data publish` alone): the
card, the Parquet files and the license texts that ship beside them."""

from __future__ import annotations

from pathlib import Path

from swords_dataset import DATASET_DIR
from swords_lexsub.errors import SwordsError
from swords_lexsub.hub.publish import check_repo_id, hub_token, upload
from swords_lexsub.hub.repos import HubRepo, Release


def publishable_files(dataset_dir: Path = DATASET_DIR) -> list[tuple[str, int]]:
    """(relative path, size) of what a Hub dataset repository needs: card, data, license texts (TSAR-2022's asks)."""
    dataset_dir = Path(dataset_dir)
    files = [dataset_dir / "README.md", *sorted((dataset_dir / "data").rglob("*.parquet"))]
    files += sorted((dataset_dir / "data").rglob("LICENSE"))
    missing = [str(f) for f in files if not f.is_file()]
    if missing or len(files) == 1:
        raise SwordsError(f"nothing to publish in {dataset_dir}: run `swords data build` first")
    return [(f.relative_to(dataset_dir).as_posix(), f.stat().st_size) for f in files]


def publish(repo_id: str, dataset_dir: Path = DATASET_DIR, private: bool = False) -> str:
    """Create the dataset repository if needed and upload; the token is read from the environment only."""
    check_repo_id(repo_id)
    files = publishable_files(dataset_dir)
    token = hub_token()
    return upload(
        repo_id,
        "dataset",
        Path(dataset_dir),
        [path for path, _ in files],
        token,
        "Upload lexical substitution benchmarks (swords data publish)",
        private=private,
    )


def _write_dataset(folder: Path, release: Release) -> None:
    """The dataset card (its YAML `configs:` name the Parquet files) and the Parquet files, as shipped."""
    import shutil

    for relative, _ in publishable_files(DATASET_DIR):
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(DATASET_DIR / relative, folder / relative)


DATASET_REPO = HubRepo(folder="dataset", repo_type="dataset", name="swords", write=_write_dataset)
