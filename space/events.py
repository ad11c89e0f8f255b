"""The event functions of the app: unpack the UI's values, call a handler, pack its result (tables, HTML,
component updates). A handler's SpaceError becomes a message in the UI, never a traceback."""

from __future__ import annotations

import gradio as gr

from . import data, handlers, memory
from .errors import SpaceError
from .inputs import refuse


def _progress(progress: gr.Progress):
    return lambda fraction, message: progress(fraction, desc=message)


def _fail(error: Exception) -> gr.Error:
    return refuse(str(error))


# gr.Progress() as a default argument is how Gradio hands a handler its progress tracker.
def on_substitute(context, target, occurrence, pos, system, top_k, example, llm, progress=gr.Progress()):  # noqa: B008
    try:
        result = handlers.substitute(
            context, target, occurrence, pos, system, top_k, example=example, llm=llm, progress=_progress(progress)
        )
    except SpaceError as error:
        raise _fail(error) from None
    return result.status, result.context_html(), result.html(), result.table(), result.metrics_table()


def on_context(context):
    return gr.Dropdown(choices=handlers.word_choices(context), value=None)


def on_word(value):
    if not value:
        return gr.skip(), gr.skip()
    try:
        word, occurrence = handlers.pick_word(value)
    except SpaceError as error:
        raise _fail(error) from None
    return word, occurrence


def on_search(split_label, query, pos):
    try:
        choices, message = handlers.search_examples(split_label, query, pos)
    except SpaceError as error:
        raise _fail(error) from None
    return gr.Dropdown(choices=choices, value=choices[0][1] if choices else None), message


def on_pick_search(split_label, query):
    try:
        choices, message = handlers.search_examples(split_label, query, data.ALL_POS)
    except SpaceError as error:
        raise _fail(error) from None
    return gr.Dropdown(choices=choices, value=None), message  # nothing chosen: the user's context stays


def on_show(split_label, row_id):
    if not row_id:
        return "", "", ""
    try:
        return handlers.show_example(split_label, row_id)
    except SpaceError as error:
        raise _fail(error) from None


def on_use_example(split_label, row_id):
    if not row_id:
        raise refuse("Choose an example first.")
    try:
        context, target, occurrence, pos, key = handlers.example_inputs(split_label, row_id)
    except SpaceError as error:
        raise _fail(error) from None
    return context, target, occurrence, pos, key, gr.Tabs(selected="substitute")


def on_pick_example(split_label, row_id):
    if not row_id:
        return gr.skip(), gr.skip(), gr.skip(), gr.skip(), gr.skip()
    try:
        return handlers.example_inputs(split_label, row_id)
    except SpaceError as error:
        raise _fail(error) from None


def on_set_llm(base_url, model, mode, api_key):
    try:
        settings = handlers.llm_settings(base_url, model, mode, api_key)
    except SpaceError as error:
        raise _fail(error) from None
    # The key leaves the textbox at once: from here on it exists only in this session's State.
    return settings, "", f"An API key is set for this session: **{settings.model}** at `{settings.base_url}`."


def on_clear_llm():
    return None, "", "No API key set."


def on_score(upload=None, stored=None, split_label="swords test", setting="generative", bootstrap=1000,
             curve_setting="lenient", include_problematic=False, progress=gr.Progress()):  # noqa: B008
    try:
        result = handlers.score_predictions(
            upload, stored, split_label, setting, bootstrap, progress=_progress(progress),
            include_problematic=bool(include_problematic),
        )
    except SpaceError as error:
        raise _fail(error) from None
    finally:  # a large file's parsed predictions are garbage now: give their memory back
        memory.release()
    return (
        result.summary(),
        result.metrics_table(),
        result.by_pos_table(),
        result.curve_for(curve_setting or "lenient"),
        result.published_table(),
        result.result["signature"],
        result.curve,
    )


def on_curve_setting(curve, setting):
    if curve is None or len(curve) == 0:
        return gr.skip()
    return curve[curve["setting"] == setting].reset_index(drop=True)


def on_stored(name):
    if not name:
        return gr.skip(), gr.skip()
    try:
        split_label = handlers.stored_split(name)
    except SpaceError as error:
        raise _fail(error) from None
    return None, (split_label or gr.skip())


def on_leaderboard():
    table, note = handlers.leaderboard()
    return table, note
