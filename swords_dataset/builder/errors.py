"""The build's one error: the raw sources contradict what the build assumes of them."""

from __future__ import annotations

from swords_lexsub.errors import SwordsError


class BuildError(SwordsError):
    """The sources contradict an assumption of the build (offsets, ids, splits)."""
