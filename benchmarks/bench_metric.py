"""Speed and memory of swords_metric on SWORDS v1.1 test, next to the official scorers in the same run.

Run: python benchmarks/bench_metric.py [--repeat N]

Each timing runs in a fresh interpreter, so the lemmatizer's caches start cold. The system scored has 50
substitutes per target (reference substitutes shuffled, padded with other targets' substitutes).
Targets on a 2-core machine: core (prepared references -> scores) under 0.3 s, evaluate.load + compute under
1.5 s, memory under 500 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

SETUP = """
import json, random, sys, time, resource
import pyarrow.parquet as pq
import swords_dataset
rows = pq.read_table(swords_dataset.DATASET_DIR / swords_dataset.parquet_path("swords", "test")).to_pylist()
n = int(sys.argv[1])
if n != len(rows):  # more targets: copies of the test set under new ids
    rows = [dict(rows[i % len(rows)], id=f"{rows[i % len(rows)]['id']}#{i}") for i in range(n)]
rng = random.Random(0)
words = [s["substitute"] for row in rows[:762] for s in row["substitutes"]]
predictions = {}
for row in rows:
    own = [s["substitute"] for s in row["substitutes"]]
    rng.shuffle(own)
    predictions[row["id"]] = [[w, -i] for i, w in enumerate((own + rng.sample(words, 50))[:50])]
"""

CORE = (
    SETUP
    + """
from swords_metric import Scorer  # importing the package is a one-off, not part of scoring
t0 = time.perf_counter()
scorer = Scorer(rows, split="test")
t1 = time.perf_counter()
result = scorer.score(predictions, by_pos=False)
t2 = time.perf_counter()
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
f10 = result["lenient_a_f@10"]
print(json.dumps({"prepare": t1 - t0, "score": t2 - t1, "total": t2 - t0, "rss_mb": rss, "f": f10}))
"""
)

# The shipped prepared references (what `swords evaluate` and Scorer.from_dataset read): no lemmatizing of the
# references at all, so "prepare" is reading one gzipped JSON file.
PREPARED = (
    SETUP
    + """
t_import = time.perf_counter()
from swords_metric import Scorer
import sys as _sys
heavy = sorted(m for m in ("datasets", "torch", "transformers", "evaluate") if m in _sys.modules)
t0 = time.perf_counter()
scorer = Scorer.from_dataset("swords", "test")
t1 = time.perf_counter()
result = scorer.score(predictions, by_pos=False)
t2 = time.perf_counter()
scorer.score(predictions, by_pos=False)  # again: what each further scoring in a training loop costs
t3 = time.perf_counter()
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"prepare": t1 - t0, "score": t2 - t1, "total": t2 - t0, "import": t0 - t_import,
                  "again": t3 - t2, "rss_mb": rss, "f": result["lenient_a_f@10"], "heavy": heavy}))
"""
)

EVALUATE = (
    SETUP
    + """
preds = [[w for w, _ in predictions[row["id"]]] for row in rows]
# `import evaluate` is timed apart: with transformers installed it imports transformers and torch itself
# (its evaluator module), seconds that no metric module can avoid.
ti = time.perf_counter()
import evaluate
import swords_metric
t0 = time.perf_counter()
metric = swords_metric.load()
result = metric.compute(predictions=preds, references=rows)
t1 = time.perf_counter()
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"total": t1 - t0, "import": t0 - ti, "rss_mb": rss, "f": result["lenient_a_f@10"]}))
"""
)

# The official scorers on the same system: Melamud's GAP and the Perl best/oot scorer, fed the files the
# upstream SWORDS scorer writes. They get our preprocessed references and predictions (their own
# preprocessing, NLTK lemmatization, is not counted), so the ratio understates our advantage.
OFFICIAL = (
    SETUP
    + """
import importlib.util, subprocess, tempfile, os
from swords_metric import Scorer
from swords_metric.predictions.items import normalize_prediction_items
from swords_metric.predictions.lemmatized import prepare_prediction
from swords_dataset.builder.sources import default_sources_dir
scorer = Scorer(rows)
refs = scorer.references
preds = [  # each prediction as the metrics read it before any cut-off
    None if items is None or ref is None else prepare_prediction(normalize_prediction_items(items), ref)
    for items, ref in zip(scorer.index.align(predictions, "predictions").items, refs)
]
scorers = default_sources_dir() / "reference-scorers"
spec = importlib.util.spec_from_file_location("gap", scorers / "generalized_average_precision.py")
gap = importlib.util.module_from_spec(spec); spec.loader.exec_module(gap)
t0 = time.perf_counter()
calc = gap.GeneralizedAveragePrecision.calc
values = [calc(list(zip(ref.lemmas, ref.positives)), pred) for ref, pred in zip(refs, preds)]
with tempfile.TemporaryDirectory() as d:
    gold = os.path.join(d, "gold"); system = os.path.join(d, "system")
    with open(gold, "w") as f:
        for ref in refs:
            entries = sorted([(l, n) for l, n in zip(ref.lemmas, ref.positives) if n > 0], key=lambda e: -e[1])
            f.write(f"dummylemma.n {ref.id} :: " + ";".join(f"{l} {n}" for l, n in entries) + ";\\n")
    for mode, sep in (("best", "::"), ("oot", ":::")):
        with open(system, "w") as f:
            for ref, pred in zip(refs, preds):
                f.write(f"dummylemma.n {ref.id} {sep} " + ";".join(l for l, _ in pred) + ";\\n")
        subprocess.run(["perl", str(scorers / "semeval07_score.pl"), system, gold, "-t", mode], check=True,
                       capture_output=True)
t1 = time.perf_counter()
print(json.dumps({"total": t1 - t0}))
"""
)


def run(code: str, n: int) -> dict:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    with tempfile.TemporaryDirectory() as modules:
        env["HF_MODULES_CACHE"] = modules
        out = subprocess.run(
            [sys.executable, "-c", code, str(n)], cwd=REPO_ROOT, env=env, capture_output=True, text=True, check=True
        ).stdout
    return json.loads(out.strip().splitlines()[-1])


def median_of(code: str, n: int, repeat: int, key: str = "total") -> tuple[float, dict]:
    runs = [run(code, n) for _ in range(repeat)]
    return statistics.median(r[key] for r in runs), runs[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    prepared, last = median_of(PREPARED, 762, args.repeat)
    print(
        f"core from the shipped prepared references (Scorer.from_dataset + score), SWORDS test, 762 targets x "
        f"50 substitutes, cold: {prepared:.3f} s (read {last['prepare']:.3f} + score {last['score']:.3f}; "
        f"scoring again in the same process {last['again']:.3f} s); "
        f"peak RSS {last['rss_mb']:.0f} MB; target < 0.3 s. `import swords_metric` {last['import']:.2f} s, "
        f"imported none of datasets/torch/transformers/evaluate: {not last['heavy']} {last['heavy'] or ''}"
    )
    core, last = median_of(CORE, 762, args.repeat)
    print(
        f"core from dataset rows (references lemmatized on the spot), cold: {core:.3f} s "
        f"(prepare {last['prepare']:.3f} + score {last['score']:.3f}); peak RSS {last['rss_mb']:.0f} MB"
    )
    via_evaluate, last = median_of(EVALUATE, 762, args.repeat)
    print(
        f"evaluate.load + compute, cold:                            {via_evaluate:.3f} s; "
        f"peak RSS {last['rss_mb']:.0f} MB; target < 1.5 s (import evaluate before it: {last['import']:.2f} s)"
    )
    try:
        official, _ = median_of(OFFICIAL, 762, args.repeat)
        print(
            f"official GAP (Python) + Perl best and oot, same system:    {official:.3f} s on already "
            f"lemmatized input (ours, lemmatizing everything and computing every metric: {core:.3f} s)"
        )
    except (subprocess.CalledProcessError, FileNotFoundError) as error:
        print(f"official scorers not run: {error}")
    print("growth (core, cold, one run each):")
    for n in (100, 1000, 762 * 4, 10000):
        result = run(CORE, n)
        print(
            f"  {n:>6} targets: {result['total']:.3f} s, {result['total'] / n * 1e3:.3f} ms/target, "
            f"peak RSS {result['rss_mb']:.0f} MB"
        )


if __name__ == "__main__":
    main()
