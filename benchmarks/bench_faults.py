"""What the faults cost: how fast `swords run` gives up on a broken LLM server, and how much memory the Space
needs while three users upload decompression bombs and a fourth a large legitimate file.

Run: python benchmarks/bench_faults.py [--skip-stall]

Figures (loopback servers only; every option at its default):
  - a server that accepts connections and never answers: requests sent and seconds until `swords run` stops
    (target: within about two minutes of the first timeouts, a few dozen requests at most),
  - a server that answers HTTP 500: the same,
  - the Space (its own process): peak memory idle and under three ~200 kB .gz uploads that expand to 190 MB
    plus a 10 MB CoInCo test predictions file, all at once (target < 1.8 GB), how long each bomb takes to be
    refused (target < 30 s), and the slowest answer to another user meanwhile.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))  # for tests/llm_server.py and tests/space_server.py

from tests.llm_server import LLMServer  # noqa: E402
from tests.space.test_space_faults import bomb, large_upload  # noqa: E402
from tests.space_server import peak_memory_mb, running_app  # noqa: E402


def stop_against(mode: str) -> tuple[int, float, str]:
    """(requests sent, seconds until the command exited, its message) of `swords run --system llm`."""
    key = {"SWORDS_BENCH_KEY": "sk-bench-" + secrets.token_hex(12)}
    with LLMServer(mode=mode) as server, tempfile.TemporaryDirectory() as folder:
        command = [
            sys.executable,
            "-m",
            "swords_lexsub.cli",
            "run",
            "--system",
            "llm",
            "--dataset",
            "swords",
            "--split",
            "dev",
            "--base-url",
            server.base_url,
            "--model",
            "davinci-002",
            "--api-key-env",
            "SWORDS_BENCH_KEY",
            "--cache-dir",
            "off",
            "--output",
            f"{folder}/out.jsonl",
            "--no-progress",
        ]
        started = time.monotonic()
        done = subprocess.run(
            command, cwd=REPO_ROOT, capture_output=True, text=True, env={**os.environ, **key}, timeout=1800
        )
        return len(server.requests), time.monotonic() - started, done.stderr.strip().splitlines()[-1]


def space_memory() -> None:
    from gradio_client import Client, handle_file
    from gradio_client.exceptions import AppError

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        bombs = [folder / f"bomb{i}.json.gz" for i in range(3)]
        for path in bombs:
            bomb(path)
        legit = folder / "coinco-test-100.jsonl"
        large_upload(legit)
        with running_app(folder) as app:
            idle = peak_memory_mb(app["pid"])
            seconds: dict[str, float] = {}

            def score(name: str, path: Path, split: str) -> None:
                started = time.monotonic()
                try:
                    Client(app["url"], verbose=False).predict(
                        handle_file(str(path)), None, split, "generative", 1000, "lenient", False, api_name="/score"
                    )
                except AppError:
                    pass
                seconds[name] = time.monotonic() - started

            threads = [threading.Thread(target=score, args=(p.name, p, "swords test")) for p in bombs]
            threads.append(threading.Thread(target=score, args=("legit", legit, "coinco test")))
            for thread in threads:
                thread.start()
            other, waits = Client(app["url"], verbose=False), []
            while any(thread.is_alive() for thread in threads):
                started = time.monotonic()
                other.predict("coinco test", "bri", "all", api_name="/search_examples")
                waits.append(time.monotonic() - started)
            for thread in threads:
                thread.join()
            peak = peak_memory_mb(app["pid"])
    bomb_mb = bombs[0].stat().st_size / 1e3 if bombs[0].exists() else 0
    print(
        f"Space peak memory: idle {idle:.0f} MB; under 3 bombs (~{bomb_mb or 200:.0f} kB .gz -> 190 MB) and a "
        f"{legit.stat().st_size / 2**20 if legit.exists() else 10:.0f} MB upload at once: {peak:.0f} MB "
        "(target < 1800 MB)"
    )
    print(
        f"  bombs refused in {max(seconds[p.name] for p in bombs):.1f} s at most (target < 30 s); the large "
        f"upload scored in {seconds['legit']:.1f} s; slowest answer to another user meanwhile "
        f"{max(waits):.2f} s over {len(waits)} requests"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skip-stall", action="store_true", help="skip the stalled server (it takes ~65 s)")
    args = parser.parse_args()
    if not args.skip_stall:
        sent, seconds, message = stop_against("stall")
        print(
            f"stalled server, default settings: stopped after {seconds:.1f} s having sent {sent} requests "
            "(first timeouts at 60 s)"
        )
        print(f"  {message}")
    sent, seconds, message = stop_against("500")
    print(f"server answering HTTP 500, default settings: stopped after {seconds:.1f} s having sent {sent} requests")
    print(f"  {message}")
    space_memory()


if __name__ == "__main__":
    main()
