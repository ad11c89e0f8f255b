"""The toolkit's user-facing error: the CLI prints its message as one line instead of a traceback."""


class SwordsError(ValueError):
    """A mistake in input, data or environment that the user can fix; the message names the item."""
