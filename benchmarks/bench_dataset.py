"""Speed of the datasets: cold and warm `load_dataset` of every config, and the build.

Run: python benchmarks/bench_dataset.py [--sources DIR] [--repeat N]   (the build needs $SWORDS_NLTK35_PATH)
Targets on a 2-core machine: every config cold in under 5 s, the build in under 30 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

LOAD_ALL = """
import time, sys
t0 = time.perf_counter()
from datasets import load_dataset
import swords_dataset
t1 = time.perf_counter()
for config, splits in swords_dataset.CONFIGS.items():
    for split in splits:
        load_dataset("swords_dataset", config, split=split, cache_dir=sys.argv[1])
t2 = time.perf_counter()
print(f"{t1 - t0:.3f} {t2 - t1:.3f}")
"""


def load_all(cache_dir: str) -> tuple[float, float]:
    """(import seconds, load seconds) in a fresh interpreter, as a user's first call would see them."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", LOAD_ALL, cache_dir], cwd=REPO_ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sources", default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    cold, warm, imports = [], [], []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as cache:
            imp, seconds = load_all(cache)
            cold.append(seconds)
            imports.append(imp)
            warm.append(load_all(cache)[1])
    print(f"import datasets + swords_dataset: {statistics.median(imports):.2f} s (median of {args.repeat})")
    print(f"all 8 splits, cold cache:          {statistics.median(cold):.2f} s (median of {args.repeat}; target < 5 s)")
    print(f"all 8 splits, warm cache:          {statistics.median(warm):.2f} s (median of {args.repeat})")

    from swords_dataset.builder.pipeline import build
    from swords_dataset.builder.sources import NLTK35_ENV, default_sources_dir

    sources = Path(args.sources) if args.sources else default_sources_dir()
    times = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as out:
            started = time.perf_counter()
            build(sources, Path(out), os.environ.get(NLTK35_ENV))
            times.append(time.perf_counter() - started)
    print(
        f"swords data build (all configs):   {statistics.median(times):.2f} s (median of {args.repeat}; target < 30 s)"
    )


if __name__ == "__main__":
    main()
