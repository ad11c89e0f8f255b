"""The Gradio app: the five tabs (tabs/*.py) and the server's start, as `swords demo [--port N]` or
`python space/app.py [--port N]` (as a Hugging Face Space runs it)."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import threading
from pathlib import Path

import gradio as gr

if not __package__:  # run as a script (`python space/app.py`), not imported: this folder loaded as swords_space
    import importlib.util

    if "swords_space" not in sys.modules:
        _here = Path(__file__).resolve().parent
        _spec = importlib.util.spec_from_file_location(
            "swords_space", _here / "__init__.py", submodule_search_locations=[str(_here)]
        )
        _package = importlib.util.module_from_spec(_spec)
        sys.modules["swords_space"] = _package
        _spec.loader.exec_module(_package)
from swords_space import benchmarks, memory, offered_systems, options, scoring, stored, systems
from swords_space.inputs import guard_inputs
from swords_space.tabs import explore, judge, leaderboard, score, substitute
from swords_space.tabs.score_files import MAX_UPLOAD_BYTES

QUEUE_CONCURRENCY = 4  # events of different sessions run side by side; the model itself is shared
INTRO = """# SWORDS lexical substitution
Type a context, choose a word in it, and get substitutes that fit **in that context**; browse the SWORDS, CoInCo
and SemEval-2007 benchmarks, ProLex and TSAR-2022; score a system's predictions with each benchmark's metrics;
judge the substitutes a benchmark never judged, by SWORDS's own protocol.
Everything runs offline on the bundled data, except the optional LLM (your own API key, kept only in this
session's memory)."""


def build_demo() -> gr.Blocks:
    splits = benchmarks.split_choices()
    with gr.Blocks(title="SWORDS lexical substitution", analytics_enabled=False) as demo:
        gr.Markdown(INTRO)
        with gr.Tabs(selected="substitute") as tabs:
            with gr.Tab("Substitute", id="substitute"):
                fill = substitute.build(demo, splits)
            with gr.Tab("Explore", id="explore"):
                explore.build(demo, splits, fill, tabs)
            with gr.Tab("Score", id="score"):
                score.build(splits, fill, tabs)
            with gr.Tab("Leaderboard", id="leaderboard"):
                leaderboard.build(demo)
            with gr.Tab("Judge", id="judge"):
                judge.build(demo)
    return demo


def preload() -> None:
    """What the first requests need, loaded in the background: the example index, a scorer, the default model."""
    benchmarks.warm()
    scoring.scorer_for("swords", "test")
    systems.warm(offered_systems.default_system())


def launch(
    port: int | None = None, host: str | None = None, results: str | None = None, warm: bool = True, block: bool = True
) -> gr.Blocks:
    """Build and start the app (no run history: inputs may hold a key); `block=False` returns once it answers."""
    memory.configure()  # before the worker threads start
    if results:
        os.environ[stored.RESULTS_ENV] = str(Path(results).resolve())
    if warm:  # load data and the model in the background: the page is up at once, the first answer is fast
        threading.Thread(target=preload, name="swords-space-warm", daemon=True).start()
    demo = guard_inputs(build_demo())
    demo.queue(default_concurrency_limit=QUEUE_CONCURRENCY, max_size=64)
    demo.launch(
        server_name=host,
        server_port=port,
        max_file_size=f"{MAX_UPLOAD_BYTES // 2**20}mb",
        show_error=False,
        quiet=True,
        run_history=False,
        ssr_mode=False,
        mcp_server=False,
        footer_links=["api", "gradio"],
        prevent_thread_lock=not block,
    )
    return demo


def serve(args: argparse.Namespace) -> int:
    """Start the app with the demo's checked options (options.add_arguments, options.check) and serve until Ctrl-C."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request is noise, not news
    try:
        demo = launch(args.port, args.host, args.results, block=False)
    except OSError as error:  # taken between the check and the start: Gradio's "Cannot find empty port ..."
        if "port" not in str(error).lower():
            raise
        raise options.DemoError(options.port_in_use(args)) from None
    print(f"The demo is running at {demo.local_url} (Ctrl-C stops it)", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        demo.block_thread()
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python space/app.py [--port N] [--host H] [--results DIR]`, as a Hugging Face Space runs it."""
    parser = argparse.ArgumentParser(prog="app.py", description="The SWORDS lexical substitution demo.")
    options.add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        options.check(args)
        return serve(args)
    except options.DemoError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
