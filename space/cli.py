"""`swords demo`: start the Gradio Space locally."""

from __future__ import annotations

import argparse


def register(subparsers) -> None:
    command = subparsers.add_parser(
        "demo",
        help="start the Gradio demo (substitute, explore, score, leaderboard)",
        description="Start the SWORDS Gradio app on this machine (needs: pip install 'swords-lexsub[space]').",
    )
    command.add_argument("--port", type=int, default=None, help="port (default: $GRADIO_SERVER_PORT or 7860)")
    command.add_argument("--host", default=None, help="address to listen on (default: 127.0.0.1)")
    command.add_argument("--results", default=None, help="folder of stored *.metrics.json (default: space/results)")
    command.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from swords_dataset.errors import SwordsError

    try:
        from . import app  # gradio is an optional extra: imported only when the demo starts
    except ImportError as error:
        raise SwordsError(f"the demo needs {error.name!r}: pip install 'swords-lexsub[space]'") from None
    argv = [*(["--port", str(args.port)] if args.port else []), *(["--host", args.host] if args.host else []),
            *(["--results", args.results] if args.results else [])]
    try:
        return app.main(argv)
    except app.PortInUse as error:
        raise SwordsError(str(error)) from None
