"""The SWORDS paper's recorded GPT-3 davinci completions, parsed as `llm` parses, scored without a network.

The bundled file holds the text and finish reason of the davinci completions (November 2020) for 43 SWORDS v0.8 dev
targets, 37 of them v1.1 dev targets, from the SWORDS authors' release (github.com/p-lambda/swords, assets/public/
raw/methods/gpt3/swords-v0.8_dev-valid_gpt3.out.json.gz; CC-BY-3.0-US, Lee et al. 2021), logprobs dropped.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path

from swords_baselines.llm.parse import parse_completion, to_prediction
from swords_baselines.options import Option
from swords_baselines.system import Prediction, System
from swords_lexsub.errors import SwordsError

BUNDLED = "gpt3-davinci_swords-v0.8_dev.json.gz"


def load_recorded(path: str | Path | None = None) -> dict[str, dict]:
    """Target id -> {text, finish_reason}: from an upstream-format file (.json or .json.gz), else the bundled 43."""
    if path is None:
        return json.loads(gzip.decompress(resources.files(__package__).joinpath(BUNDLED).read_bytes()))
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    data = data.get("outputs", data)
    return {
        tid: {"text": c["choices"][0]["text"], "finish_reason": c["choices"][0].get("finish_reason")}
        for tid, c in data.items()
    }


class GPT3Recorded(System):
    name = "gpt3-recorded"
    needs = "nothing: the 43 recorded completions ship with the package (SWORDS dev targets only)"
    description = (
        "the SWORDS paper's GPT-3 davinci completions (Nov 2020), parsed as `llm` parses; no network. "
        "Covers the recorded SWORDS dev targets that are still in SWORDS v1.1"
    )
    options = (
        Option("recorded", "upstream-format outputs (.json/.json.gz; none: the bundled 43 dev completions)"),
        Option(
            "parse",
            "clean (as llm: no duplicates, no cut item) or upstream (split on commas only)",
            "clean",
            choices=("clean", "upstream"),
        ),
    )

    def __init__(self, recorded: str | None = None, parse: str = "clean", **options) -> None:
        super().__init__(**options)
        self.outputs = load_recorded(recorded)
        self.parse = parse
        self.covered = 0

    @classmethod
    def refusal(cls, config: str) -> str | None:
        if config != "swords":
            return f"gpt3-recorded holds GPT-3's completions for SWORDS dev only, none for {config}"
        return None

    def covers(self, rows: Sequence[dict]) -> list[dict]:
        covered = [row for row in rows if row["id"] in self.outputs]
        if not covered:
            raise SwordsError(
                f"gpt3-recorded: none of these targets has a recorded completion ({len(self.outputs)} recorded, "
                "for SWORDS dev, which has them)",
                hint="use --dataset swords --split dev",
            )
        self.covered = len(covered)
        return covered

    def predict(self, rows: Sequence[dict]) -> Iterator[tuple[str, Prediction]]:
        for row in rows:
            output = self.outputs[row["id"]]
            if self.parse == "upstream":
                # As the paper's code did: every comma-separated item, stripped, repeats and all.
                items = [s.strip() for s in output["text"].strip().split(",") if s.strip()]
            else:
                items = parse_completion(output["text"], row["target"], output["finish_reason"])
            yield row["id"], to_prediction(items)

    def report(self) -> dict:
        return {"recorded completions": len(self.outputs), "scored (in this split)": self.covered}
