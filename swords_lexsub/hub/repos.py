"""The Hugging Face Hub repositories a release makes: each installed package contributes its own through the
`swords.hub_repos` entry point group, so this bottom layer names none above it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from swords_lexsub.errors import SwordsError

DEFAULT_ORG = "swords-lexsub"


@dataclass(frozen=True)
class Release:
    """What a repository pins: the release's version, and its wheel if any (shipped until PyPI has the release)."""

    version: str
    wheel: Path | None = None
    wheel_staged: bool = False  # `wheel` is an export's own checked copy (hub_wheel.stage_wheel), linked, not copied


@dataclass(frozen=True)
class HubRepo:
    """One Hub repository of a release: its `folder` under the export directory, its `repo_type` as the Hub names it,
    its `name` under the organisation, and `write(folder, release)`, which fills an empty folder with its files."""

    folder: str
    repo_type: Literal["dataset", "space"]
    name: str
    write: Callable[[Path, Release], None]
    space_sdk: str | None = None  # "gradio" for a Space


def hub_repos() -> list[HubRepo]:
    """Every installed package's Hub repository, in the order setup.cfg declares them. A declared one whose package
    cannot be imported is a SwordsError naming it: a release is never exported or published without it."""
    from swords_lexsub.plugins import HUB_REPOS, entry_points_of

    repos = []
    for entry_point in entry_points_of(HUB_REPOS):
        try:
            repos.append(entry_point.load())
        except ImportError as error:
            raise SwordsError(
                f"the Hub repository {entry_point.name!r} ({entry_point.value}) cannot be made here: "
                f"{error}; install what its package needs, e.g. pip install 'swords-lexsub[space]'"
            ) from None
    return repos


def repo_url(repo: HubRepo, org: str, endpoint: str = "https://huggingface.co") -> str:
    """Where the repository lives on the Hub (or on the Hub-compatible server at `endpoint`)."""
    prefix = {"dataset": "datasets/", "space": "spaces/"}[repo.repo_type]
    return f"{endpoint.rstrip('/')}/{prefix}{org}/{repo.name}"
