"""What every tab's event functions share: a handler's SpaceError becomes a message in the UI (never a
traceback), and Gradio's progress tracker becomes the handlers' plain `progress(fraction, message)`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import gradio as gr

from swords_space.errors import SpaceError
from swords_space.inputs import refuse

Progress = Callable[[float, str], None]  # what a handler reports its progress to


def no_progress(fraction: float, message: str) -> None:
    pass


def tracker(progress: gr.Progress) -> Progress:
    return lambda fraction, message: progress(fraction, desc=message)


@contextmanager
def messages() -> Iterator[None]:
    """Inside: a SpaceError is shown to the user as a message."""
    try:
        yield
    except SpaceError as error:
        raise refuse(str(error)) from None
