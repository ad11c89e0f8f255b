"""The progress bars' estimate of the time left (issue 50): none in a bar's first seconds, where a run's first
estimates (29:43, 5:01:46) came from a target or two. A real run's bar is in tests/baselines/test_run_progress.py."""

from __future__ import annotations

import io

from swords_lexsub.progress import Progress


def test_a_bar_that_finished_five_items_in_its_first_seconds_shows_no_estimate():
    text = io.StringIO()
    with Progress(total=40, unit="target", desc="llm", file=text, mininterval=0) as bar:
        for _ in range(20):
            bar.update(1)
    frames = [frame for frame in text.getvalue().split("\r") if "target" in frame]
    assert len(frames) >= 20 and "20/40" in frames[-1]
    assert all("<" not in frame for frame in frames)  # tqdm's estimate is "[elapsed<remaining"
    assert all(frame.rstrip().endswith("target/s]") for frame in frames)  # the rest as tqdm lays it out
