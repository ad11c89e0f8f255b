"""Uploads to the Hugging Face Hub: the token (from the environment only), the repository id's check, and the
upload itself, whose failure is one line naming the repository and never the token. `swords data publish` (the
dataset folder: card, Parquet, license texts) and `swords hub publish` (every repository of a release,
hub_cli.py) both upload through here."""

from __future__ import annotations

import os
from pathlib import Path

from . import DATASET_DIR
from .credentials import Redactor
from .errors import SwordsError

TOKEN_VARIABLES = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")
# Seconds a Hub request may wait to connect, or for the next bytes of an answer (huggingface_hub waits forever).
REQUEST_TIMEOUT_SECONDS = 60.0


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


def hub_token() -> str:
    """The Hugging Face token, from the environment only (never a file, never an option on the command line)."""
    token = next((os.environ[v] for v in TOKEN_VARIABLES if os.environ.get(v)), None)
    if token is None:
        raise SwordsError(f"no Hugging Face token: set {TOKEN_VARIABLES[0]} in the environment")
    return token


def upload(repo_id: str, repo_type: str, folder: Path, files: list[str], token: str, message: str,
           space_sdk: str | None = None, private: bool = False) -> str:
    """Create the repository if needed and upload `files` (paths relative to `folder`); the commit's URL. A refusal
    or a network failure is one SwordsError naming the repository, with the token masked."""
    from huggingface_hub import HfApi, get_session

    get_session().timeout = REQUEST_TIMEOUT_SECONDS  # the client every huggingface_hub call shares
    api = HfApi(token=token)
    try:
        api.create_repo(repo_id, repo_type=repo_type, private=private, exist_ok=True, space_sdk=space_sdk)
        commit = api.upload_folder(repo_id=repo_id, repo_type=repo_type, folder_path=str(folder),
                                   allow_patterns=files, commit_message=message)
    except Exception as error:  # network or Hub refusal: one line, never the token
        message = Redactor([token]).redact(str(error)).splitlines()[0] if str(error).strip() else type(error).__name__
        raise SwordsError(f"upload to {repo_id} failed: {message}") from None
    return str(getattr(commit, "commit_url", commit))


def publish(repo_id: str, dataset_dir: Path = DATASET_DIR, private: bool = False) -> str:
    """Create the dataset repository if needed and upload; the token is read from the environment only."""
    check_repo_id(repo_id)
    files = publishable_files(dataset_dir)
    token = hub_token()
    return upload(repo_id, "dataset", Path(dataset_dir), [path for path, _ in files], token,
                  "Upload lexical substitution benchmarks (swords data publish)", private=private)
