"""The SWORDS metric's Space: paste a system's predictions, choose a benchmark split, and get every metric as
`evaluate.load("ORG/swords_metric")` computes it. Gradio 6 (evaluate's own widget uses gradio's removed
`gr.inputs`)."""

import importlib
import json
import os
import tempfile
from pathlib import Path

import evaluate
import gradio as gr

HERE = Path(__file__).resolve().parent
# The module file beside this one, loaded as evaluate loads it from the Hub; it also puts the installed
# swords_metric package (not that same-named file) in sys.modules, for the reader below.
METRIC = evaluate.load(str(HERE / "swords_metric.py"))
swords_dataset = importlib.import_module("swords_dataset")
read_predictions = importlib.import_module("swords_metric").read_predictions
CHOICES = [f"{config} / {split}" for config, splits in swords_dataset.CONFIGS.items() for split in splits]
MAX_CHARS = 64 * 2**20  # pasted text; a whole CoInCo dev run in JSONL is a few MB
HEADLINE = ("lenient_a_f@10", "lenient_c_f@10", "strict_a_f@10", "strict_c_f@10", "gap", "best_p", "oot_p",
            "targets_scored", "targets_without_predictions", "signature")


def score(predictions_text: str, benchmark: str) -> tuple[dict, dict]:
    """The headline metrics and every metric, for predictions in the upstream SWORDS JSON or JSONL."""
    if not (predictions_text or "").strip():
        raise gr.Error("paste predictions: JSONL ({'id', 'substitutes'} a line) or the upstream SWORDS JSON")
    if len(predictions_text) > MAX_CHARS:
        raise gr.Error(f"predictions: {len(predictions_text):,} characters, more than {MAX_CHARS:,}")
    config, _, split = benchmark.partition(" / ")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "predictions")
        with open(path, "w", encoding="utf-8") as f:
            f.write(predictions_text)
        try:
            predictions, _ = read_predictions(path)
            result = METRIC.compute(predictions=predictions, references=swords_dataset.load(config, split=split))
        except ValueError as error:  # MetricInputError, SwordsError: one line naming the line or target
            raise gr.Error(str(error).replace(path, "predictions").splitlines()[0]) from None
    return {name: result[name] for name in HEADLINE if name in result}, json.loads(json.dumps(result, default=str))


with gr.Blocks(title="SWORDS lexical substitution metrics") as demo:
    gr.Markdown("# SWORDS lexical substitution metrics\nPaste a system's predictions and choose the benchmark split "
                "they are for. The numbers are `evaluate.load(...).compute(...)`'s, identical to the official "
                "scorers'.")
    benchmark = gr.Dropdown(CHOICES, value=CHOICES[1], label="benchmark / split")
    text = gr.Textbox(lines=12, label="predictions (JSONL or the upstream SWORDS JSON)")
    button = gr.Button("Score", variant="primary")
    headline = gr.JSON(label="headline metrics")
    everything = gr.JSON(label="every metric")
    button.click(score, inputs=[text, benchmark], outputs=[headline, everything], api_name="score")

if __name__ == "__main__":
    demo.launch()
