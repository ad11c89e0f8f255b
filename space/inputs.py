"""Input components that answer bad API input in the UI's words, not Gradio's (Python type names, "the app raised
an exception" with a traceback, an echo of any size). Each component made here registers a check of its raw value by
component id (Gradio replaces a session's copy of a component whose choices changed, and its classes cannot be
subclassed without a .pyi stub); `guard_inputs` runs them before Gradio reads the inputs."""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path

import gradio as gr

from swords_space.errors import shown

log = logging.getLogger("swords_space")

Check = Callable[[object], object]  # raw payload -> the payload to hand on, or raises gr.Error
_checks: dict[int, Check] = {}  # component id -> its check


def refuse(message: str) -> gr.Error:
    """A message for the user (no traceback in the log), a lone surrogate written as its escape."""
    return gr.Error(_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", message), print_exception=False)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _numeric(component):
    label, minimum, maximum, default = component.label, component.minimum, component.maximum, component.value

    def check(payload):
        if payload is None:  # not given: the component's default, as in the browser
            return default
        if isinstance(payload, bool) or not isinstance(payload, int | float):
            raise refuse(f"{label} must be a number, not {shown(payload)}.")
        if not math.isfinite(payload):
            raise refuse(f"{label} must be a finite number, not {shown(payload)}.")
        if minimum is not None and payload < minimum:
            raise refuse(f"{label} must be at least {minimum:g}, not {shown(payload)}.")
        if maximum is not None and payload > maximum:
            raise refuse(f"{label} must be at most {maximum:g}, not {shown(payload)}.")
        return payload

    return check


def _choice(component):
    """One choice among strings (Dropdown, Radio); with allow_custom_value, any text."""
    if getattr(component, "allow_custom_value", False):
        return _typed(component)
    label, values = component.label, {value for _, value in component.choices}

    def check(payload):
        if payload is not None and (not isinstance(payload, str) or payload not in values):
            raise refuse(f"{label}: {shown(payload)} is not one of the choices.")
        return payload

    return check


def _typed(component, kind: type = str, words: str = "text"):
    """A value of one type (text, checked for lone surrogates too; true or false), or none."""
    label = component.label

    def check(payload):
        if payload is not None and not isinstance(payload, kind):
            raise refuse(f"{label} must be {words}, not {shown(payload)}.")
        found = _SURROGATE.search(payload) if isinstance(payload, str) else None
        if found:  # text from the API may hold a lone surrogate (JSON's "\\ud800"), which is not a character
            raise refuse(
                f"{label} holds \\u{ord(found.group()):04x} at character {found.start() + 1:,}, a lone "
                "surrogate, which is not text."
            )
        return payload

    return check


def _file(component, what: str):
    from gradio_client.utils import is_valid_file

    types = list(component.file_types or [])
    several = component.file_count == "multiple"

    def check(payload):
        if payload is None:
            return None
        if several:  # a list of files, each checked as one
            if not isinstance(payload, list):
                raise refuse(f"{what} must be a list of uploaded files, not {shown(payload)}.")
            return [one(item) for item in payload]
        return one(payload)

    def one(payload):
        meta = payload.get("meta") if isinstance(payload, dict) else None
        path = payload.get("path") if isinstance(payload, dict) else None
        if not isinstance(meta, dict) or meta.get("_type") != "gradio.FileData" or not isinstance(path, str):
            raise refuse(f"{what} must be an uploaded file, not {shown(payload)}.")
        if "://" in path:  # Gradio would fetch it: the server downloads nothing on a sender's behalf
            raise refuse(f"{what} must be uploaded to this app, not a URL.")
        if types and not is_valid_file(path, types):  # the name Gradio will check, in our words
            raise refuse(f"{what} must be a {', '.join(types)} file, not {shown(Path(path).name)}.")
        return payload

    return check


def _checked(component, check: Check):
    _checks[component._id] = check
    return component


def _stand_in(cls: type, check: Callable) -> Callable:
    def make(*args, **kwargs):
        component = cls(*args, **kwargs)
        return _checked(component, check(component))

    return make


# Stand-ins for the component classes, used exactly like them in the tabs' layouts (tabs/*.py).
Number: Callable[..., gr.Number] = _stand_in(gr.Number, _numeric)
Slider: Callable[..., gr.Slider] = _stand_in(gr.Slider, _numeric)
Dropdown: Callable[..., gr.Dropdown] = _stand_in(gr.Dropdown, _choice)
Radio: Callable[..., gr.Radio] = _stand_in(gr.Radio, _choice)
Textbox: Callable[..., gr.Textbox] = _stand_in(gr.Textbox, _typed)
Checkbox: Callable[..., gr.Checkbox] = _stand_in(gr.Checkbox, partial(_typed, kind=bool, words="true or false"))


def File(*args, what: str = "The file", **kwargs) -> gr.File:  # noqa: N802
    """`what` names the file in messages (a label may be long)."""
    component = gr.File(*args, **kwargs)
    return _checked(component, _file(component, what))


# The upstream format, JSONL, gzipped or not; TSAR-2022's and ProLex's official formats.
PREDICTION_FILE_TYPES = [".json", ".jsonl", ".gz", ".txt", ".tsv", ".csv"]


def PredictionsFile(what: str, label: str, elem_id: str) -> gr.File:  # noqa: N802
    """An upload of a predictions file (the Score tab's, and the one it compares with)."""
    return File(what=what, label=label, file_types=PREDICTION_FILE_TYPES, type="filepath", elem_id=elem_id)


def guard_inputs(demo: gr.Blocks) -> gr.Blocks:
    """Run the registered checks on every event's raw inputs before Gradio reads them; what still fails while it
    reads them (a path not uploaded here) is a message and one log line, not a traceback."""
    original = demo.preprocess_data

    async def preprocess_data(block_fn, inputs, state, explicit_call=False):
        inputs = list(inputs)
        for i, block in enumerate(block_fn.inputs):
            if (check := _checks.get(block._id)) is not None and i < len(inputs) and not block.stateful:
                inputs[i] = check(inputs[i])
        try:
            return await original(block_fn, inputs, state, explicit_call)
        except gr.Error:
            raise
        except Exception as error:  # noqa: BLE001 (a failure to read input is the sender's)
            log.warning(
                "%s: unreadable input: %s",
                block_fn.api_name or block_fn.name,
                shown(f"{type(error).__name__}: {error}", 300),
            )
            if isinstance(error, gr.exceptions.InvalidPathError):
                then = "press Start" if (block_fn.api_name or "").startswith("judge") else "score it"  # the tab's step
                raise refuse(f"That file was not uploaded to this app: upload it, then {then}.") from None
            raise refuse("An input could not be read: send the values the API page lists.") from None

    demo.preprocess_data = preprocess_data
    return demo
