"""The two runs over a result file for the upstream parity tests: upstream's `upstream_eval.py` (from the shared
folder, never copied here), alone or many result files of a dataset in one process (upstream_batch.py), and our
`swords evaluate`.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..conftest import run_swords
from .upstream_systems import UPSTREAM_EVAL

UPSTREAM_BATCH = Path(__file__).with_name("upstream_batch.py")
# For local reruns: reuse upstream's outputs for identical inputs (CI leaves it unset and runs everything).
CACHE_ENV = "SWORDS_UPSTREAM_EVAL_CACHE"


@dataclass
class Outcome:
    upstream: dict
    ours: dict
    notes: str
    result_file: Path


@dataclass
class UpstreamBatch:
    """One dataset's upstream outputs, from one upstream_batch.py process (or the cache)."""

    outputs: dict[Path, dict]
    first: str | None = None  # what upstream printed for the first result file, evaluated fresh
    rerun: str | None = None  # ... and for the same file, evaluated again after all the others
    left_behind: tuple[str, ...] = ()  # what the process left in its own temporary folder


def _upstream_env(nltk35: Path, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(nltk35),
        "PYTHONHASHSEED": "0",
        "PERL_HASH_SEED": "0",
        "PERL_PERTURB_KEYS": "0",
        **extra,
    }


def _cached(dataset: Path, result: Path) -> Path | None:
    """Where upstream's output for these inputs is kept, when the cache is on."""
    cache = os.environ.get(CACHE_ENV)
    if not cache:
        return None
    key = hashlib.sha256(dataset.read_bytes() + result.read_bytes() + UPSTREAM_EVAL.read_bytes()).hexdigest()
    return Path(cache) / f"{key}.json"


def _keep(place: Path | None, output: dict) -> None:
    if place is not None:
        place.parent.mkdir(parents=True, exist_ok=True)
        place.write_text(json.dumps(output))


def _printed(stdout: str) -> dict:
    return json.loads(stdout[stdout.index("{") :])


def _upstream_eval(dataset: Path, result: Path, nltk35: Path) -> dict:
    """Upstream's evaluation of one result file, in a process of its own."""
    place = _cached(dataset, result)
    if place is not None and place.is_file():
        return json.loads(place.read_text())
    done = subprocess.run(
        [sys.executable, str(UPSTREAM_EVAL), str(dataset), str(result)],
        capture_output=True,
        text=True,
        timeout=1200,
        env=_upstream_env(nltk35),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    output = _printed(done.stdout)
    _keep(place, output)
    return output


def upstream_batch(dataset: Path, results: list[Path], nltk35: Path) -> UpstreamBatch:
    """Upstream's evaluation of every result file of one dataset, in one process (upstream_batch.py). Files the
    cache holds are not evaluated again."""
    places = {result: _cached(dataset, result) for result in results}
    outputs = {r: json.loads(place.read_text()) for r, place in places.items() if place and place.is_file()}
    todo = [result for result in results if result not in outputs]
    if not todo:
        return UpstreamBatch(outputs)
    # The process's temporary files go in a folder of its own, to see what it leaves. Not under pytest's folder:
    # the Perl scorer refuses a gold file whose path holds "-t" or "-v" (as "upstream-tmp-coinco0" does).
    temp = tempfile.mkdtemp(prefix="swords_upstream_batch_")
    try:
        done = subprocess.run(
            [sys.executable, str(UPSTREAM_BATCH), str(UPSTREAM_EVAL), str(dataset), *map(str, todo)],
            capture_output=True,
            text=True,
            timeout=1200 + 120 * len(todo),
            env=_upstream_env(nltk35, TMPDIR=temp),
        )
        left_behind = tuple(sorted(os.listdir(temp)))
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    printed = {Path(line["result"]): line["output"] for line in lines if not line["rerun"]}
    reruns = [line["output"] for line in lines if line["rerun"]]
    assert list(printed) == todo and len(reruns) == 1, done.stdout[-3000:]
    for result in todo:
        outputs[result] = _printed(printed[result])
        _keep(places[result], outputs[result])
    return UpstreamBatch(outputs, printed[todo[0]], reruns[0], left_behind)


def _ours(config: str, result: Path) -> tuple[dict, str]:
    done = run_swords(
        "evaluate", "--dataset", config, "--split", "test", "--predictions", str(result), "--bootstrap", "0", "--json"
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr
