"""How fast a plain `swords evaluate` starts and scores, against importing numpy and pyarrow alone (issue 48).

Run: python benchmarks/bench_start.py [--repeat 9]

The two commands run in turn, A B A B …, each a fresh interpreter, after one untimed run of each (bytecode cached):
A is `swords evaluate --dataset swords --split test --predictions FILE --bootstrap 0` on the CoInCo oracle's file
that ships with the demo (the default summary included); B is `python -c 'import numpy, pyarrow'`. Both write and
read their bytecode in one temporary folder (PYTHONPYCACHEPREFIX), PYTHONDONTWRITEBYTECODE dropped: an environment
that sets it would otherwise compile the project's modules from source in every run of A, and none of B's, whose
bytecode pip wrote when it installed them. Printed: the
medians of wall and CPU seconds (the process's user + system time), the median of the A/B ratios pair by pair
(target: at most 2.0), and the metric's modules A imported (no judging module).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PREDICTIONS = REPO_ROOT / "space" / "results" / "coinco-oracle.swords.test.jsonl"
EVALUATE = ["-m", "swords_lexsub.cli", "evaluate", "--dataset", "swords", "--split", "test"]
EVALUATE += ["--predictions", str(PREDICTIONS), "--bootstrap", "0"]
IMPORTS = ["-c", "import numpy, pyarrow"]
LOADED = (
    "import sys, runpy; sys.argv = ['swords', *sys.argv[1:]];"
    "from swords_lexsub.cli import main; main(sys.argv[1:]);"
    "print(' '.join(sorted(m for m in sys.modules if m.startswith('swords_metric.'))), file=sys.stderr)"
)


def timed(arguments: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh interpreter running `arguments`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, *arguments], check=True, capture_output=True, cwd="/", env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as bytecode:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = bytecode
        timed(EVALUATE, env), timed(IMPORTS, env)  # untimed: bytecode written
        pairs = [(timed(EVALUATE, env), timed(IMPORTS, env)) for _ in range(repeat)]
    for name, index in (("wall", 0), ("cpu", 1)):
        a, b = (statistics.median(run[side][index] for run in pairs) for side in (0, 1))
        ratio = statistics.median(run[0][index] / run[1][index] for run in pairs)
        print(f"{name}: swords evaluate {a:.3f} s, import numpy, pyarrow {b:.3f} s, ratio {ratio:.2f}x")
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *EVALUATE[3:]], capture_output=True, text=True, cwd="/", env=os.environ
    )
    loaded = done.stderr.strip().splitlines()[-1].split()
    judging = [name for name in loaded if name.startswith("swords_metric.judgments")]
    print(f"metric modules imported: {len(loaded)}; judging modules: {len(judging)} {' '.join(judging)}")


if __name__ == "__main__":
    main()
