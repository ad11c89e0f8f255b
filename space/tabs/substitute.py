"""The Substitute tab: a context and a target (typed, picked from the context's words, or from a benchmark
example), a system, and its ranked substitutes; for a benchmark example, each suggestion's gold judgement and
the example's metrics (the split's shared scorer on that one target)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import gradio as gr
import pandas as pd

from swords_dataset import UNTAGGED_CONFIGS
from swords_dataset.judgements import NOT_IN_BENCHMARK
from swords_space import benchmarks, free_text, offered_systems, render, scoring, systems
from swords_space.errors import SpaceError
from swords_space.events import Progress, messages, no_progress, tracker
from swords_space.inputs import Dropdown, Number, Slider, Textbox
from swords_space.systems import LLMSettings
from swords_space.table_widths import read_only_table
from swords_space.tabs import explore, substitute_llm

SUBSTITUTE_CONCURRENCY = 16  # mostly waiting (on a system's lock, or on an LLM's answer)
EXAMPLE_CONTEXT = (
    "The committee met on Tuesday. She gave a bright answer that surprised everyone in the room. "
    "Afterwards they went home."
)
EXAMPLE_METRICS = ("lenient_a_f@10", "lenient_c_f@10", "strict_a_f@10", "strict_c_f@10", "gap")
# The columns of each table the tab shows (also its headers before the first answer).
SUGGESTION_COLUMNS = ["rank", "substitute", "score", "gold score", "judgement"]
EXAMPLE_METRIC_COLUMNS = ["metric", "value"]

# -- handlers -----------------------------------------------------------------------------------------------


def system_choices() -> tuple[list[str], str | None]:
    """(available systems, the default one)."""
    return offered_systems.available_systems(), offered_systems.default_system()


def word_choices(context: str | None) -> list[tuple[str, str]]:
    return free_text.context_words(context)


def pick_word(value: str | None) -> tuple[str, int]:
    """A word picked from the context's list (free_text.context_words' "2:bank") -> (target, occurrence)."""
    occurrence, _, word = (value or "").partition(":")
    if not word or not occurrence.isdigit():
        raise SpaceError("Pick a word of the context from the list.")
    return word, int(occurrence)


@dataclass
class SubstituteResult:
    row: dict
    system: str
    suggestions: list[dict]  # rank, substitute, score, gold (text), judgement
    total: int  # how many substitutes the system gave (suggestions shows the first top_k)
    example: tuple[str, str] | None = None  # (config, split) when the row is a benchmark example
    metrics: dict | None = None  # the metrics of this one example
    status: str = ""

    def table(self) -> pd.DataFrame:
        return pd.DataFrame(
            [[s["rank"], s["substitute"], round(s["score"], 4), s["gold"], s["judgement"]] for s in self.suggestions],
            columns=SUGGESTION_COLUMNS,
        )

    def html(self) -> str:
        return render.suggestions_html(self.suggestions, with_gold=self.example is not None)

    def context_html(self) -> str:
        return render.context_html(self.row["context"], self.row["offset"], len(self.row["target"]))

    def metrics_table(self) -> pd.DataFrame:
        if not self.metrics:
            return pd.DataFrame(columns=EXAMPLE_METRIC_COLUMNS)
        return pd.DataFrame(
            [[scoring.SWORDS_READER.names[key], round(self.metrics[key], 2)] for key in EXAMPLE_METRICS],
            columns=EXAMPLE_METRIC_COLUMNS,
        )


def _status(name: str, row: dict, shown: int, total: int, example: tuple[str, str] | None, pos_how: str) -> str:
    if not example:
        where = "free text: no gold to compare with"
    else:
        where = f"benchmark example {example[0]} {example[1]} `{row['id']}`: " + (
            "gold judgements shown" if row["substitutes"] else "it has no gold substitutes"
        )
    if total:
        status = f"**{name}**: {shown} of {total} substitutes"
    else:
        status = (
            f"**{name}** found no substitutes (the target's lemma may be unknown to it, or it answers only "
            "benchmark targets)"
        )
    return status + f" for “{escape(row['target'])}” ({row['pos']}, {pos_how}) · {where}."  # typed text: escaped


def substitute(
    context: str | None,
    target: str | None,
    occurrence: float | None = 1,
    pos: str | None = free_text.AUTO_POS,
    system: str | None = None,
    top_k: float | None = 10,
    example: dict | None = None,
    llm: LLMSettings | None = None,
    progress: Progress = no_progress,
) -> SubstituteResult:
    """Ranked substitutes of one system for the chosen target; for a benchmark example, with each
    suggestion's gold judgement and the example's metrics."""
    context = free_text.check_context(context)
    name = system or offered_systems.default_system()
    if name is None:
        raise SpaceError("No substitution system is installed (pip install 'swords-lexsub[baselines]').")
    if name not in offered_systems.available_systems():
        raise SpaceError(f"Unknown or unavailable system {name!r}; choose one of the list.")
    top = int(min(max(top_k or 10, 1), 50))
    progress(0.1, "reading the target")
    row, example_split, pos_how = free_text.resolve_row(context, target, occurrence, pos, example)
    progress(
        0.3, f"asking {name}" + (f" ({offered_systems.LOCAL_LLM_NOTE})" if name == offered_systems.LOCAL_LLM else "")
    )
    prediction = systems.predict(name, row, llm)
    progress(0.9, "comparing with the gold")
    shown = prediction[:top]
    gold = (
        scoring.judge(row, [s for s, _ in shown], *example_split)
        if example_split
        else [("—", NOT_IN_BENCHMARK)] * len(shown)
    )
    suggestions = [
        {"rank": i + 1, "substitute": render.visible(s), "score": score, "gold": g, "judgement": j}
        for i, ((s, score), (g, j)) in enumerate(zip(shown, gold, strict=True))
    ]
    metrics = scoring.example_metrics(row, prediction, *example_split) if example_split and row["substitutes"] else None
    status = _status(name, row, len(shown), len(prediction), example_split, pos_how)
    return SubstituteResult(row, name, suggestions, len(prediction), example_split, metrics, status)


# -- events -------------------------------------------------------------------------------------------------


# gr.Progress() as a default argument is how Gradio hands a handler its progress tracker.
def on_substitute(context, target, occurrence, pos, system, top_k, example, llm, progress=gr.Progress()):  # noqa: B008
    with messages():
        result = substitute(
            context, target, occurrence, pos, system, top_k, example=example, llm=llm, progress=tracker(progress)
        )
    return (
        result.status,
        result.context_html(),
        result.html(),
        result.table(),
        result.metrics_table(),
        gr.Column(visible=result.metrics is not None),  # a benchmark example's metrics; free text has none
        gr.Column(visible=bool(result.suggestions)),
    )  # the table, when there is something in it


def on_context(context):
    return gr.Dropdown(choices=word_choices(context), value=None)


def on_word(value):
    if not value:
        return gr.skip(), gr.skip()
    with messages():
        return pick_word(value)


def on_pick_search(split_label, query):
    with messages():
        choices, message = explore.search_examples(split_label, query, benchmarks.ALL_POS)
    return gr.Dropdown(choices=choices, value=None), message  # nothing chosen: the user's context stays


def on_pick_example(split_label, row_id):
    if not row_id:
        return (gr.skip(),) * 6
    with messages():
        return explore.example_inputs(split_label, row_id)


# -- layout -------------------------------------------------------------------------------------------------


def _pick_example(demo: gr.Blocks, splits: list[str], fill: explore.ExampleTarget) -> None:
    """ "Start from a benchmark example": search a split, pick an example, and it fills the inputs."""
    with gr.Accordion("Start from a benchmark example", open=False):
        with gr.Row():
            split = Dropdown(splits, value="swords test", label="Benchmark")
            query = Textbox(label="Target starts with", placeholder="e.g. bright")
        pick = Dropdown(choices=[], label="Example", elem_id="pick-example", allow_custom_value=True)
        count = gr.Markdown(label="Matches")
    split.change(on_pick_search, [split, query], [pick, count], api_visibility="private")
    query.submit(on_pick_search, [split, query], [pick, count], api_visibility="private")
    pick.change(on_pick_example, [split, pick], fill.outputs(), api_visibility="private")
    demo.load(on_pick_search, [split, query], [pick, count], api_visibility="private")


def build(demo: gr.Blocks, splits: list[str]) -> explore.ExampleTarget:
    """The tab's components (inside its gr.Tab) and events; returns the inputs an example fills."""
    system_names, default_system = system_choices()
    example = gr.State(None)  # the benchmark example the inputs were filled from
    # The status line, first in the results' column; made here, as an example filling the inputs writes it too.
    status = gr.Markdown(label="Status", elem_id="substitute-status", render=False)
    with gr.Row():
        with gr.Column(scale=1):
            context = Textbox(
                value=EXAMPLE_CONTEXT,
                label="Context",
                lines=5,
                max_length=free_text.MAX_CONTEXT_CHARS,
                placeholder="Type or paste a sentence or a few; then choose the word to substitute.",
                info=f"At most {free_text.MAX_CONTEXT_CHARS:,} characters; a longer paste is cut there.",
                elem_id="context",
            )
            with gr.Row():
                target = Textbox(
                    value="bright", label="Target word", elem_id="target", max_length=free_text.MAX_TARGET_CHARS
                )
                occurrence = Number(value=1, label="Occurrence", minimum=1, precision=0, elem_id="occurrence")
                word_pick = Dropdown(
                    choices=word_choices(EXAMPLE_CONTEXT),
                    value=None,
                    elem_id="word-pick",
                    label="…or pick a word of the context",
                    allow_custom_value=True,
                )
            with gr.Row():
                pos = Dropdown(
                    [free_text.AUTO_POS, *benchmarks.POS_TAGS],
                    value=free_text.AUTO_POS,
                    label="Part of speech",
                    elem_id="pos",
                )
                system = Dropdown(system_names, value=default_system, label="System", elem_id="system")
                top_k = Slider(5, 50, value=10, step=1, label="Substitutes shown")
            run = gr.Button("Suggest substitutes", variant="primary", elem_id="run")
            if notes := offered_systems.system_notes():  # out of the form's way: the System column is narrow
                missing = len(offered_systems.unavailable_systems())
                title = f"About the systems ({missing} not available here)" if missing else "About the systems"
                with gr.Accordion(title, open=False, elem_id="systems-note"):
                    gr.HTML("<ul>" + "".join(f"<li>{escape(note)}</li>" for note in notes) + "</ul>")
            fill = explore.ExampleTarget(context, target, occurrence, pos, example, status)
            # Only the benchmarks with POS: the tab judges suggestions by the SWORDS classes, lemmatized by POS
            # (ProLex and TSAR-2022 examples come from the Explore tab as free text, saying why).
            _pick_example(demo, [label for label in splits if label.split(" ")[0] not in UNTAGGED_CONFIGS], fill)
            llm_state = substitute_llm.build()
        with gr.Column(scale=1):
            status.render()
            context_view = gr.HTML(label="Context", elem_id="context-view")
            suggestions = gr.HTML(label="Suggestions", elem_id="suggestions")
            with gr.Column(visible=False, elem_id="example-metrics-block") as metrics_block:
                metrics = read_only_table(
                    label="Example metrics (Scorer on this one target)",
                    headers=EXAMPLE_METRIC_COLUMNS,
                    elem_id="example-metrics",
                )
            with gr.Column(visible=False) as table_block, gr.Accordion("As a table", open=False):
                table = read_only_table(
                    label="Suggestions table",
                    elem_id="suggestions-table",
                    headers=SUGGESTION_COLUMNS,
                )

    inputs = [context, target, occurrence, pos, system, top_k, example, llm_state]
    outputs = [status, context_view, suggestions, table, metrics, metrics_block, table_block]
    # A slow system (an LLM behind a slow URL) holds one of many slots, never everyone's.
    run.click(on_substitute, inputs, outputs, api_name="substitute", concurrency_limit=SUBSTITUTE_CONCURRENCY)
    target.submit(on_substitute, inputs, outputs, api_visibility="private")
    context.change(
        on_context, context, word_pick, api_visibility="private", show_progress="hidden", trigger_mode="always_last"
    )  # while typing, only the latest text matters
    word_pick.change(on_word, word_pick, [target, occurrence], api_visibility="private", show_progress="hidden")
    return fill
