"""Peak memory and time of `swords evaluate` on large predictions files, and of refusing hostile ones.

Run: python benchmarks/bench_predictions_memory.py [--before-python PY --before-dir DIR] [--folder DIR]
                                                    [--skip-largest] [--skip-details] [--only before|after]

A 'before' checkout, e.g. the commit before the streaming reader (its console scripts' packages linked in, so
that they import from it):
    git archive f1d4639 | tar -x -C /tmp/before
    ln -s baselines /tmp/before/swords_baselines && ln -s space /tmp/before/swords_space

The inputs are generated in a temporary folder (or --folder, where they are kept and reused):
  - a 239 MB JSONL file for CoInCo dev: its 10,179 targets, each with up to 1,170 real words drawn from the
    candidate pools of its part of speech (its own substitutes among them), as [substitute, score] pairs with
    three-decimal scores (short items: the most items a megabyte can hold, the costliest case to read);
  - the same predictions in the upstream SWORDS result format (one JSON object on one line, upstream ids);
  - the largest file the metric accepts: a JSONL file just under the size limit, same targets, more words;
  - two gzip bombs (~1 MB each) that expand past the limit: a 1.1 GB string inside a target, and 1.1 GB of
    whitespace between targets (valid JSON all the way to the limit);
  - a file one byte over the limit (sparse), refused before it is read.

Each figure is one `swords evaluate --dataset coinco --split dev --predictions FILE --json` process with
every option at its default (1,000 bootstrap resamples, per-POS breakdown; for the details figures also
`--details FILE.jsonl` or `FILE.parquet`: a record per substitute, 11.9 million for the 239 MB file, streamed
to the file as each target is read): its wall time and its whole
peak resident memory (the kernel's maximum RSS of that child, from wait4). With --before-python and
--before-dir, the same commands run again from another checkout (e.g. `git archive` of the commit before the
streaming reader, with that environment's python) for a before/after table; the largest file is not run
there (it would need ~20 GB). Targets: 239 MB JSONL and upstream format under 1.2 GB peak; the largest
accepted file under 3 GB; bombs and oversize files refused in bounded memory, oversize before reading.
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
import zlib
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

import swords_dataset  # noqa: E402
from swords_metric import MAX_PREDICTIONS_BYTES  # noqa: E402

TARGET_MB = 239
WORDS_PER_TARGET = 1170  # gives ~239 MB for CoInCo dev's 10,179 targets


def _lines(rows: list[dict], pools: dict[str, list[str]], words: int, seed: int, key: str):
    """(target id, [[substitute, score], ...]) per row: the row's own substitutes among `words` pool words."""
    rng = random.Random(seed)
    for row in rows:
        own = [s["substitute"] for s in row["substitutes"]]
        chosen = list(dict.fromkeys(own + rng.sample(pools[row["pos"]], min(words, len(pools[row["pos"]])))))
        rng.shuffle(chosen)
        yield row[key], [[word, round(rng.random(), 3)] for word in chosen[:words]]


def build_inputs(folder: Path) -> dict[str, Path]:
    rows = swords_dataset.rows("coinco", "dev", columns=["id", "upstream_id", "pos", "substitutes", "candidates"])
    pools: dict[str, set[str]] = {}
    for row in rows:
        pools.setdefault(row["pos"], set()).update(row["candidates"])
        pools[row["pos"]].update(s["substitute"] for s in row["substitutes"])
    ordered = {pos: sorted(words) for pos, words in pools.items()}
    paths = {
        name: folder / name
        for name in (
            "coinco-dev.jsonl",
            "coinco-dev.upstream.json",
            "largest.jsonl",
            "bomb-string.json.gz",
            "bomb-whitespace.json.gz",
            "oversize.jsonl",
        )
    }
    if not paths["coinco-dev.jsonl"].exists():
        with open(paths["coinco-dev.jsonl"], "w", encoding="utf-8") as f:
            for target_id, pairs in _lines(rows, ordered, WORDS_PER_TARGET, 0, "id"):
                f.write(json.dumps({"id": target_id, "substitutes": pairs}) + "\n")
    if not paths["coinco-dev.upstream.json"].exists():
        with open(paths["coinco-dev.upstream.json"], "w", encoding="utf-8") as f:
            f.write('{"substitutes_lemmatized": false, "substitutes": {')
            for i, (target_id, pairs) in enumerate(_lines(rows, ordered, WORDS_PER_TARGET, 0, "upstream_id")):
                f.write(("" if i == 0 else ", ") + json.dumps(target_id) + ": " + json.dumps(pairs))
            f.write("}}")
    if not paths["largest.jsonl"].exists():
        # Scale the words per target so that the file ends just under the limit.
        per_word = paths["coinco-dev.jsonl"].stat().st_size / (len(rows) * WORDS_PER_TARGET)
        words = int(MAX_PREDICTIONS_BYTES * 0.985 / (len(rows) * per_word))
        with open(paths["largest.jsonl"], "w", encoding="utf-8") as f:
            for target_id, pairs in _lines(rows, ordered, words, 1, "id"):
                f.write(json.dumps({"id": target_id, "substitutes": pairs}) + "\n")
        if paths["largest.jsonl"].stat().st_size > MAX_PREDICTIONS_BYTES:
            raise SystemExit("the largest file came out over the limit; lower its scale")
    expansion = MAX_PREDICTIONS_BYTES + 64 * 2**20
    if not paths["bomb-string.json.gz"].exists():
        _gzip_bomb(
            paths["bomb-string.json.gz"], f'{{"substitutes": {{"{rows[0]["upstream_id"]}": ["', b"a", expansion, '"]}}'
        )
    if not paths["bomb-whitespace.json.gz"].exists():
        _gzip_bomb(
            paths["bomb-whitespace.json.gz"],
            f'{{"substitutes": {{"{rows[0]["upstream_id"]}": ["word"],',
            b" ",
            expansion,
            "}}",
        )
    if not paths["oversize.jsonl"].exists():
        with open(paths["oversize.jsonl"], "wb") as f:
            f.write(json.dumps({"id": rows[0]["id"], "substitutes": ["word"]}).encode() + b"\n")
            f.truncate(MAX_PREDICTIONS_BYTES + 1)
    return paths


def _gzip_bomb(path: Path, head: str, filler: bytes, size: int, tail: str) -> None:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip container
    block = filler * (16 * 2**20)
    with open(path, "wb") as f:
        f.write(compressor.compress(head.encode()))
        for _ in range(size // len(block) + 1):
            f.write(compressor.compress(block))
        f.write(compressor.compress(tail.encode()) + compressor.flush())


# The measuring parent: a bare interpreter (python -S) that starts the command and reports its rusage. The
# kernel's maximum RSS of a child includes the memory of the process it was forked from, so the command is
# not started from this script (hundreds of MB after generating the inputs) but from this small launcher.
LAUNCHER = """
import json, os, subprocess, sys, time
started = time.perf_counter()
with open(os.devnull, "wb") as out:
    process = subprocess.Popen(sys.argv[1:], stdout=out, stderr=subprocess.PIPE)
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
lines = err.decode("utf-8", "replace").strip().splitlines()
print(json.dumps([time.perf_counter() - started, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status),
                  lines[-1] if lines else ""]))
"""


def measure(python: str, cwd: Path, path: Path, extra: tuple[str, ...] = ()) -> tuple[float, float, int, str]:
    """(seconds, peak RSS in MB, exit code, last stderr line) of one `swords evaluate` process."""
    command = [
        python,
        "-m",
        "swords_lexsub.cli",
        "evaluate",
        "--dataset",
        "coinco",
        "--split",
        "dev",
        "--predictions",
        str(path),
        "--json",
        *extra,
    ]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-S", "-c", LAUNCHER, *command], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    seconds, peak, code, message = json.loads(done.stdout)
    return seconds, peak, code, message


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before-python", help="python of the 'before' environment")
    parser.add_argument("--before-dir", type=Path, help="checkout to run the 'before' commands from")
    parser.add_argument("--folder", type=Path, help="keep (and reuse) the generated inputs here")
    parser.add_argument("--skip-largest", action="store_true", help="leave out the file just under the limit")
    parser.add_argument("--skip-details", action="store_true", help="leave out the runs that write --details")
    parser.add_argument("--only", choices=("before", "after"), help="run one side only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.folder or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        paths = build_inputs(folder)
        print(
            f"inputs ready in {time.perf_counter() - started:.0f} s, in {folder} "
            f"(size limit {MAX_PREDICTIONS_BYTES / 2**20:,.0f} MB)"
        )
        details = {suffix: ("--details", str(folder / f"details{suffix}")) for suffix in (".jsonl", ".parquet")}
        cases = [
            ("239 MB JSONL", "coinco-dev.jsonl", ()),
            ("same, upstream format", "coinco-dev.upstream.json", ()),
            ("239 MB JSONL, --details .jsonl", "coinco-dev.jsonl", details[".jsonl"]),
            ("239 MB JSONL, --details .parquet", "coinco-dev.jsonl", details[".parquet"]),
            ("largest accepted (JSONL)", "largest.jsonl", ()),
            ("gzip bomb, one huge string", "bomb-string.json.gz", ()),
            ("gzip bomb, valid whitespace", "bomb-whitespace.json.gz", ()),
            ("over the limit", "oversize.jsonl", ()),
        ]
        if args.skip_largest:
            cases = [case for case in cases if case[1] != "largest.jsonl"]
        if args.skip_details:
            cases = [case for case in cases if not case[2]]
        runs = [("after", sys.executable, REPO_ROOT)]
        if args.before_python and args.before_dir:
            runs.insert(0, ("before", args.before_python, args.before_dir))
        runs = [run for run in runs if args.only in (None, run[0])]
        print(f"{'input':28} {'size':>10}  {'run':6} {'seconds':>8} {'peak MB':>8}  exit  message")
        for label, name, extra in cases:
            path = paths[name]
            size = path.stat().st_size
            for run_name, python, cwd in runs:
                if run_name == "before" and (name == "largest.jsonl" or extra):
                    why = "would need ~20 GB" if name == "largest.jsonl" else "no --details before"
                    print(f"{label:28} {size / 2**20:8.1f}MB  {run_name:6} {f'not run ({why})':>30}")
                    continue
                seconds, peak, code, message = measure(python, cwd, path, extra)
                if extra:
                    written = Path(extra[1])
                    message = f"{written.name}: {written.stat().st_size / 2**20:,.0f} MB"
                    written.unlink()
                shown = message if code or extra else "scored"
                print(
                    f"{label:28} {size / 2**20:8.1f}MB  {run_name:6} {seconds:8.1f} {peak:8.0f}  {code:4}  "
                    f"{shown[:110]}",
                    flush=True,
                )
        if args.folder is None:
            print("(generated inputs removed)")


if __name__ == "__main__":
    main()
