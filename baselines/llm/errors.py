"""What can go wrong with a request to an LLM server, by what it means for the run."""

from __future__ import annotations

from swords_lexsub.errors import SwordsError


class FatalAPIError(SwordsError):
    """An error no retry or other target can fix (bad key, unknown model or URL): the run stops."""


class ServerDown(FatalAPIError):
    """The circuit breaker tripped: the server keeps failing, so nothing more is sent to it."""


class TargetFailed(Exception):
    """One request failed for good (after its retries, or rejected: `status` is the HTTP status)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class BadOutput(Exception):
    """A 2xx response that is not a completion (not JSON, no choices, no text); an empty text is one."""


class UnknownTokenizer(SwordsError):
    """No tokenizer is known for the model and its server offers none: the prompt budget cannot be counted."""


class ServerUnreachable(SwordsError):
    """A server that does not answer at all (refused, timed out): asking it another way will not help."""
