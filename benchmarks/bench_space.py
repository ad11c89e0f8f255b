"""Speed of the Gradio Space, as a user meets it: start, suggestions with the model warm, scoring an upload.

Run: python benchmarks/bench_space.py [--repeat N] [--system NAME]

The app runs in its own process (`python space/app.py`) on 127.0.0.1 and is called through its API with
gradio_client, so every figure includes Gradio's queue and HTTP; the scoring handler is also timed alone.
Targets on a 2-core machine: the app answers HTTP in under 15 s; suggestions for a three-sentence context,
the model warm, in under 1 s; scoring an uploaded SWORDS test predictions file in under 2 s.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
APP = REPO_ROOT / "space" / "app.py"
PREDICTIONS = REPO_ROOT / "space" / "results" / "coinco-oracle.swords.test.jsonl"
CONTEXT = (
    "The committee met on Tuesday to review the budget. She gave a bright answer that surprised everyone in "
    "the room. Afterwards they went home, pleased with the progress."
)
TARGET = "bright"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_app(port: int, log) -> tuple[subprocess.Popen, float]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"}
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, str(APP), "--port", str(port), "--host", "127.0.0.1"],
                               stdout=log, stderr=subprocess.STDOUT, env=env)
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the app exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                if response.status == 200:
                    return process, time.perf_counter() - started
        except OSError:
            time.sleep(0.05)
        if time.perf_counter() - started > 120:
            process.kill()
            raise TimeoutError("the app did not answer within 120 s")


def timed(call, repeat: int) -> tuple[float, list[float]]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times), times


def import_space():
    if importlib.util.find_spec("swords_space") is None:  # before setup.cfg maps it: the folder itself
        here = REPO_ROOT / "space"
        spec = importlib.util.spec_from_file_location("swords_space", here / "__init__.py",
                                                      submodule_search_locations=[str(here)])
        module = importlib.util.module_from_spec(spec)
        sys.modules["swords_space"] = module
        spec.loader.exec_module(module)
    from swords_space import handlers

    return handlers


def verdict(value: float, target: float) -> str:
    return f"target < {target:g} s: {'met' if value < target else 'MISSED'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--system", default=None, help="system for the suggestions (default: the app's default)")
    args = parser.parse_args()
    from gradio_client import Client, handle_file

    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}")
    with tempfile.TemporaryFile() as log:
        port = free_port()
        process, start = start_app(port, log)
        try:
            print(f"app start (process launch to first HTTP 200):            {start:6.2f} s  ({verdict(start, 15)})")
            client = Client(f"http://127.0.0.1:{port}/", verbose=False)
            system = args.system or client.view_api(print_info=False, return_format="dict")[
                "named_endpoints"]["/substitute"]["parameters"][4]["parameter_default"]

            def suggest() -> tuple:
                return client.predict(CONTEXT, TARGET, 1, "auto", system, 10, api_name="/substitute")

            started = time.perf_counter()
            first = suggest()  # waits for the background warm-up (data, scorer, model) if still running
            ready = time.perf_counter() - started
            print(f"first suggestions ({system}, model loading in the background): {ready:6.2f} s "
                  f"after the page was up")
            warm, times = timed(suggest, args.repeat)
            print(f"suggestions, 3-sentence context, model warm, via the API: {warm:6.2f} s median of "
                  f"{args.repeat} ({min(times):.2f}-{max(times):.2f}; {verdict(warm, 1)})")
            print(f"  -> {', '.join(row[1] for row in first[3]['data'][:8])}")

            def score() -> tuple:
                return client.predict(handle_file(str(PREDICTIONS)), None, "swords test", "generative", 1000,
                                      "lenient", api_name="/score")

            score()  # the first call of the session prepares nothing more (the scorer is warmed at start)
            scoring, times = timed(score, args.repeat)
            print(f"upload + score SWORDS test predictions, 1000 bootstrap:  {scoring:6.2f} s median of "
                  f"{args.repeat} ({min(times):.2f}-{max(times):.2f}; {verdict(scoring, 2)})")
        finally:
            process.terminate()
            process.wait(15)

    # Scoring without HTTP (pure Python and numpy: in-process figures carry over; torch's do not, so the
    # suggestions are timed through the app only).
    handlers = import_space()
    handlers.scorer_for("swords", "test")
    in_process, _ = timed(lambda: handlers.score_predictions(str(PREDICTIONS), None, "swords test", bootstrap=1000),
                          args.repeat)
    print(f"the scoring handler alone, 1000 bootstrap resamples:       {in_process:6.2f} s median")

if __name__ == "__main__":
    main()
