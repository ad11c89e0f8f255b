"""Speed of the default offline system (`wordnet+embedding`) on all SWORDS test targets, and its scores.

Run: python benchmarks/bench_offline_system.py [--system NAME] [--dataset swords --split test] [--option k=v ...]

Loading (WordNet data, encoder) and predicting are timed apart; the target on a 2-core CPU is under 2 minutes
for the 762 SWORDS test targets, loading included. Nothing is written to disk.
"""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

METRICS = ("lenient_a_f@10", "lenient_c_f@10", "strict_a_f@10", "strict_c_f@10", "strict_c_p@1", "gap", "oot_r")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="wordnet+embedding")
    parser.add_argument("--dataset", default="swords")
    parser.add_argument("--split", default="test")
    parser.add_argument("--option", action="append", default=[], help="a system option as name=value (repeatable)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N targets (0: all)")
    args = parser.parse_args(argv)

    import swords_dataset
    from swords_baselines.cli import system_parser
    from swords_baselines.system import SYSTEMS
    from swords_metric import scorer_for

    rows = swords_dataset.rows(args.dataset, args.split)
    rows = rows[: args.limit] if args.limit else rows
    flags = [
        part
        for option in args.option
        for part in ("--" + option.split("=", 1)[0].replace("_", "-"), option.split("=", 1)[1])
    ]
    options = vars(system_parser(args.system).parse_args(flags))

    started = time.perf_counter()
    system = SYSTEMS.get(args.system)(**options)
    loaded = time.perf_counter()
    predictions = {}
    for start in range(0, len(rows), system.batch_size):
        predictions.update(system.predict(rows[start : start + system.batch_size]))
    finished = time.perf_counter()
    system.close()

    result = scorer_for(rows, split=args.split, setting=system.setting).score(predictions, by_pos=False)
    report = {
        "system": args.system,
        "options": options,
        "dataset": f"{args.dataset} {args.split}",
        "targets": len(rows),
        "load_s": round(loaded - started, 2),
        "predict_s": round(finished - loaded, 2),
        "total_s": round(finished - started, 2),
        "targets_per_s": round(len(rows) / (finished - loaded), 2),
        "cpu_threads": _threads(),
        **{name: round(result[name], 2) for name in METRICS},
    }
    print(json.dumps(report, indent=2))
    return 0


def _threads() -> int | None:
    try:
        import torch
    except ImportError:
        return None
    return torch.get_num_threads()


if __name__ == "__main__":
    raise SystemExit(main())
