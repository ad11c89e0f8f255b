"""The toolkit's progress bars: tqdm's, the estimated time left shown only once it means something (a run's first
estimates, from a target or two and a server warming up, were 29:43 and 5:01:46 for runs of minutes)."""

from __future__ import annotations

from typing import Any

from tqdm import tqdm

# The estimate is shown once both hold: this many items done in this bar, and this many seconds gone.
ETA_AFTER_ITEMS = 5
ETA_AFTER_SECONDS = 10.0
# tqdm's own layout ("{l_bar}{bar}{r_bar}") without the "<remaining" of its right part.
WITHOUT_ETA = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}, {rate_fmt}{postfix}]"


class Progress(tqdm):
    """tqdm, its estimate hidden until both ETA_AFTER_ITEMS (resumed ones not counted) and ETA_AFTER_SECONDS."""

    @property
    def format_dict(self) -> dict[str, Any]:
        figures = super().format_dict
        enough_done = figures["n"] - figures.get("initial", 0) >= ETA_AFTER_ITEMS
        if figures.get("bar_format") is None and not (enough_done and figures["elapsed"] >= ETA_AFTER_SECONDS):
            figures["bar_format"] = WITHOUT_ETA
        return figures
