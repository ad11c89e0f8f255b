"""The metric's one error, and how a value a user gave is shown in its message."""

from __future__ import annotations

import reprlib

from swords_lexsub.terminal import shown as terminal_text


class MetricInputError(ValueError):
    """Predictions or references the metric cannot score; the message names the target. The message is one line
    as a terminal shows it: control characters, lone surrogates and bidirectional controls that a file name or
    an id brought in are escaped (swords_lexsub.terminal.shown)."""

    def __init__(self, message: object = "", *args: object) -> None:
        super().__init__(terminal_text(message), *args)


def shown(value: object, limit: int = 60) -> str:
    """repr(value) cut to `limit` characters, for messages (a file may hold a substitute of megabytes)."""
    try:
        text = repr(value)
    except RecursionError:  # nested too deep for repr (a list 100,000 deep): shown to six levels
        text = reprlib.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
