"""Throughput of the `llm` system against a local OpenAI-compatible server with simulated API latency.

Run: python benchmarks/bench_llm.py [--latency 0.2] [--targets 320] [--sequential 25]

Three figures, all on SWORDS v1.1 test through the real `openai` client (loopback only):
  - targets/s with 32 requests in flight (target: >= 20/s at 200 ms per request),
  - targets/s with one request at a time, the sequential loop (about 5/s at 200 ms),
  - a rerun of all 762 test targets served from the cache (target: < 5 s), both the system alone and the
    whole `swords run` command in a fresh interpreter.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))  # for tests/llm_server.py

import swords_dataset  # noqa: E402
from swords_baselines.llm import LLM  # noqa: E402
from tests.llm_server import LLMServer  # noqa: E402

KEY_ENV = "SWORDS_BENCH_LLM_KEY"


def make(server: LLMServer, cache_dir: str, concurrency: int) -> LLM:
    system = LLM(
        model="davinci", base_url=server.base_url, api_key_env=KEY_ENV, cache_dir=cache_dir, concurrency=concurrency
    )
    system.start()
    return system


def timed_predict(system: LLM, rows: list[dict]) -> float:
    started = time.perf_counter()
    answers = dict(system.predict(rows))
    elapsed = time.perf_counter() - started
    system.close()
    assert len(answers) == len(rows)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2, help="seconds the server takes per request")
    parser.add_argument("--targets", type=int, default=320, help="targets for the concurrent figure")
    parser.add_argument("--sequential", type=int, default=25, help="targets for the sequential figure")
    args = parser.parse_args()
    os.environ[KEY_ENV] = "bench-not-a-real-key"
    rows = swords_dataset.rows("swords", "test")

    with LLMServer(latency=args.latency) as server, tempfile.TemporaryDirectory() as work:
        concurrent = timed_predict(make(server, "off", 32), rows[: args.targets])
        print(
            f"32 in flight:      {args.targets / concurrent:6.1f} targets/s "
            f"({args.targets} targets in {concurrent:.2f} s; server saw at most {server.max_in_flight} in flight)"
        )
        server.max_in_flight = 0
        sequential = timed_predict(make(server, "off", 1), rows[: args.sequential])
        print(
            f"sequential:        {args.sequential / sequential:6.1f} targets/s "
            f"({args.sequential} targets in {sequential:.2f} s; at most {server.max_in_flight} in flight)"
        )

        cache = str(Path(work) / "cache")
        fill = timed_predict(make(server, cache, 32), rows)
        sent = len(server.requests)
        started = time.perf_counter()
        system = make(server, cache, 32)
        rerun_predict = timed_predict(system, rows)
        rerun_total = time.perf_counter() - started
        assert len(server.requests) == sent, "the cached rerun sent requests"
        print(f"filling the cache: {len(rows)} targets in {fill:.2f} s ({len(rows) / fill:.1f} targets/s)")
        print(
            f"cached rerun:      {len(rows)} targets in {rerun_total:.2f} s (system set-up and predict; "
            f"predict alone {rerun_predict:.2f} s), {system.report()['cache hits']} cache hits, 0 requests"
        )

        command = [sys.executable, "-m", "swords_lexsub.cli", "run", "--system", "llm", "--dataset", "swords"]
        command += ["--split", "test", "--output", str(Path(work) / "run.jsonl"), "--no-progress", "--bootstrap", "0"]
        command += ["--model", "davinci", "--base-url", server.base_url, "--api-key-env", KEY_ENV]
        command += ["--cache-dir", cache, "--concurrency", "32"]
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, cwd=REPO_ROOT)
        whole = time.perf_counter() - started
        assert len(server.requests) == sent, "the cached `swords run` sent requests"
        print(f"cached `swords run` (fresh interpreter, scoring included): {whole:.2f} s")


if __name__ == "__main__":
    main()
