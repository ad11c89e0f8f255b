"""The Gradio app: lays out the four tabs and wires their events to `handlers` (all the logic is there).

Run: `swords demo [--port N]`, or `python space/app.py [--port N]` (as a Hugging Face Space runs it).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
from pathlib import Path

import gradio as gr

try:
    from . import cli, data, events, handlers, memory, text
    from .inputs import Checkbox, Dropdown, File, Number, Radio, Slider, Textbox, guard_inputs
    from .published import CITATION
except ImportError:  # run as a script: load this folder as the swords_space package, then import from it
    import importlib.util

    if "swords_space" not in sys.modules:
        _here = Path(__file__).resolve().parent
        _spec = importlib.util.spec_from_file_location(
            "swords_space", _here / "__init__.py", submodule_search_locations=[str(_here)]
        )
        _package = importlib.util.module_from_spec(_spec)
        sys.modules["swords_space"] = _package
        _spec.loader.exec_module(_package)
    from swords_space import cli, data, events, handlers, memory, text
    from swords_space.inputs import Checkbox, Dropdown, File, Number, Radio, Slider, Textbox, guard_inputs
    from swords_space.published import CITATION

QUEUE_CONCURRENCY = 4  # events of different sessions run side by side; the model itself is shared
SUBSTITUTE_CONCURRENCY = 16  # mostly waiting (on a system's lock, or on an LLM's answer)
# Two scores at once: files are read as streams (memory grows with the targets, not the file), so three ~19 MB
# CoInCo files and a bomb at once peak under 1 GB (benchmarks/bench_space.py); a bomb never waits behind one.
SCORE_CONCURRENCY = 2
EXAMPLE_CONTEXT = (
    "The committee met on Tuesday. She gave a bright answer that surprised everyone in the room. "
    "Afterwards they went home."
)
INTRO = """# SWORDS lexical substitution
Type a context, choose a word in it, and get substitutes that fit **in that context**; browse the SWORDS, CoInCo
and SemEval-2007 benchmarks; score a system's predictions with the SWORDS metrics. Everything runs offline on the
bundled data, except the optional LLM (your own API key, kept only in this session's memory)."""


# -- layout -------------------------------------------------------------------------------------------------


def build_demo() -> gr.Blocks:
    system_names, default_system = handlers.system_choices()
    splits = handlers.split_choices()
    pos_choices = [text.AUTO_POS, *data.POS_TAGS]
    with gr.Blocks(title="SWORDS lexical substitution", analytics_enabled=False) as demo:
        gr.Markdown(INTRO)
        # This session's LLMSettings (with its key): server memory only, never sent back to the browser, and
        # dropped after four hours even if the tab stays open.
        llm_state = gr.State(None, time_to_live=4 * 3600)
        example_state = gr.State(None)  # the benchmark example the Substitute tab was filled from
        curve_state = gr.State(None)
        with gr.Tabs(selected="substitute") as tabs:
            with gr.Tab("Substitute", id="substitute"):
                with gr.Row():
                    with gr.Column(scale=1):
                        context = Textbox(
                            value=EXAMPLE_CONTEXT,
                            label="Context",
                            lines=5,
                            max_length=text.MAX_CONTEXT_CHARS,
                            placeholder="Type or paste a sentence or a few; then choose the word to substitute.",
                            info=f"At most {text.MAX_CONTEXT_CHARS:,} characters; a longer paste is cut there.",
                            elem_id="context",
                        )
                        with gr.Row():
                            target = Textbox(value="bright", label="Target word", elem_id="target",
                                                max_length=text.MAX_TARGET_CHARS)
                            occurrence = Number(value=1, label="Occurrence", minimum=1, precision=0,
                                                   elem_id="occurrence")
                            word_pick = Dropdown(choices=handlers.word_choices(EXAMPLE_CONTEXT), value=None,
                                                    label="…or pick a word of the context", elem_id="word-pick",
                                                    allow_custom_value=True)
                        with gr.Row():
                            pos = Dropdown(pos_choices, value=text.AUTO_POS, label="Part of speech", elem_id="pos")
                            system = Dropdown(system_names, value=default_system, label="System",
                                              elem_id="system", info=handlers.unavailable_note())
                            top_k = Slider(5, 50, value=10, step=1, label="Substitutes shown")
                        run = gr.Button("Suggest substitutes", variant="primary", elem_id="run")
                        with gr.Accordion("Start from a benchmark example", open=False):
                            with gr.Row():
                                pick_split = Dropdown(splits, value="swords test", label="Benchmark")
                                pick_query = Textbox(label="Target starts with", placeholder="e.g. bright")
                            pick_example = Dropdown(choices=[], label="Example", elem_id="pick-example",
                                                       allow_custom_value=True)
                            pick_count = gr.Markdown(label="Matches")
                        with gr.Accordion("LLM settings (optional, your own key)", open=False):
                            gr.Markdown(
                                "Any OpenAI-compatible API. The key is kept in this session's memory on the server "
                                "only: never logged, stored or shown, gone when you close the tab."
                            )
                            base_url = Textbox(label="Base URL", placeholder="https://api.openai.com/v1",
                                                  elem_id="llm-base-url")
                            with gr.Row():
                                model = Textbox(value="gpt-4o-mini", label="Model", elem_id="llm-model")
                                mode = Radio(["chat", "completions"], value="chat", label="Mode")
                            api_key = Textbox(label="API key", type="password", elem_id="api-key")
                            with gr.Row():
                                set_key = gr.Button("Use this key")
                                clear_key = gr.Button("Forget the key")
                            llm_status = gr.Markdown("No API key set.", elem_id="llm-status")
                    with gr.Column(scale=1):
                        status = gr.Markdown(label="Status", elem_id="substitute-status")
                        context_view = gr.HTML(label="Context", elem_id="context-view")
                        suggestions = gr.HTML(label="Suggestions", elem_id="suggestions")
                        example_metrics = gr.Dataframe(label="Example metrics (Scorer on this one target)",
                                                       headers=handlers.EXAMPLE_METRIC_COLUMNS,
                                                       elem_id="example-metrics", interactive=False)
                        with gr.Accordion("As a table", open=False):
                            suggestions_table = gr.Dataframe(label="Suggestions table", elem_id="suggestions-table",
                                                             headers=handlers.SUGGESTION_COLUMNS, interactive=False)

            with gr.Tab("Explore", id="explore"):
                with gr.Row():
                    explore_split = Dropdown(splits, value="swords test", label="Benchmark", elem_id="explore-split")
                    explore_query = Textbox(label="Target starts with", elem_id="explore-query")
                    explore_pos = Dropdown([data.ALL_POS, *data.POS_TAGS], value=data.ALL_POS,
                                              label="Part of speech")
                    explore_search = gr.Button("Search")
                explore_count = gr.Markdown(label="Matches")
                with gr.Row(equal_height=True):
                    explore_pick = Dropdown(choices=[], label="Example", elem_id="explore-pick",
                                               allow_custom_value=True, scale=4)
                    use_example = gr.Button("Try it in the Substitute tab", scale=1)
                explore_header = gr.HTML(label="Example")
                explore_context = gr.HTML(label="Context", elem_id="explore-context")
                explore_substitutes = gr.HTML(label="Gold substitutes", elem_id="explore-substitutes")

            with gr.Tab("Score", id="score"):
                with gr.Row():
                    with gr.Column(scale=1):
                        upload = File(
                            what="The predictions file",
                            label=f"Predictions file (upstream JSON or JSONL, .gz allowed, at most "
                            f"{handlers.MAX_UPLOAD_BYTES // 2**20} MB)",
                            file_types=[".json", ".jsonl", ".gz", ".txt"],
                            type="filepath",
                            elem_id="score-file",
                        )
                        stored = Dropdown(handlers.stored_predictions(), value=None,
                                             label="…or a stored baseline's predictions", elem_id="score-stored")
                        score_split = Dropdown(splits, value="swords test", label="Benchmark", elem_id="score-split")
                        with gr.Row():
                            setting = Radio(["generative", "ranking"], value="generative", label="Setting")
                            bootstrap = Slider(0, handlers.MAX_BOOTSTRAP, value=1000, step=100,
                                                  label="Bootstrap resamples (95% intervals)")
                        include_problematic = Checkbox(
                            False, label="CoInCo: also score its 'problematic' targets (the upstream scorer leaves "
                            "them out)", elem_id="score-problematic")
                        score = gr.Button("Score", variant="primary", elem_id="score")
                    with gr.Column(scale=2):
                        score_summary = gr.Markdown(label="Summary", elem_id="score-summary")
                        metrics_table = gr.Dataframe(label="Metrics (percent)", elem_id="score-metrics",
                                                     headers=handlers.SCORE_METRIC_COLUMNS, interactive=False)
                        signature = gr.Textbox(label="Signature", elem_id="score-signature", interactive=False)
                with gr.Row():
                    with gr.Column():
                        curve_setting = Radio(["lenient", "strict"], value="lenient", label="Curve")
                        curve = gr.LinePlot(x="k", y="value", color="series", title="Precision and recall at k",
                                            label="Precision and recall at k",
                                            x_title="k", y_title="percent", y_lim=[0, 100], elem_id="score-curve")
                    with gr.Column():
                        published = gr.Dataframe(label="Beside the paper's Table 4", elem_id="score-published",
                                                 headers=handlers.PUBLISHED_COLUMNS, interactive=False, wrap=True,
                                                 column_widths=["28%", "26%", "13%", "13%", "20%"])
                        gr.Markdown(f"Published figures: {CITATION}.")
                by_pos = gr.Dataframe(label="By part of speech", elem_id="score-by-pos",
                                      headers=handlers.BY_POS_COLUMNS, interactive=False)

            with gr.Tab("Leaderboard", id="leaderboard"):
                gr.Markdown(
                    "Stored baselines (the `*.metrics.json` that `swords run` writes) next to the published "
                    "figures. Click a column header to sort."
                )
                board = gr.Dataframe(label="Leaderboard", elem_id="leaderboard", headers=handlers.leaderboard_columns(),
                                     interactive=False)
                board_note = gr.Markdown(label="Sources")
                refresh = gr.Button("Refresh")

        # Substitute
        run_inputs = [context, target, occurrence, pos, system, top_k, example_state, llm_state]
        run_outputs = [status, context_view, suggestions, suggestions_table, example_metrics]
        # A slow system (an LLM behind a slow URL) holds one of many slots, never everyone's.
        run.click(events.on_substitute, run_inputs, run_outputs, api_name="substitute",
                  concurrency_limit=SUBSTITUTE_CONCURRENCY)
        target.submit(events.on_substitute, run_inputs, run_outputs, api_visibility="private")
        context.change(events.on_context, context, word_pick, api_visibility="private", show_progress="hidden",
                       trigger_mode="always_last")  # while typing, only the latest text matters
        word_pick.change(events.on_word, word_pick, [target, occurrence], api_visibility="private",
                         show_progress="hidden")
        pick_inputs = [pick_split, pick_query]
        pick_split.change(events.on_pick_search, pick_inputs, [pick_example, pick_count], api_visibility="private")
        pick_query.submit(events.on_pick_search, pick_inputs, [pick_example, pick_count], api_visibility="private")
        pick_example.change(events.on_pick_example, [pick_split, pick_example], [context, target, occurrence, pos,
                                                                          example_state], api_visibility="private")
        set_key.click(events.on_set_llm, [base_url, model, mode, api_key], [llm_state, api_key, llm_status],
                      api_visibility="private")
        clear_key.click(events.on_clear_llm, None, [llm_state, api_key, llm_status], api_visibility="private")

        # Explore
        explore_inputs = [explore_split, explore_query, explore_pos]
        explore_outputs = [explore_pick, explore_count]
        explore_search.click(events.on_search, explore_inputs, explore_outputs, api_name="search_examples")
        explore_query.submit(events.on_search, explore_inputs, explore_outputs, api_visibility="private")
        explore_split.change(events.on_search, explore_inputs, explore_outputs, api_visibility="private")
        explore_pos.change(events.on_search, explore_inputs, explore_outputs, api_visibility="private")
        explore_pick.change(events.on_show, [explore_split, explore_pick],
                            [explore_header, explore_context, explore_substitutes], api_name="show_example")
        use_example.click(events.on_use_example, [explore_split, explore_pick],
                          [context, target, occurrence, pos, example_state, tabs], api_visibility="private")

        # Score
        score_inputs = [upload, stored, score_split, setting, bootstrap, curve_setting, include_problematic]
        score.click(events.on_score, score_inputs,
                    [score_summary, metrics_table, by_pos, curve, published, signature, curve_state],
                    api_name="score", concurrency_limit=SCORE_CONCURRENCY)
        curve_setting.change(events.on_curve_setting, [curve_state, curve_setting], curve, api_visibility="private")
        stored.change(events.on_stored, stored, [upload, score_split], api_visibility="private")

        # Leaderboard
        refresh.click(events.on_leaderboard, None, [board, board_note], api_name="leaderboard")
        demo.load(events.on_leaderboard, None, [board, board_note], api_visibility="private")
        demo.load(events.on_search, explore_inputs, explore_outputs, api_visibility="private")
        demo.load(events.on_pick_search, pick_inputs, [pick_example, pick_count], api_visibility="private")
    return demo


def launch(port: int | None = None, host: str | None = None, results: str | None = None, warm: bool = True,
           block: bool = True) -> gr.Blocks:
    """Build and start the app (queue with concurrency, 20 MB uploads, no run history: inputs may hold a
    key); `block=False` returns once the server answers."""
    memory.configure()  # before the worker threads start
    if results:
        os.environ[handlers.RESULTS_ENV] = str(Path(results).resolve())
    if warm:  # load data and the model in the background: the page is up at once, the first answer is fast
        threading.Thread(target=handlers.warm, name="swords-space-warm", daemon=True).start()
    demo = guard_inputs(build_demo())
    demo.queue(default_concurrency_limit=QUEUE_CONCURRENCY, max_size=64)
    demo.launch(
        server_name=host,
        server_port=port,
        max_file_size=f"{handlers.MAX_UPLOAD_BYTES // 2**20}mb",
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
    """Start the app with the demo's checked options (cli.add_arguments, cli.check) and serve until Ctrl-C."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request is noise, not news
    try:
        demo = launch(args.port, args.host, args.results, block=False)
    except OSError as error:  # taken between the check and the start: Gradio's "Cannot find empty port ..."
        if "port" not in str(error).lower():
            raise
        raise cli.DemoError(cli.port_in_use(args)) from None
    print(f"The demo is running at {demo.local_url} (Ctrl-C stops it)", flush=True)
    try:
        demo.block_thread()
    except KeyboardInterrupt:
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python space/app.py [--port N] [--host H] [--results DIR]`, as a Hugging Face Space runs it."""
    parser = argparse.ArgumentParser(prog="app.py", description="The SWORDS lexical substitution demo.")
    cli.add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        cli.check(args)
        return serve(args)
    except cli.DemoError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
