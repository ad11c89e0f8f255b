"""The one exception the UI shows as a message (never a traceback)."""

from __future__ import annotations


class SpaceError(Exception):
    """Bad input or a failure the user can act on; str(error) is the message for the UI."""
