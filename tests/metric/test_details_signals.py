"""`swords evaluate --details` killed mid-write, for real: a `swords evaluate` process on a predictions file large
enough to take seconds to write (SWORDS test, 200 substitutes a target: about 150,000 records), signalled once
its temporary file is growing. SIGTERM: one line, exit 143, no temporary file, the previous details file and its
record as they were. kill -9: the temporary file stays (nothing can clean it then), and the next run removes
it. And a details file edited while such a run reads its predictions is kept, not replaced."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

import swords_dataset
from swords_metric.details.formats import EXTENSIONS as DETAILS_EXTENSIONS

from ..baselines.run_helpers import SWORDS, swords
from ..conftest import REPO_ROOT

TERMINATED = "swords: terminated (SIGTERM); finished work is kept"


@pytest.fixture(scope="module")
def large_predictions(tmp_path_factory) -> Path:
    rows = swords_dataset.rows("swords", "test")
    words = sorted({s["substitute"] for row in rows for s in row["substitutes"]})
    rng = random.Random(23)
    path = tmp_path_factory.mktemp("large") / "large.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps({"id": row["id"], "substitutes": rng.sample(words, 200)}) + "\n")
    return path


def temporaries(folder: Path) -> list[Path]:
    return [path for path in folder.iterdir() if path.name.endswith(".tmp")]


def start_writing(predictions: Path, details: Path) -> subprocess.Popen:
    """`swords evaluate --details` under way: returns once its temporary file holds 64 kB."""
    process = subprocess.Popen(
        [
            *SWORDS,
            "evaluate",
            "--predictions",
            str(predictions),
            "--details",
            str(details),
            "--bootstrap",
            "0",
            "--no-analysis",
        ],
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        growing = [path for path in temporaries(details.parent) if path.stat().st_size > 65536]
        if growing:
            return process
        time.sleep(0.02)
    process.kill()
    pytest.fail(f"no temporary file grew beside {details} (the process ended: {process.poll()})")


@pytest.mark.parametrize("suffix", DETAILS_EXTENSIONS)
@pytest.mark.slow  # 7 s on two cores
def test_sigterm_mid_write_is_one_line_and_leaves_the_previous_file(tmp_path, large_predictions, suffix):
    details = tmp_path / f"details{suffix}"
    small = tmp_path / "small.jsonl"
    small.write_text("".join(large_predictions.read_text().splitlines(keepends=True)[:5]))
    done = swords(
        "evaluate", "--predictions", str(small), "--details", str(details), "--bootstrap", "0", "--no-analysis"
    )
    assert done.returncode == 0, done.stderr
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}  # the details file and its record
    process = start_writing(large_predictions, details)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 143, stderr
    assert stderr.strip().splitlines() == [TERMINATED], stderr
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before
    assert temporaries(tmp_path) == []


@pytest.mark.parametrize("suffix", DETAILS_EXTENSIONS)
@pytest.mark.slow  # 6 s on two cores
def test_kill_9_mid_write_leaves_a_temporary_file_that_the_next_run_removes(tmp_path, large_predictions, suffix):
    details = tmp_path / f"details{suffix}"
    process = start_writing(large_predictions, details)
    process.kill()
    process.wait(60)
    (left,) = temporaries(tmp_path)
    assert left.name.startswith(f".details{suffix}.swords-") and not details.exists()
    small = tmp_path / "small.jsonl"
    small.write_text("".join(large_predictions.read_text().splitlines(keepends=True)[:5]))
    done = swords(
        "evaluate", "--predictions", str(small), "--details", str(details), "--bootstrap", "0", "--no-analysis"
    )
    assert done.returncode == 0, done.stderr
    assert temporaries(tmp_path) == [] and details.is_file()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        [details.name, f".details{suffix}.swords-record.json", "small.jsonl"]
    )


@pytest.mark.slow  # 9 s on two cores
def test_a_details_file_edited_while_the_predictions_are_read_is_kept(tmp_path, large_predictions):
    """Checked before any work and again just before the new file goes into place: an edit made in between
    is not lost."""
    details = tmp_path / "details.jsonl"
    small = tmp_path / "small.jsonl"
    small.write_text("".join(large_predictions.read_text().splitlines(keepends=True)[:5]))
    done = swords(
        "evaluate", "--predictions", str(small), "--details", str(details), "--bootstrap", "0", "--no-analysis"
    )
    assert done.returncode == 0, done.stderr
    process = start_writing(large_predictions, details)
    with open(details, "a", encoding="utf-8") as f:
        f.write('{"kind": "note", "text": "mine"}\n')
    edited = details.read_bytes()
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 2 and stderr.strip().splitlines() == [
        f"swords: error: --details {details}: changed since swords evaluate wrote it (edited, appended to or "
        "re-written): it is left as it is (--force replaces it)"
    ], stderr
    assert details.read_bytes() == edited and temporaries(tmp_path) == []
