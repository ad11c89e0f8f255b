"""Reading back a metrics file of `swords run` (swords_baselines.run.metrics_file) from a folder holding anything: the
shipped runs read as they are; a FIFO, /dev/zero behind a symlink, a folder, a huge file, NaN, JSON nested 100,000
deep, a header without a benchmark split are each one phrase saying why, at once (nothing blocks or is read whole)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from swords_baselines.run.files import output_paths
from swords_baselines.run.metrics_file import MAX_METRICS_BYTES, UnusableMetrics, read_metrics_file
from swords_lexsub.errors import SwordsError

RESULTS = Path(__file__).resolve().parents[2] / "space" / "results"
GOOD = RESULTS / "coinco-oracle.swords.test.metrics.json"


def test_the_shipped_runs_are_read_with_their_headers():
    paths = sorted(RESULTS.glob("*.metrics.json"))
    assert len(paths) >= 4
    for path in paths:
        metrics = read_metrics_file(path)
        assert metrics == json.loads(path.read_text(encoding="utf-8"))
        assert {"system", "dataset", "split"} <= set(metrics["run"])
    predictions = RESULTS / "coinco-oracle.swords.test.jsonl"
    assert output_paths(predictions)["metrics"] == GOOD  # the runner's naming finds it beside its predictions


def rewritten(tmp_path: Path, **run) -> Path:
    metrics = json.loads(GOOD.read_text(encoding="utf-8"))
    metrics["run"] |= run
    path = tmp_path / "run.metrics.json"
    path.write_text(json.dumps(metrics), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda tmp: (tmp / "a.metrics.json").mkdir() or tmp / "a.metrics.json", "a folder, not a metrics file"),
        (lambda tmp: os.mkfifo(tmp / "p.metrics.json") or tmp / "p.metrics.json", "not a regular file"),
        (lambda tmp: (tmp / "z.metrics.json").symlink_to("/dev/zero") or tmp / "z.metrics.json", "not a regular"),
        (lambda tmp: tmp / "missing.metrics.json", "cannot be read"),
        (
            lambda tmp: (
                (tmp / "big.metrics.json").write_bytes(b" " * (MAX_METRICS_BYTES + 1)) and tmp / "big.metrics.json"
            ),
            "1,048,577 bytes, over the 1,048,576",
        ),
        (lambda tmp: (tmp / "n.json").write_text('{"gap": NaN}') and tmp / "n.json", "NaN is not a number"),
        (lambda tmp: (tmp / "d.json").write_text("[" * 100_000) and tmp / "d.json", "JSON nested too deeply|not stand"),
        (lambda tmp: (tmp / "l.json").write_text("[1, 2]") and tmp / "l.json", "not a JSON object"),
        (lambda tmp: (tmp / "h.json").write_text('{"run": "oops"}') and tmp / "h.json", "no run header"),
        (lambda tmp: rewritten(tmp, system=""), 'its run header has no "system" name'),
        (
            lambda tmp: rewritten(tmp, split="t" * 5_000),
            'its run header\'s "split" name is 5,000 characters long, over the 200 one may have',
        ),
        (lambda tmp: rewritten(tmp, split="tset"), "its run is on 'swords' 'tset', not a benchmark split here"),
    ],
)
def test_anything_else_is_one_phrase_at_once(tmp_path, make, why):
    path = make(tmp_path)
    started = time.perf_counter()
    with pytest.raises(UnusableMetrics, match=why) as caught:
        read_metrics_file(path)
    assert time.perf_counter() - started < 1 and "\n" not in str(caught.value)
    assert isinstance(caught.value, SwordsError)  # the CLI and the Space show it as a line


def test_a_system_named_in_thousands_of_characters_is_still_the_run_s_name(tmp_path):
    """A 5,000-character system name was "no system name" (issue 47): the run is read, its name whole (the Space's
    tabs show it cut)."""
    assert read_metrics_file(rewritten(tmp_path, system="s" * 5_000))["run"]["system"] == "s" * 5_000
