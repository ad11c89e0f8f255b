"""The SWORDS metric's Space: paste a system's predictions, choose a benchmark split, and get every metric as
`evaluate.load("ORG/swords_metric")` computes it. Gradio 6 (evaluate's own widget uses gradio's removed
`gr.inputs`).

Bounded for every visitor: a request whose body is over MAX_REQUEST_BYTES is refused (HTTP 413) before it is
read, by its Content-Length or, streamed without one, as soon as it passes the limit (RequestLimit); four scores
run at once, at most LARGE_AT_ONCE of them large pastes, so one large paste never holds up the small ones."""

import functools
import importlib
import json
import os
import queue
import re
import tempfile
import threading
from pathlib import Path

import evaluate
import gradio as gr

HERE = Path(__file__).resolve().parent
CONCURRENCY = 4  # scores run side by side, so that a large one does not make every other visitor wait
# The module file beside this one, loaded as evaluate loads it from the Hub (which also puts the installed
# swords_metric package, not that same-named file, in sys.modules, for the reader below): one instance for each
# score that may run at once, since an evaluate metric keeps what it is given in the instance until it computes.
_metrics: queue.SimpleQueue = queue.SimpleQueue()
for _slot in range(CONCURRENCY):
    _metrics.put(evaluate.load(str(HERE / "swords_metric.py"), experiment_id=f"swords-widget-{_slot}"))
swords_dataset = importlib.import_module("swords_dataset")
read_predictions = importlib.import_module("swords_metric").read_predictions
size_text = importlib.import_module("swords_metric.predictions.bounded_text").size_text
CHOICES = [f"{config} / {split}" for config, splits in swords_dataset.CONFIGS.items() for split in splits]
# A request's body, refused unread above this: a CoInCo dev run with 50 scored substitutes a target (11 MB of JSONL,
# 12 MB as the request's JSON) fits; the largest paste accepted takes 12 s and about 800 MB to score.
MAX_REQUEST_BYTES = 16 * 2**20
LARGE_CHARS = 2**20  # a paste this long takes a second or more to score
LARGE_AT_ONCE = 2  # large pastes scored at once; a third is refused at once, leaving two slots to small ones
_large = threading.BoundedSemaphore(LARGE_AT_ONCE)
_SURROGATE = re.compile("[\ud800-\udfff]")
HEADLINE = tuple(
    "lenient_a_f@10 lenient_c_f@10 strict_a_f@10 strict_c_f@10 gap best_p oot_p targets_scored "
    "targets_without_predictions signature".split()
)


class RequestLimit:
    """ASGI middleware in front of Gradio: a request body over `max_bytes` gets 413 and one line (as `detail`,
    which Gradio's page shows) before any of it is read, by its Content-Length; a body streamed without one is
    counted as it comes and refused as soon as it passes the limit (it is held until complete, at most the limit,
    and then handed on)."""

    def __init__(self, app, max_bytes: int = MAX_REQUEST_BYTES):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        if (length := headers.get(b"content-length")) is not None:
            if not length.isdigit():
                return await self._refuse(
                    send, 400, f"Content-Length {length[:40].decode('latin-1')!r} is not a number of bytes"
                )
            if int(length) > self.max_bytes:
                return await self._refuse(send, 413, self._too_large(f"of {size_text(int(length))}"))
            return await self.app(scope, receive, send)  # the server reads no more than Content-Length says
        if b"chunked" not in headers.get(b"transfer-encoding", b"").lower():
            return await self.app(scope, receive, send)
        held, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return None
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                return await self._refuse(send, 413, self._too_large(f"over {size_text(self.max_bytes)}"))
            held.append(message)
            if not message.get("more_body"):
                break

        async def replay():
            return held.pop(0) if held else await receive()

        return await self.app(scope, replay, send)

    def _too_large(self, what: str) -> str:
        return (
            f"request {what}: more than the {size_text(self.max_bytes)} this widget accepts; score larger "
            "predictions with `swords evaluate` (pip install swords-lexsub)"
        )

    @staticmethod
    async def _refuse(send, status: int, message: str) -> None:
        body = json.dumps({"detail": message, "error": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _checked(predictions_text: object, benchmark: object) -> tuple[str, str, str]:
    """(text, config, split), or one gr.Error naming the field: what the API can send that the page cannot."""
    if benchmark is None:
        raise gr.Error(f"benchmark / split: none given; choose one of the list ({CHOICES[0]!r}, …)")
    if not isinstance(benchmark, str) or benchmark not in CHOICES:  # Gradio's own check comes first, today
        given = repr(benchmark)[:80].encode("ascii", "backslashreplace").decode()
        raise gr.Error(f"benchmark / split: {given} is not one of the list ({CHOICES[0]!r}, …)")
    text = predictions_text if isinstance(predictions_text, str) else ""
    if not text.strip():
        raise gr.Error("paste predictions: JSONL ({'id', 'substitutes'} a line) or the upstream SWORDS JSON")
    if found := _SURROGATE.search(text):
        line, column = text.count("\n", 0, found.start()) + 1, found.start() - text.rfind("\n", 0, found.start())
        raise gr.Error(
            f"predictions:{line}: \\u{ord(found.group()):04x} at column {column:,} is a lone surrogate, "
            "which is not text"
        )
    config, _, split = benchmark.partition(" / ")
    return text, config, split


def score(predictions_text: str, benchmark: str) -> tuple[dict, dict]:
    """The headline metrics and every metric, for predictions in the upstream SWORDS JSON or JSONL."""
    text, config, split = _checked(predictions_text, benchmark)
    large = len(text) > LARGE_CHARS
    if large and not _large.acquire(blocking=False):
        raise gr.Error(
            f"{LARGE_AT_ONCE} other large pastes are being scored; try again in a minute (or score it "
            "with `swords evaluate`)"
        )
    try:
        return _score(text, config, split)
    finally:
        if large:
            _large.release()


_loading = threading.Lock()


@functools.cache
def _references(config: str, split: str):
    with _loading:  # one build of a split's `datasets` cache at a time
        return swords_dataset.load(config, split=split)


def _score(text: str, config: str, split: str) -> tuple[dict, dict]:
    try:  # Gradio runs at most CONCURRENCY scores at once, so one is free; the bound is only a safeguard
        metric = _metrics.get(timeout=60)
    except queue.Empty:
        raise gr.Error("the widget is busy; try again in a minute") from None
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "predictions")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            try:
                predictions, _ = read_predictions(path)
                result = metric.compute(predictions=predictions, references=_references(config, split))
            except ValueError as error:  # MetricInputError, SwordsError: one line naming the line or target
                raise gr.Error(str(error).replace(path, "predictions").splitlines()[0]) from None
        return {name: result[name] for name in HEADLINE if name in result}, json.loads(json.dumps(result, default=str))
    finally:
        _metrics.put(metric)


with gr.Blocks(title="SWORDS lexical substitution metrics") as demo:
    gr.Markdown(
        "# SWORDS lexical substitution metrics\nPaste a system's predictions and choose the benchmark split "
        "they are for. The numbers are `evaluate.load(...).compute(...)`'s, identical to the official "
        f"scorers'. Up to {MAX_REQUEST_BYTES // 2**20} MB; score larger files with `swords evaluate`."
    )
    benchmark = gr.Dropdown(CHOICES, value=CHOICES[1], label="benchmark / split")
    text = gr.Textbox(lines=12, label="predictions (JSONL or the upstream SWORDS JSON)")
    button = gr.Button("Score", variant="primary")
    headline = gr.JSON(label="headline metrics")
    everything = gr.JSON(label="every metric")
    button.click(score, inputs=[text, benchmark], outputs=[headline, everything], api_name="score")


def launch() -> None:
    """Serve with the request limit in front of Gradio; no server-side rendering (its Node server would read a
    request before this process could refuse it)."""
    from starlette.middleware import Middleware

    demo.queue(default_concurrency_limit=CONCURRENCY, max_size=32)
    demo.launch(
        app_kwargs={"middleware": [Middleware(RequestLimit, max_bytes=MAX_REQUEST_BYTES)]},
        max_file_size=MAX_REQUEST_BYTES,
        ssr_mode=False,
    )


if __name__ == "__main__":
    launch()
