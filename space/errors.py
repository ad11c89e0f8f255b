"""The one exception the UI shows as a message (never a traceback), and how a message quotes a user's value."""

from __future__ import annotations

SHOWN_CHARS = 40  # a user's value is quoted at most this long: a message never echoes megabytes back


class SpaceError(Exception):
    """Bad input or a failure the user can act on; str(error) is the message for the UI."""


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """A user's value, quoted and cut short."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
