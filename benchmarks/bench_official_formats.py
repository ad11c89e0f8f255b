"""Peak memory and time of `swords evaluate` on large files in TSAR-2022's and ProLex's official formats (.tsv, .csv),
and on one target with 100,000 answers (TSAR's scoring was quadratic in a target's answers).

Run: python benchmarks/bench_official_formats.py [--folder DIR] [--skip-largest] [--before-python PY --before-dir DIR]

The inputs are generated in a temporary folder (or --folder, where they are kept and reused):
  - a 63 MB TSV for tsar2022_en test: its 373 lines, each its gold substitutes then 1,500 made-up answers of about
    110 characters (twelve words each: few enough that the quadratic reading a 'before' checkout may have ends);
  - a 60 MB CSV for prolex test: its 680 rows, each cell its acceptable substitutes then ~8,000 made-up words
    (88 kB, under the 131,072 characters csv allows a cell);
  - the largest TSV accepted: the same lines, longer, just under the 1,024 MB limit (--skip-largest leaves it out);
  - a 1 MB JSONL for tsar2022_en test: one target, 100,000 answers.
Each figure is one `swords evaluate --dataset D --split test --predictions FILE --json` process (measured as
bench_predictions_memory.py measures: wall time and the kernel's maximum RSS of that child). With --before-python and
--before-dir, the same commands run from another checkout too (e.g. `git archive` of the commit before streaming).
Targets: every file scored in under 400 MB (what the dataset rows and the toolkit take: about the same as a small
file), the 100,000 answers in seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from bench_predictions_memory import LAUNCHER  # noqa: E402

import swords_dataset  # noqa: E402
from swords_metric import MAX_PREDICTIONS_BYTES  # noqa: E402


def _words(rng: random.Random, count: int) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(5, 12))) for _ in range(count)]


def _phrases(rng: random.Random, pool: list[str], count: int) -> list[str]:
    """Answers of about 110 characters (twelve words): few enough a line that the quadratic reading of a target's
    answers the 'before' checkout had still ends, so that its memory can be measured."""
    return [" ".join(rng.choices(pool, k=12)) for _ in range(count)]


def build_inputs(folder: Path, largest: bool) -> dict[str, Path]:
    rng = random.Random(0)
    tsar = swords_dataset.rows("tsar2022_en", "test")
    prolex = swords_dataset.rows("prolex", "test")
    paths = {
        name: folder / name
        for name in (
            "tsar-63mb.tsv",
            "prolex-60mb.csv",
            "tsar-largest.tsv",
            "tsar-one-target-100k.jsonl",
            "tsar-small.tsv",
        )
    }
    if not paths["tsar-small.tsv"].exists():
        with open(paths["tsar-small.tsv"], "w", encoding="utf-8") as f:
            for row in tsar:
                gold = [s["substitute"] for s in row["substitutes"]]
                f.write("\t".join([row["context"], row["target"], *gold]) + "\n")
    pool = _words(rng, 20_000)
    if not paths["tsar-63mb.tsv"].exists():
        with open(paths["tsar-63mb.tsv"], "w", encoding="utf-8") as f:
            for row in tsar:
                given = [s["substitute"] for s in row["substitutes"]] + _phrases(rng, pool, 1_500)
                f.write("\t".join([row["context"], row["target"], *given]) + "\n")
    if not paths["prolex-60mb.csv"].exists():
        import csv

        with open(paths["prolex-60mb.csv"], "w", encoding="utf-8", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["target word", "Sentence", "Substitutes"])
            for row in prolex:
                given = [s["substitute"] for s in row["substitutes"] if "acceptable" in s["labels"]]
                writer.writerow([row["target"], row["context"], ", ".join(given + rng.choices(pool, k=8_000))[:88_000]])
    if largest and not paths["tsar-largest.tsv"].exists():
        per_line = (MAX_PREDICTIONS_BYTES - 2**20) // len(tsar)
        filler = "\t".join(_phrases(rng, pool, 5_000))
        with open(paths["tsar-largest.tsv"], "w", encoding="utf-8") as f:
            for row in tsar:
                head = "\t".join([row["context"], row["target"], *(s["substitute"] for s in row["substitutes"])])
                body = (filler * (per_line // len(filler) + 1))[: per_line - len(head) - 2]
                f.write(f"{head}\t{body.strip()}\n")
    if not paths["tsar-one-target-100k.jsonl"].exists():
        with open(paths["tsar-one-target-100k.jsonl"], "w", encoding="utf-8") as f:
            f.write(json.dumps({"id": tsar[0]["id"], "substitutes": [f"w{i}" for i in range(100_000)]}) + "\n")
    return paths


def measure(python: str, cwd: Path, dataset: str, path: Path) -> tuple[float, float, int, str]:
    """(seconds, peak RSS in MB, exit code, last stderr line) of one `swords evaluate` process."""
    command = [
        python,
        "-m",
        "swords_lexsub.cli",
        "evaluate",
        "--dataset",
        dataset,
        "--split",
        "test",
        "--predictions",
        str(path),
        "--json",
    ]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-S", "-c", LAUNCHER, *command], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    seconds, peak, code, message = json.loads(done.stdout)
    return seconds, peak, code, message


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, help="keep (and reuse) the generated inputs here")
    parser.add_argument("--skip-largest", action="store_true", help="leave out the TSV just under the limit")
    parser.add_argument("--before-python", help="python of the 'before' environment")
    parser.add_argument("--before-dir", type=Path, help="checkout to run the 'before' commands from")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.folder or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        paths = build_inputs(folder, not args.skip_largest)
        print(f"inputs ready in {time.perf_counter() - started:.0f} s, in {folder}")
        cases = [
            ("small TSV (the gold)", "tsar2022_en", "tsar-small.tsv"),
            ("63 MB TSV", "tsar2022_en", "tsar-63mb.tsv"),
            ("60 MB CSV", "prolex", "prolex-60mb.csv"),
            ("largest TSV accepted", "tsar2022_en", "tsar-largest.tsv"),
            ("1 target, 100,000 answers", "tsar2022_en", "tsar-one-target-100k.jsonl"),
        ]
        if args.skip_largest:
            cases = [case for case in cases if case[2] != "tsar-largest.tsv"]
        runs = [("after", sys.executable, REPO_ROOT)]
        if args.before_python and args.before_dir:
            runs.insert(0, ("before", args.before_python, args.before_dir))
        print(f"{'input':28} {'size':>10}  {'run':6} {'seconds':>8} {'peak MB':>8}  exit  message")
        for label, dataset, name in cases:
            size = paths[name].stat().st_size
            for run_name, python, cwd in runs:
                seconds, peak, code, message = measure(python, cwd, dataset, paths[name])
                print(
                    f"{label:28} {size / 2**20:8.1f}MB  {run_name:6} {seconds:8.1f} {peak:8.0f}  {code:4}  "
                    f"{(message if code else 'scored')[:110]}",
                    flush=True,
                )
        if args.folder is None:
            print("(generated inputs removed)")


if __name__ == "__main__":
    main()
