"""Run the offline baselines with `swords run` and print the manual's baseline table (docs/baselines/index.md).

Run: python benchmarks/baseline_table.py [--output-dir runs/table] [--systems a,b] [--datasets swords,coinco]

Published figures, in parentheses, are the SWORDS paper's (arXiv version) that a system reproduces, as
swords_metric's published results hold them (published-results.json, the rows whose `reproduced_by` names the
system): lenient F@10 and Fc@10 from Table 4; best, best-mode, oot, oot-mode and P@1 from Table 8; GAP from
Table 6. None: not published for that system.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
from pathlib import Path

from swords_metric import published_results

# (system, dataset config, split, system options)
RUNS = [
    ("coinco-oracle", "swords", "test", {}),
    ("thesaurus-oracle", "swords", "test", {}),
    ("humans", "swords_test_subset", "test", {}),
    # The systems upstream scored for the paper's Humans row, one per figure (reproduction-recipe.txt).
    ("humans-acceptable", "swords_test_subset", "test", {}),
    ("humans-conceivable", "swords_test_subset", "test", {}),
    ("humans-all", "swords_test_subset", "test", {}),
    ("gpt3-recorded", "swords", "dev", {}),
    ("wordnet", "swords", "test", {}),
    ("wordnet+embedding", "swords", "test", {}),
    ("embedding-rank", "swords", "test", {}),
    ("thesaurus-oracle", "coinco", "test", {}),
    ("wordnet", "coinco", "test", {}),
    ("wordnet+embedding", "coinco", "test", {}),
    ("embedding-rank", "coinco", "test", {}),
    ("thesaurus-oracle", "semeval07", "test", {}),
    ("wordnet", "semeval07", "test", {}),
    ("wordnet+embedding", "semeval07", "test", {}),
    ("embedding-rank", "semeval07", "test", {}),
    # The paper's prompted-LLM baseline against a real model offline: SmolLM2-135M on the embedded engine,
    # the paper's prompt and settings with a 640-token budget (48 generated) to fit a CPU; the 89-target subset.
    ("llm", "swords_test_subset", "test", {"local": True, "budget": 640, "max_tokens": 48}),
]
LABELS = {("llm", "swords_test_subset"): "llm --local (SmolLM2-135M, budget 640)"}

COLUMNS = [
    ("lenient_a_f@10", "F@10"),
    ("lenient_c_f@10", "Fc@10"),
    ("strict_a_f@10", "strict F@10"),
    ("strict_c_f@10", "strict Fc@10"),
    ("gap", "GAP"),
    ("best_r", "best"),
    ("best_mode_r", "best-m"),
    ("oot_r", "oot"),
    ("oot_mode_r", "oot-m"),
    ("strict_c_p@1", "P@1"),
]


PAPER = "lee2021"  # the SWORDS paper's key in published-results.json
# Table 6's GAP is the scorer's gap_rat (as the upstream reproduction scores it): where the paper gives it, the GAP
# column shows this run's gap_rat beside it, so that like is compared with like.
PAPER_KEYS = {"gap": "gap_rat"}


def published_figures(system: str, dataset: str, split: str) -> dict[str, float]:
    """The SWORDS paper's figures that `swords run --system SYSTEM` reproduces on this benchmark split."""
    figures: dict[str, float] = {}
    for row in published_results(dataset, split):
        if row.paper == PAPER and system in (row.reproduced_by or "").split("; "):
            figures.update(row.metrics)
    return figures


def cell(measured: float, published: float | None) -> str:
    return f"{measured:.1f}" + (f" ({published:.1f})" if published is not None else "")


def table_row(name: str, dataset: str, split: str, metrics: dict, label: str | None = None) -> str:
    """One line of the table: a run's metrics (its `.metrics.json`), each beside the paper's figure if any."""
    published = published_figures(name, dataset, split)
    cells = []
    for key, _ in COLUMNS:
        if key not in published and PAPER_KEYS.get(key) in published:
            key = PAPER_KEYS[key]
        cells.append(cell(metrics[key], published.get(key)))
    return f"| {label or name} | {dataset} {split} | {metrics['targets_scored']} | " + " | ".join(cells) + " |"


def table_header() -> list[str]:
    return [
        "| system | benchmark | targets | " + " | ".join(label for _, label in COLUMNS) + " |",
        "| --- | --- | --- |" + " --- |" * len(COLUMNS),
    ]


def main() -> None:
    from swords_baselines.cli import execute
    from swords_baselines.system import SYSTEMS
    from swords_lexsub.errors import SwordsError

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output-dir", default="runs/table")
    parser.add_argument("--systems", default=None, help="comma-separated subset")
    parser.add_argument("--datasets", default=None, help="comma-separated subset")
    args = parser.parse_args()
    systems = set(args.systems.split(",")) if args.systems else None
    datasets = set(args.datasets.split(",")) if args.datasets else None

    lines = table_header()
    for name, dataset, split, options in RUNS:
        if (systems and name not in systems) or (datasets and dataset not in datasets) or name not in SYSTEMS.entries:
            continue
        output = Path(args.output_dir) / f"{name}.{dataset}.{split}.jsonl"
        try:
            defaults = {o.name: o.default for o in SYSTEMS.get(name).options}
            with contextlib.redirect_stdout(io.StringIO()):
                execute(
                    name,
                    {**defaults, **options},
                    dataset,
                    split,
                    str(output),
                    bootstrap=0,
                    progress=False,
                    as_json=True,
                )
        except SwordsError as error:
            print(f"<!-- {name} on {dataset} {split}: {error} -->")
            continue
        metrics = json.loads(output.with_name(output.name.replace(".jsonl", ".metrics.json")).read_text())
        lines.append(table_row(name, dataset, split, metrics, LABELS.get((name, dataset))))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
