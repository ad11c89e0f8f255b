"""Uploads to the Hugging Face Hub, for `swords data publish` and `swords hub publish`: the token (from the
environment only), the repository id's check, and the upload, bounded in time and in what it reads (session.py),
its outcome one line naming the repository and the Hub's address, never a secret."""

from __future__ import annotations

import os
from pathlib import Path

from swords_lexsub.credentials import Redactor, public_url
from swords_lexsub.errors import SwordsError
from swords_lexsub.hub.endpoint import hub_endpoint
from swords_lexsub.hub.session import hub_session, within_deadline
from swords_lexsub.hub.transport import HubLimits
from swords_lexsub.proxies import check_proxy, proxy_secrets
from swords_lexsub.terminal import shown

TOKEN_VARIABLES = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")
SERVER_TEXT_READ = 4000  # characters of a server's text (an error, a URL) looked at
SERVER_TEXT_SHOWN = 300  # characters of it printed, once escaped


def check_repo_id(repo_id: str) -> str:
    """ORG/NAME as the Hub accepts it (letters, digits, '-', '_', '.'; no '..', no leading or trailing
    '-' or '.'), checked by huggingface_hub's own rule."""
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    try:
        if repo_id.count("/") != 1:
            raise HFValidationError("not of the form ORG/NAME")
        validate_repo_id(repo_id)
    except HFValidationError as error:
        # huggingface_hub's reason quotes the id whole (10 kB of it, or escape sequences): named once, cut, here
        reason = str(error).splitlines()[0].replace(f": '{repo_id}'", "").replace(repo_id, "the id")
        cut = "…" if len(repo_id) > 100 else ""
        raise SwordsError(
            f"repository id '{shown(repo_id[:100])}'{cut} is not ORG/NAME as the Hub accepts it ({shown(reason[:200])})"
        ) from None
    return repo_id


def hub_token() -> str:
    """The Hugging Face token, from the environment only (never a file, never an option on the command line)."""
    token = next((os.environ[v] for v in TOKEN_VARIABLES if os.environ.get(v)), None)
    if token is None:
        raise SwordsError(f"no Hugging Face token: set {TOKEN_VARIABLES[0]} in the environment")
    return token


def server_text(text: object, redactor: Redactor) -> str:
    """What a server sent (an error, a commit URL), as it may be printed: its first SERVER_TEXT_READ characters on
    one line, every secret masked, escaped for the terminal, cut to SERVER_TEXT_SHOWN characters."""
    text = " ".join(str(text)[:SERVER_TEXT_READ].split())
    text = shown(redactor.redact(text))
    return text if len(text) <= SERVER_TEXT_SHOWN else text[: SERVER_TEXT_SHOWN - 1] + "…"


def upload(
    repo_id: str,
    repo_type: str,
    folder: Path,
    files: list[str],
    token: str,
    message: str,
    space_sdk: str | None = None,
    private: bool = False,
    limits: HubLimits | None = None,
) -> str:
    """Create the repository if needed and upload `files` (relative to `folder`) within `limits`; the commit's URL,
    as it may be printed. Any failure is one SwordsError naming the repository and the Hub's address."""
    from huggingface_hub import HfApi

    endpoint = hub_endpoint()
    limits = limits or HubLimits()
    check_proxy(endpoint)  # a proxy variable that cannot work: one line naming it, before any request
    redactor = Redactor(urls=[endpoint], tokens=[token, *proxy_secrets()])  # a proxy may echo its password

    def create_and_upload() -> object:
        api = HfApi(endpoint=endpoint, token=token)
        api.create_repo(repo_id, repo_type=repo_type, private=private, exist_ok=True, space_sdk=space_sdk)
        return api.upload_folder(
            repo_id=repo_id, repo_type=repo_type, folder_path=str(folder), allow_patterns=files, commit_message=message
        )

    try:
        with hub_session(limits):
            commit = within_deadline(limits, create_and_upload)
    except SwordsError:
        raise
    except Exception as error:  # network, Hub refusal, past its time: one line, never a secret
        reason = server_text(error, redactor) or type(error).__name__
        raise SwordsError(f"upload to {repo_id} at {public_url(endpoint)} failed: {reason}") from None
    return server_text(getattr(commit, "commit_url", commit), redactor)
