"""`swords evaluate` against the upstream SWORDS library's whole evaluation, as processes, on the same file.

Run: python benchmarks/bench_evaluate.py [--repeat 5]

Both score one system with 50 substitutes a target on SWORDS v1.1 test (the reference substitutes shuffled
and padded with other targets' substitutes), from a cold start: a fresh interpreter each time, as a user
runs them. Ours: `swords evaluate --predictions FILE --json`, by default (with 1,000 bootstrap resamples for
the 95% intervals and the per-POS breakdown) and with `--bootstrap 0`. Upstream: `upstream_eval.py` from the
shared data folder (its own `evaluate()`: NLTK lemmatization, merging, thresholds, GAP, and best/oot through
the Perl scorer), with nltk 3.5 on PYTHONPATH ($SWORDS_NLTK35_PATH). Medians of --repeat runs, the ratio,
and a check that every metric upstream prints equals ours. Target: at least 10x, aiming for 15x.

Both run with their bytecode cached (in a temporary PYTHONPYCACHEPREFIX, written by one untimed run of each),
as after `pip install`, which compiles it: a shell with PYTHONDONTWRITEBYTECODE set would otherwise have both
recompile every module of theirs on every run, which no installed copy does.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

import swords_dataset  # noqa: E402
from swords_dataset.builder.sources import NLTK35_ENV, default_sources_dir  # noqa: E402

PERL_KEYS = {f"{task}_{part}" for task in ("best", "oot") for part in ("p", "r", "mode_p", "mode_r")}


def system_file(folder: Path) -> Path:
    rows = swords_dataset.rows("swords", "test")
    rng = random.Random(0)
    words = [s["substitute"] for row in rows for s in row["substitutes"]]
    predictions = {}
    for row in rows:
        own = [s["substitute"] for s in row["substitutes"]]
        rng.shuffle(own)
        predictions[row["id"]] = [[w, -i] for i, w in enumerate((own + rng.sample(words, 50))[:50])]
    path = folder / "system50.lsr.json"
    path.write_text(json.dumps({"substitutes_lemmatized": False, "substitutes": predictions}))
    return path


def timed(command: list[str], env: dict) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPO_ROOT)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{command[1:3]} failed: {done.stderr[-500:]}")
    return seconds, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    shared = default_sources_dir()
    upstream_eval = shared / "upstream-swords" / "upstream_eval.py"
    nltk35 = os.environ.get(NLTK35_ENV)
    if not upstream_eval.is_file() or not nltk35:
        raise SystemExit(f"needs {upstream_eval} and nltk 3.5 in ${NLTK35_ENV}")
    with tempfile.TemporaryDirectory() as folder:
        path = system_file(Path(folder))
        ours_default = [sys.executable, "-m", "swords_lexsub.cli", "evaluate", "--predictions", str(path), "--json"]
        ours_plain = [*ours_default, "--bootstrap", "0"]
        upstream = [sys.executable, str(upstream_eval), str(shared / "swords" / "swords-v1.1_test.json.gz"), str(path)]
        cached = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        cached["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "bytecode")
        runs = (
            ("default", ours_default, cached),
            ("plain", ours_plain, cached),
            ("upstream", upstream, {**cached, "PYTHONPATH": nltk35}),
        )
        for _name, command, env in runs:
            timed(command, env)  # writes the bytecode
        times: dict[str, list[float]] = {"default": [], "plain": [], "upstream": []}
        outputs = {}
        for _ in range(args.repeat):
            for name, command, env in runs:
                seconds, outputs[name] = timed(command, env)
                times[name].append(seconds)
    ours, theirs = json.loads(outputs["plain"]), json.loads(outputs["upstream"][outputs["upstream"].index("{") :])
    worst = max(abs(ours[key] - value) for key, value in theirs.items() if key not in PERL_KEYS)
    perl = max(abs(ours[key] - value) for key, value in theirs.items() if key in PERL_KEYS)
    median = {name: statistics.median(values) for name, values in times.items()}
    print(f"SWORDS test, 762 targets x 50 substitutes, {args.repeat} cold runs each, medians ({os.cpu_count()} cores):")
    print(f"  upstream_eval.py (upstream's evaluate, nltk 3.5, Perl): {median['upstream']:.2f} s")
    print(
        f"  swords evaluate --bootstrap 0:                         {median['plain']:.2f} s  "
        f"({median['upstream'] / median['plain']:.1f}x faster)"
    )
    print(
        f"  swords evaluate (1,000 resamples, per-POS breakdown):   {median['default']:.2f} s  "
        f"({median['upstream'] / median['default']:.1f}x faster)"
    )
    print(
        f"  same numbers: {len(theirs)} keys, largest difference {worst:.1e} (floats), {perl:.3f} (the Perl "
        "scorer's two-decimal keys)"
    )


if __name__ == "__main__":
    main()
