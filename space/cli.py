"""`swords demo`: start the Gradio Space locally, with the demo's options (options.py) checked first."""

from __future__ import annotations

import argparse

from swords_lexsub.extras import import_failure
from swords_space.options import add_arguments, check


def register(subparsers) -> None:
    command = subparsers.add_parser(
        "demo",
        help="start the Gradio demo (substitute, explore, score, leaderboard)",
        description="Start the SWORDS Gradio app on this machine (needs: pip install 'swords-lexsub[space]').",
    )
    add_arguments(command)
    command.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check(args)
    try:
        from swords_space import app  # gradio is an optional extra: imported only when the demo starts
    except ImportError as error:
        raise import_failure("the demo", error, "space") from None
    return app.serve(args)
