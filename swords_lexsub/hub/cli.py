"""`swords hub export DIR` and `swords hub publish --org ORG`: the release's Hub repositories (repos.py),
written as folders (export.py) or uploaded (publish.py)."""

from __future__ import annotations

import argparse
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from swords_lexsub import __version__
from swords_lexsub.arguments import path_text
from swords_lexsub.errors import SwordsError
from swords_lexsub.hub.repos import DEFAULT_ORG, HubRepo, Release, hub_repos, repo_url
from swords_lexsub.terminal import shown


def _release(args: argparse.Namespace) -> Release:
    return Release(version=__version__, wheel=Path(args.wheel).resolve() if args.wheel is not None else None)


def _print_listing(
    repos: list[HubRepo], listing: dict[str, list[tuple[str, int]]], where: Callable[[HubRepo], str]
) -> None:
    for repo in repos:
        files = listing[repo.folder]
        print(f"{repo.repo_type} {where(repo)}: {len(files)} files, {sum(size for _, size in files):,} bytes")
        for relative, size in files:
            print(f"{size:>14,}  {relative}")


def _cmd_export(args: argparse.Namespace) -> int:
    from swords_lexsub.hub.export import export

    repos = hub_repos()
    listing = export(Path(args.dir), _release(args), repos)
    _print_listing(repos, listing, lambda repo: shown(Path(args.dir) / repo.folder))
    print(f"exported {len(repos)} repositories of swords-lexsub {__version__} to {shown(args.dir)}")
    return 0


def _cmd_publish(args: argparse.Namespace) -> int:
    from swords_lexsub.credentials import public_url
    from swords_lexsub.hub.endpoint import hub_endpoint
    from swords_lexsub.hub.export import export
    from swords_lexsub.hub.publish import check_repo_id, hub_token, upload
    from swords_lexsub.hub.transport import HubLimits

    repos = hub_repos()
    for repo in repos:
        check_repo_id(f"{args.org}/{repo.name}")
    endpoint = hub_endpoint()
    token = None if args.dry_run else hub_token()
    limits = HubLimits()  # the whole publish: export and the three uploads
    scratch = Path(tempfile.mkdtemp(prefix="swords-hub-publish-"))
    try:
        folder = scratch / "export"
        listing = export(folder, _release(args), repos)
        if args.dry_run:
            _print_listing(
                repos, listing, lambda repo: f"{args.org}/{repo.name} {repo_url(repo, args.org, public_url(endpoint))}"
            )
            print(f"{len(repos)} repositories (dry run, nothing uploaded)")
            return 0
        uploaded: list[str] = []
        for repo in repos:  # the first failure stops the rest: publishing again uploads them all, idempotently
            repo_id = f"{args.org}/{repo.name}"
            try:
                url = upload(
                    repo_id,
                    repo.repo_type,
                    folder / repo.folder,
                    [p for p, _ in listing[repo.folder]],
                    token,
                    f"swords-lexsub {__version__} (swords hub publish)",
                    space_sdk=repo.space_sdk,
                    limits=limits,
                )
            except SwordsError as error:
                done = f" (uploaded before it: {', '.join(uploaded)})" if uploaded else ""
                raise SwordsError(f"{repo.repo_type} {error}{done}") from None
            uploaded.append(repo_id)
            print(f"{repo.repo_type} {repo_id}: {shown(url)}")
    finally:
        remove_publish_scratch(scratch)
    return 0


def remove_publish_scratch(folder: Path) -> None:
    """Remove the publish's scratch folder, starting over when SIGTERM or Ctrl-C comes again, then let it go on."""
    interrupted: BaseException | None = None
    while True:
        try:
            shutil.rmtree(folder, ignore_errors=True)
            break
        except KeyboardInterrupt as again:  # SIGTERM is cli.Terminated, a KeyboardInterrupt
            interrupted = again
    if interrupted is not None:
        raise interrupted


def register(subparsers) -> None:
    hub = subparsers.add_parser("hub", help="the release's Hugging Face Hub repositories: dataset, metric, Space")
    commands = hub.add_subparsers(dest="hub_command", required=True, metavar="COMMAND")
    wheel_help = "a built wheel of this release to ship beside the repositories' requirements (until PyPI has it)"

    export = commands.add_parser("export", help="write every repository as DIR/<folder>/, exactly as it is uploaded")
    export.add_argument(
        "dir",
        metavar="DIR",
        type=path_text("a folder"),
        help="a new or empty folder, or one an "
        "earlier export wrote (its swords-hub-export.json lists its files); anything else is refused",
    )
    export.add_argument("--wheel", metavar="PATH", type=path_text("a wheel file"), help=wheel_help)
    export.set_defaults(func=_cmd_export)

    publish = commands.add_parser("publish", help="create and upload every repository (token: $HF_TOKEN)")
    publish.add_argument("--org", default=DEFAULT_ORG, help="the Hub organisation or user (default: %(default)s)")
    publish.add_argument(
        "--dry-run", action="store_true", help="list each repository, its URL, files and sizes; upload nothing"
    )
    publish.add_argument("--wheel", metavar="PATH", type=path_text("a wheel file"), help=wheel_help)
    publish.set_defaults(func=_cmd_publish, needs_hub=True)
