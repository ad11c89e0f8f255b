"""`swords data publish`: upload the dataset folder (card, Parquet, license texts) to the Hugging Face Hub."""

from __future__ import annotations

import os
from pathlib import Path

from . import DATASET_DIR
from .credentials import Redactor
from .errors import SwordsError

TOKEN_VARIABLES = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")


def publishable_files(dataset_dir: Path = DATASET_DIR) -> list[tuple[str, int]]:
    """(path relative to the folder, size in bytes) of what a Hub dataset repository needs: the card, the data and
    the license texts that ship beside it (TSAR-2022's CC-BY-NC-SA-4.0 asks for its text with the data)."""
    dataset_dir = Path(dataset_dir)
    files = [dataset_dir / "README.md", *sorted((dataset_dir / "data").rglob("*.parquet"))]
    files += sorted((dataset_dir / "data").rglob("LICENSE"))
    missing = [str(f) for f in files if not f.is_file()]
    if missing or len(files) == 1:
        raise SwordsError(f"nothing to publish in {dataset_dir}: run `swords data build` first")
    return [(f.relative_to(dataset_dir).as_posix(), f.stat().st_size) for f in files]


def check_repo_id(repo_id: str) -> str:
    """ORG/NAME as the Hub accepts it (letters, digits, '-', '_', '.'; no '..', no leading or trailing
    '-' or '.'), checked by huggingface_hub's own rule."""
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    try:
        if repo_id.count("/") != 1:
            raise HFValidationError("not of the form ORG/NAME")
        validate_repo_id(repo_id)
    except HFValidationError as error:
        reason = str(error).splitlines()[0]
        raise SwordsError(f"repository id {repo_id[:100]!r} is not ORG/NAME as the Hub accepts it ({reason})") from None
    return repo_id


def publish(repo_id: str, dataset_dir: Path = DATASET_DIR, private: bool = False) -> str:
    """Create the dataset repository if needed and upload; the token is read from the environment only."""
    check_repo_id(repo_id)
    files = publishable_files(dataset_dir)
    token = next((os.environ[v] for v in TOKEN_VARIABLES if os.environ.get(v)), None)
    if token is None:
        raise SwordsError(f"no Hugging Face token: set {TOKEN_VARIABLES[0]} in the environment")
    from huggingface_hub import HfApi

    api = HfApi(token=token)
    try:
        api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        commit = api.upload_folder(
            repo_id=repo_id,
            repo_type="dataset",
            folder_path=str(dataset_dir),
            allow_patterns=[path for path, _ in files],
            commit_message="Upload lexical substitution benchmarks (swords data publish)",
        )
    except Exception as error:  # network or Hub refusal: one line, never the token
        message = Redactor([token]).redact(str(error)).splitlines()[0] if str(error) else type(error).__name__
        raise SwordsError(f"upload to {repo_id} failed: {message}") from None
    return str(getattr(commit, "commit_url", commit))
