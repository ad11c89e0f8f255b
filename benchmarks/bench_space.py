"""Speed and memory of the Gradio Space, as a user meets it: start, suggestions with the model warm, scoring
an upload; and the server's memory while three users score large files and a fourth uploads a gzip bomb.

Run: python benchmarks/bench_space.py [--repeat N] [--system NAME] [--only speed|memory] [--compare]

The app runs in its own process (`python space/app.py`) on 127.0.0.1 and is called through its API with
gradio_client, so every figure includes Gradio's queue and HTTP; the scoring handler is also timed alone.
Targets on a 2-core machine: the app answers HTTP in under 15 s; suggestions for a three-sentence context,
the model warm, in under 1 s; scoring an uploaded SWORDS test predictions file in under 2 s. Memory (the
whole app process, from /proc/PID/status): three ~19 MB CoInCo test predictions files (110 substitutes a
target, near the 20 MB upload limit) and a gzip bomb sent at once peak under 1.5 GB (VmHWM), and the process
is back under 1 GB (VmRSS) once they are done; `--compare` runs the same with each user comparing two such files.
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
import threading
import time
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))  # for tests/space_server.py and the test files' upload makers
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
    process = subprocess.Popen(
        [sys.executable, str(APP), "--port", str(port), "--host", "127.0.0.1"],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
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
        spec = importlib.util.spec_from_file_location(
            "swords_space", here / "__init__.py", submodule_search_locations=[str(here)]
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules["swords_space"] = module
        spec.loader.exec_module(module)
    from swords_space import scoring
    from swords_space.tabs import score

    return scoring, score


def verdict(value: float, target: float) -> str:
    return f"target < {target:g} s: {'met' if value < target else 'MISSED'}"


def memory_mb(pid: int) -> dict[str, float]:
    """The process's resident memory now (VmRSS) and its peak so far (VmHWM), in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) / 1024
    return fields


def settled_rss(pid: int, seconds: float = 20.0) -> float:
    """VmRSS once it stops falling (freed memory going back to the system), waiting at most `seconds`."""
    last = memory_mb(pid)["VmRSS"]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(2)
        now = memory_mb(pid)["VmRSS"]
        if now > last - 5:
            return now
        last = now
    return last


def memory(uploads: int = 3, compare: bool = False) -> None:
    """Idle, peak and after-settling memory of the app while `uploads` users score ~19 MB CoInCo test
    predictions files at once and another uploads a gzip bomb; with `compare`, each user also gives a second
    ~19 MB file to compare with. Before them, one SWORDS test score: what the first score costs (its scorer, and
    the WordNet graph the Score tab's relation chart reads)."""
    from gradio_client import Client, handle_file
    from gradio_client.exceptions import AppError

    from tests.space.test_space_faults import bomb, large_upload
    from tests.space_server import running_app

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        files = [folder / f"coinco-test-{i}.jsonl" for i in range(uploads * (2 if compare else 1))]
        sizes = [large_upload(path, substitutes=110, seed=i, precise_scores=True) for i, path in enumerate(files)]
        gzip_bomb = folder / "bomb.json.gz"
        bomb(gzip_bomb)
        with running_app(folder) as app:
            pid = app["pid"]
            client = Client(app["url"], verbose=False)
            client.predict(CONTEXT, TARGET, 1, "auto", None, 10, api_name="/substitute")  # warm-up done
            time.sleep(2)
            idle = memory_mb(pid)
            client.predict(
                handle_file(str(PREDICTIONS)), None, "swords test", "generative", 1000, "lenient", api_name="/score"
            )
            first = settled_rss(pid)
            outcomes: dict[str, tuple[float, str]] = {}

            def score(name: str, path: Path, split: str, other: Path | None = None) -> None:
                started = time.monotonic()
                try:
                    message = Client(app["url"], verbose=False).predict(
                        handle_file(str(path)),
                        None,
                        split,
                        "generative",
                        1000,
                        "lenient",
                        False,
                        *([handle_file(str(other)), None] if other else []),
                        api_name="/score",
                    )[0]
                except AppError as error:
                    message = str(error)
                outcomes[name] = (time.monotonic() - started, message)

            pairs = [(files[i], files[uploads + i] if compare else None) for i in range(uploads)]
            threads = [
                threading.Thread(target=score, args=(path.name, path, "coinco test", other)) for path, other in pairs
            ]
            threads.append(threading.Thread(target=score, args=("bomb", gzip_bomb, "swords test")))
            started = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(600)
            elapsed = time.monotonic() - started
            peak = memory_mb(pid)["VmHWM"]
            after = settled_rss(pid)
    scored = sum("Scored **" in message for _, message in outcomes.values())
    what = "each compared with another" if compare else "each alone"
    print(
        f"memory: {uploads} x {statistics.mean(sizes) / 2**20:.1f} MB CoInCo test uploads ({what}) + a gzip bomb "
        f"at once ({scored} scored, bomb: {outcomes['bomb'][1][:60]!r} after {outcomes['bomb'][0]:.1f} s; "
        f"all done in {elapsed:.1f} s)"
    )
    print(f"  idle {idle['VmRSS']:6.0f} MB RSS (peak so far {idle['VmHWM']:.0f} MB)")
    print(
        f"  after one SWORDS test score {first:6.0f} MB RSS (+{first - idle['VmRSS']:.0f} MB: its scorer, the "
        "WordNet graph of the relations)"
    )
    print(f"  peak {peak:6.0f} MB VmHWM  (target < 1500 MB: {'met' if peak < 1500 else 'MISSED'})")
    print(f"  after {after:5.0f} MB RSS once settled (target < 1000 MB: {'met' if after < 1000 else 'MISSED'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--system", default=None, help="system for the suggestions (default: the app's default)")
    parser.add_argument("--only", choices=["speed", "memory"], default=None, help="run one part (default: both)")
    parser.add_argument(
        "--compare", action="store_true", help="also the memory scenario where each user compares two ~19 MB files"
    )
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}")
    if args.only != "memory":
        speed(args)
    if args.only != "speed":
        memory()
        if args.compare:
            memory(compare=True)


def speed(args: argparse.Namespace) -> None:
    from gradio_client import Client, handle_file

    with tempfile.TemporaryFile() as log:
        port = free_port()
        process, start = start_app(port, log)
        try:
            print(f"app start (process launch to first HTTP 200):            {start:6.2f} s  ({verdict(start, 15)})")
            client = Client(f"http://127.0.0.1:{port}/", verbose=False)
            system = (
                args.system
                or client.view_api(print_info=False, return_format="dict")["named_endpoints"]["/substitute"][
                    "parameters"
                ][4]["parameter_default"]
            )

            def suggest() -> tuple:
                return client.predict(CONTEXT, TARGET, 1, "auto", system, 10, api_name="/substitute")

            started = time.perf_counter()
            first = suggest()  # waits for the background warm-up (data, scorer, model) if still running
            ready = time.perf_counter() - started
            print(
                f"first suggestions ({system}, model loading in the background): {ready:6.2f} s after the page was up"
            )
            warm, times = timed(suggest, args.repeat)
            print(
                f"suggestions, 3-sentence context, model warm, via the API: {warm:6.2f} s median of "
                f"{args.repeat} ({min(times):.2f}-{max(times):.2f}; {verdict(warm, 1)})"
            )
            print(f"  -> {', '.join(row[1] for row in first[3]['data'][:8])}")

            def score() -> tuple:
                return client.predict(
                    handle_file(str(PREDICTIONS)), None, "swords test", "generative", 1000, "lenient", api_name="/score"
                )

            score()  # the first call of the session prepares nothing more (the scorer is warmed at start)
            scoring, times = timed(score, args.repeat)
            print(
                f"upload + score SWORDS test predictions, 1000 bootstrap:  {scoring:6.2f} s median of "
                f"{args.repeat} ({min(times):.2f}-{max(times):.2f}; {verdict(scoring, 2)})"
            )
        finally:
            process.terminate()
            process.wait(15)

    # Scoring without HTTP (pure Python and numpy: in-process figures carry over; torch's do not, so the
    # suggestions are timed through the app only).
    scoring, score = import_space()
    scoring.scorer_for("swords", "test")
    in_process, _ = timed(
        lambda: score.score_predictions(str(PREDICTIONS), None, "swords test", bootstrap=1000), args.repeat
    )
    print(f"the scoring handler alone, 1000 bootstrap resamples:       {in_process:6.2f} s median")


if __name__ == "__main__":
    main()
