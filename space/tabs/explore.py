"""The Explore tab: search a benchmark split by target and POS, see an example's context and its gold coloured by the
metric's classes, and hand it to the Substitute tab, whose "Start from a benchmark example" uses the same search."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import gradio as gr

from swords_dataset import LANGUAGES, UNTAGGED_CONFIGS
from swords_space import benchmarks, free_text, render, render_family, scoring
from swords_space.errors import SpaceError, shown
from swords_space.events import messages
from swords_space.inputs import Dropdown, Textbox, refuse

# -- handlers -----------------------------------------------------------------------------------------------


def search_examples(
    split_label: str | None, query: str | None = "", pos: str | None = benchmarks.ALL_POS, limit: int = 200
) -> tuple[list[tuple[str, str]], str]:
    """Dropdown choices (label, id) of the matching examples, and a line saying how many matched."""
    config, split = benchmarks.choose_split(split_label)
    query = (query or "")[: free_text.MAX_TARGET_CHARS]
    untagged = config in UNTAGGED_CONFIGS and pos not in (None, "", benchmarks.ALL_POS)
    if untagged:  # ProLex and TSAR-2022 give no POS: filtering by one would find nothing, and say nothing why
        pos = benchmarks.ALL_POS
    rows, total = benchmarks.search(config, split, query, pos or benchmarks.ALL_POS, limit)
    choices = [(benchmarks.example_label(row), row["id"]) for row in rows]
    more = f", showing the first {len(rows)}." if total > len(rows) else (", all shown." if total else ".")
    if query.strip():
        what = f"{'target' if total == 1 else 'targets'} starting with “{escape(query.strip())}”"
    else:
        what = "example" if total == 1 else "examples"
    where = f"{config} {split}" + (f" ({pos})" if pos not in (None, "", benchmarks.ALL_POS) else "")
    note = f" {config} gives no part of speech: every POS is shown." if untagged else ""
    return choices, f"{total:,} {what} in {where}{more}{note}"


def _example(split_label: str | None, row_id: str | None) -> tuple[str, str, dict]:
    config, split = benchmarks.choose_split(split_label)
    row = benchmarks.get_row(config, split, row_id) if isinstance(row_id, str) and len(row_id) <= 100 else None
    if row is None:
        raise SpaceError(f"No example {shown(row_id)} in {config} {split}.")
    return config, split, row


def show_example(split_label: str | None, row_id: str | None) -> tuple[str, str, str]:
    """(header, context with the target marked, substitutes with score bars) as HTML."""
    config, split, row = _example(split_label, row_id)
    context = render.context_html(row["context"], row["offset"], len(row["target"]))
    if config in UNTAGGED_CONFIGS:  # no POS to judge by: its own judgements, shown as it gives them, no SWORDS classes
        return render_family.example_header(config, split, row), context, render_family.substitutes_html(row)
    gold = render.substitutes_html(row, scoring.gold_labels(row, config, split))
    return render.example_header(config, split, row), context, gold


def example_inputs(split_label: str | None, row_id: str | None) -> tuple[str, str, int, str, dict | None, str]:
    """What an example fills in the Substitute tab (ExampleTarget's outputs): its inputs and the status line saying
    what to press next (ready_line). A ProLex or TSAR-2022 example comes as free text (the tab's SWORDS classes do
    not score them: free_text_note)."""
    config, split, row = _example(split_label, row_id)
    offsets = free_text.occurrences(row["context"], row["target"])
    occurrence = offsets.index(row["offset"]) + 1 if row["offset"] in offsets else 1
    pos, key = row["pos"], {"config": config, "split": split, "id": row["id"]}
    if config in UNTAGGED_CONFIGS:  # free text, no example key: nothing of it is judged by SWORDS's classes
        pos, key = free_text.AUTO_POS, None
    return row["context"], row["target"], occurrence, pos, key, ready_line(row["target"])


def ready_line(target: str) -> str:
    """The Substitute tab's status once an example fills its inputs: what to press next (nothing runs by itself: the
    chosen system may be an LLM on the user's own key, and a model may take a minute on a busy machine)."""
    return f"**{render.markdown_text(target)}** is filled in: press **Suggest substitutes** to see its substitutes."


def free_text_note(split_label: str | None) -> str | None:
    """Why an example of this benchmark reaches the Substitute tab as free text (None: it does not)."""
    config, _ = benchmarks.choose_split(split_label)
    if config not in UNTAGGED_CONFIGS:
        return None
    english = " The systems here are English; an LLM may answer in its language." if config in LANGUAGES else ""
    return (
        f"{config} is scored with its own official metrics (the Score tab), not the SWORDS classes the Substitute "
        f"tab judges by: the example is filled in as free text, its suggestions not judged.{english}"
    )


# -- events -------------------------------------------------------------------------------------------------


def on_search(split_label, query, pos):
    with messages():
        choices, message = search_examples(split_label, query, pos)
    return gr.Dropdown(choices=choices, value=choices[0][1] if choices else None), message


def on_show(split_label, row_id):
    if not row_id:
        return "", "", ""
    with messages():
        return show_example(split_label, row_id)


def on_use_example(split_label, row_id):
    if not row_id:
        raise refuse("Choose an example first.")
    with messages():
        filled = example_inputs(split_label, row_id)
        note = free_text_note(split_label)
    if note:
        gr.Info(note)
    return *filled, gr.Tabs(selected="substitute")


# -- layout -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExampleTarget:
    """The Substitute tab's components an example fills: context, target, occurrence, POS, example key, and its
    status line, which says what to press next (ready_line)."""

    context: gr.Textbox
    target: gr.Textbox
    occurrence: gr.Number
    pos: gr.Dropdown
    example: gr.State
    status: gr.Markdown

    def outputs(self) -> list:
        return [self.context, self.target, self.occurrence, self.pos, self.example, self.status]


def build(demo: gr.Blocks, splits: list[str], fill: ExampleTarget, tabs: gr.Tabs) -> None:
    """The tab's components (inside its gr.Tab) and events; "Try it" fills `fill` and switches `tabs`."""
    with gr.Row():
        split = Dropdown(splits, value="swords test", label="Benchmark", elem_id="explore-split")
        query = Textbox(label="Target starts with", elem_id="explore-query")
        pos = Dropdown([benchmarks.ALL_POS, *benchmarks.POS_TAGS], value=benchmarks.ALL_POS, label="Part of speech")
        search = gr.Button("Search")
    count = gr.Markdown(label="Matches")
    with gr.Row(equal_height=True):
        pick = Dropdown(choices=[], label="Example", elem_id="explore-pick", allow_custom_value=True, scale=4)
        use_example = gr.Button("Try it in the Substitute tab", scale=1)
    header = gr.HTML(label="Example", elem_id="explore-header")
    context = gr.HTML(label="Context", elem_id="explore-context")
    substitutes = gr.HTML(label="Gold substitutes", elem_id="explore-substitutes")

    inputs, outputs = [split, query, pos], [pick, count]
    search.click(on_search, inputs, outputs, api_name="search_examples")
    query.submit(on_search, inputs, outputs, api_visibility="private")
    split.change(on_search, inputs, outputs, api_visibility="private")
    pos.change(on_search, inputs, outputs, api_visibility="private")
    pick.change(on_show, [split, pick], [header, context, substitutes], api_name="show_example")
    use_example.click(on_use_example, [split, pick], [*fill.outputs(), tabs], api_visibility="private")
    demo.load(on_search, inputs, outputs, api_visibility="private")
