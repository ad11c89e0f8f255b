"""Confidence intervals are the same bits on every CPU. OpenBLAS picks its kernels by CPU (AVX-512, AVX2, SSE), and
its matrix products differ between them in the last bits; the resampled sums are numpy's own pairwise sums, so the
intervals of SWORDS and TSAR-2022 are the same under this machine's kernel and under the oldest one."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from ..conftest import REPO_ROOT

SCRIPT = """
import json, swords_dataset
from swords_metric.evaluation import evaluate
rows = swords_dataset.rows("tsar2022_en", "test")
run = {row["id"]: [s["substitute"] for s in row["substitutes"]][::-1][:10] for row in rows}
oracle = "space/results/coinco-oracle.swords.test.jsonl"
print(json.dumps([
    evaluate(run, dataset="tsar2022_en", split="test", bootstrap=300, seed=3).result["confidence_intervals"],
    evaluate(oracle, dataset="swords", split="test", bootstrap=300, seed=3).result["confidence_intervals"],
]))
"""


def intervals(core: str | None) -> list[dict]:
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_CORETYPE"}
    if core is not None:
        env["OPENBLAS_CORETYPE"] = core  # the kernels OpenBLAS would pick on that CPU
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_the_intervals_are_the_same_bits_whatever_kernel_openblas_picks():
    here, oldest = intervals(None), intervals("Prescott")
    assert here == oldest
    # Both families drew their intervals (the TSAR-2022 run ranks every gold substitute: acc@1 is 1 in every draw).
    assert here[0]["acc@1"] == [1.0, 1.0] and {"gap", "lenient_a_f@10", "strict_c_f@10"} <= set(here[1])
