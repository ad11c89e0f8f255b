"""`swords run`: run a baseline on a benchmark split, write its predictions, score them, print the table."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import swords_dataset
from swords_dataset.errors import SwordsError

from .system import SYSTEMS


def register(subparsers) -> None:
    command = subparsers.add_parser(
        "run",
        help="run a baseline system and score it",
        description="Options after --system are the system's own; `swords run --list` shows them.",
    )
    command.add_argument("--list", action="store_true", help="list the systems and their options")
    command.add_argument("--system", help="system name")
    command.add_argument("--dataset", default="swords", choices=list(swords_dataset.CONFIGS))
    command.add_argument("--split", default="test")
    command.add_argument(
        "--output",
        help="predictions file (.jsonl; the upstream .json and .metrics.json go beside "
        "it; default runs/SYSTEM.DATASET.SPLIT.jsonl)",
    )
    command.add_argument("--bootstrap", type=int, default=1000, help="resamples for 95%% intervals (0: none)")
    command.add_argument("--no-progress", action="store_true", help="no progress bar")
    command.add_argument("--json", action="store_true", help="print the metrics as JSON")
    command.set_defaults(func=run_command, accepts_extra=True)


def system_parser(name: str) -> argparse.ArgumentParser:
    cls = SYSTEMS.get(name)
    parser = argparse.ArgumentParser(prog=f"swords run --system {name}", description=cls.description)
    for option in cls.options:
        option.add_to(parser)
    return parser


def list_systems() -> str:
    lines = []
    for name in SYSTEMS.entries:
        try:
            cls = SYSTEMS.get(name)
        except SwordsError as error:
            lines.append(f"{name}\n    (unavailable: {error})")
            continue
        lines.append(f"{name}  [{cls.setting}]\n    {cls.description}")
        for option in cls.options:
            flag = "--" + option.name.replace("_", "-")
            lines.append(f"    {flag:<24} {option.help} (default: {option.default})")
    return "\n".join(lines)


def run_command(args: argparse.Namespace) -> int:
    if args.list:
        print(list_systems())
        return 0
    if not args.system:
        raise SwordsError("choose a system with --system NAME (see `swords run --list`)")
    swords_dataset.check_config(args.dataset, args.split)
    options = vars(system_parser(args.system).parse_args(args.extra))
    return execute(
        args.system,
        options,
        args.dataset,
        args.split,
        args.output,
        args.bootstrap,
        progress=not args.no_progress,
        as_json=args.json,
    )


def execute(
    name: str,
    options: dict,
    dataset: str,
    split: str,
    output: str | None,
    bootstrap: int = 1000,
    progress: bool = True,
    as_json: bool = False,
) -> int:
    from swords_metric.report import format_result
    from swords_metric.scorer import Scorer

    from .runner import output_paths, run

    system = SYSTEMS.get(name)(**options)
    try:
        rows = system.covers(swords_dataset.load(dataset, split=split).to_list())
        output_path = Path(output or f"runs/{name}.{dataset}.{split}.jsonl")
        # What identifies a run: resuming is allowed only into the same configuration.
        decisive = {o.name for o in type(system).options if o.affects_output}
        header = {"system": name, "options": {k: v for k, v in options.items() if k in decisive},
                  "dataset": dataset, "split": split, "targets": len(rows)}
        predictions = run(system, rows, output_path, header, progress=progress)
        report = system.report()
    finally:
        system.close()
    scorer = Scorer(rows, split=split, setting=system.setting, config=dataset)
    result = scorer.score(predictions, bootstrap=bootstrap)
    result["run"] = {**header, **({"report": report} if report else {})}
    paths = output_paths(output_path)
    paths["metrics"].write_text(json.dumps(result, indent=2), encoding="utf-8")
    if as_json:
        print(json.dumps(result, indent=2))
        return 0
    title = f"{name} on {dataset} {split} ({len(rows)} targets) -> {paths['jsonl']}, {paths['upstream']}"
    print(format_result(result, title=title, setting=system.setting, k=scorer.k))
    for key, value in report.items():
        print(f"{key}: {value}")
    return 0
