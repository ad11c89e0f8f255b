"""The toolkit's progress bars (a run's targets, a judging's candidates): tqdm's, with the estimated time left shown
only once it means something. The first estimates of a run come from a target or two and a server warming up
(29:43 and 5:01:46 were seen for runs that took minutes): they alarm more than they inform."""

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
