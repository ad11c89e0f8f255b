"""The Substitute tab's "LLM settings": any OpenAI-compatible API with the user's own key, kept in that
session's server-side State only (never logged, stored, or sent back to the browser)."""

from __future__ import annotations

import re

import gradio as gr

from swords_baselines.llm import LLMConfig
from swords_space.errors import SpaceError
from swords_space.events import messages
from swords_space.inputs import Radio, Textbox
from swords_space.systems import LLMSettings

# The form's fields are the llm system's own settings: their labels, help and choices come from its config.
BASE_URL, MODEL, MODE = (LLMConfig.describe(name) for name in ("base_url", "model", "mode"))

SESSION_SECONDS = 4 * 3600  # a session's settings (with its key) are dropped after this, even if the tab stays open
NO_KEY = "No API key set."


def llm_settings(base_url: str | None, model: str | None, mode: str | None, api_key: str | None) -> LLMSettings:
    """Validated LLM settings for a session (the key stays in them, in memory, nowhere else)."""
    base_url, model, api_key = (base_url or "").strip(), (model or "").strip(), (api_key or "").strip()
    if not api_key:
        raise SpaceError("Paste an API key (it is kept only in this session's memory on the server).")
    if len(api_key) > 500 or any(c.isspace() for c in api_key):
        raise SpaceError("That does not look like an API key (no spaces, at most 500 characters).")
    if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", base_url) or len(base_url) > 300:
        raise SpaceError("The base URL must be an http(s) URL, e.g. https://api.openai.com/v1.")
    if not re.fullmatch(r"[\w.:/@+-]{1,100}", model):
        raise SpaceError("Name the model, e.g. gpt-4o-mini (letters, digits and . : / @ + - _).")
    if mode not in MODE["choices"]:
        raise SpaceError(f"The mode is {' or '.join(MODE['choices'])}.")
    return LLMSettings(base_url=base_url.rstrip("/"), model=model, mode=mode, api_key=api_key)


def on_set_llm(base_url, model, mode, api_key):
    with messages():
        settings = llm_settings(base_url, model, mode, api_key)
    # The key leaves the textbox at once: from here on it exists only in this session's State.
    return settings, "", f"An API key is set for this session: **{settings.model}** at `{settings.base_url}`."


def on_clear_llm():
    return None, "", NO_KEY


def build() -> gr.State:
    """The settings' accordion and its events; returns the session's State the Substitute tab reads."""
    state = gr.State(None, time_to_live=SESSION_SECONDS)  # server memory only, never sent to the browser
    with gr.Accordion("LLM settings (optional, your own key)", open=False):
        gr.Markdown(
            "Any OpenAI-compatible API. The key is kept in this session's memory on the server "
            "only: never logged, stored or shown, gone when you close the tab."
        )
        base_url = Textbox(label=BASE_URL["label"], placeholder="https://api.openai.com/v1", elem_id="llm-base-url")
        with gr.Row():
            model = Textbox(value=LLMSettings.model, label=MODEL["label"], elem_id="llm-model")
            mode = Radio(list(MODE["choices"]), value=LLMSettings.mode, label=MODE["label"], info=MODE["help"])
        api_key = Textbox(label="API key", type="password", elem_id="api-key")
        with gr.Row():
            set_key = gr.Button("Use this key")
            clear_key = gr.Button("Forget the key")
        status = gr.Markdown(NO_KEY, elem_id="llm-status")
    set_key.click(on_set_llm, [base_url, model, mode, api_key], [state, api_key, status], api_visibility="private")
    clear_key.click(on_clear_llm, None, [state, api_key, status], api_visibility="private")
    return state
