"""`swords run`'s progress bar as a user sees it on stderr (issue 50): its estimate of the time left appears only once
five targets are done and ten seconds have gone, never in the first seconds (where 29:43 and 5:01:46 were shown for
runs that took minutes). A real OpenAI-compatible server on 127.0.0.1 takes 1.5 s a target, one at a time."""

from __future__ import annotations

import re

import pytest

from ..llm_server import LLMServer
from .run_helpers import llm_args, swords

FRAME = re.compile(r"^llm:\s+\d+%\|.*\| (\d+)/\d+ \[(\d\d):(\d\d)(<\d\d:\d\d)?")


@pytest.mark.slow  # 20 s on two cores
def test_the_bar_shows_an_estimate_only_once_it_means_something(tmp_path, key):
    with LLMServer(slots=1, latency=1.5) as server:
        args = [arg for arg in llm_args(server.base_url, tmp_path / "out.jsonl", limit=9) if arg != "--no-progress"]
        done = swords(*args, env=key)
    assert done.returncode == 0, done.stderr[-2000:]
    frames = [FRAME.match(frame) for frame in re.split(r"[\r\n]", done.stderr)]
    frames = [(int(f.group(1)), 60 * int(f.group(2)) + int(f.group(3)), f.group(4)) for f in frames if f]
    assert frames and frames[-1][0] == 9, done.stderr[-2000:]
    early = [frame for frame in frames if frame[0] < 5 or frame[1] < 10]
    late = [frame for frame in frames if frame[0] >= 5 and frame[1] >= 10]
    assert early and late, frames  # 9 targets at 1.5 s: the fifth in about 7.5 s, the last in about 13.5 s
    assert all(eta is None for _, _, eta in early), early
    assert all(eta is not None for _, _, eta in late), late
