"""Run the offline baselines with `swords run` and print the manual's baseline table (docs/baselines/index.md).

Run: python benchmarks/baseline_table.py [--output-dir runs/table] [--systems a,b] [--datasets swords,coinco]

Published figures are the SWORDS paper's (arXiv version): lenient F@10 and Fc@10 from Table 4; best,
best-mode, oot, oot-mode and P@1 from Table 8. A dash: not published for that system.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
from pathlib import Path

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

PUBLISHED = {  # SWORDS paper, SWORDS v1.1 test: Table 4 (F@10, Fc@10), Table 8 (best … P@1)
    ("coinco-oracle", "swords"): {
        "lenient_a_f@10": 34.1,
        "lenient_c_f@10": 63.6,
        "best_r": 5.5,
        "oot_r": 39.2,
        "strict_c_p@1": 88.2,
    },
    ("thesaurus-oracle", "swords"): {
        "lenient_a_f@10": 12.0,
        "lenient_c_f@10": 44.9,
        "best_r": 2.1,
        "best_mode_r": 7.9,
        "oot_r": 24.1,
        "oot_mode_r": 24.6,
        "strict_c_p@1": 63.0,
    },
    ("humans", "swords_test_subset"): {"lenient_c_f@10": 77.9},
    ("humans-acceptable", "swords_test_subset"): {"lenient_a_f@10": 48.8},
    ("humans-conceivable", "swords_test_subset"): {"lenient_c_f@10": 77.9},
}

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


def cell(measured: float, published: float | None) -> str:
    return f"{measured:.1f}" + (f" ({published:.1f})" if published is not None else "")


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

    lines = [
        "| system | benchmark | targets | " + " | ".join(label for _, label in COLUMNS) + " |",
        "| --- | --- | --- |" + " --- |" * len(COLUMNS),
    ]
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
        published = PUBLISHED.get((name, dataset), {})
        cells = [cell(metrics[key], published.get(key)) for key, _ in COLUMNS]
        label = LABELS.get((name, dataset), name)
        lines.append(f"| {label} | {dataset} {split} | {metrics['targets_scored']} | " + " | ".join(cells) + " |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
