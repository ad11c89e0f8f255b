"""The toolkit's user-facing error: the CLI prints its message as one line instead of a traceback."""

from __future__ import annotations


class SwordsError(ValueError):
    """A mistake in input, data or environment that the user can fix; the message names the item. `hint` is advice in
    the command line's words: the CLI adds it; other front ends (the Space) give advice in their own words."""

    def __init__(self, message: str = "", hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint

    def for_cli(self) -> str:
        return f"{self} ({self.hint})" if self.hint else str(self)
