"""`swords judge`: `tasks` (a run's unjudged substitutes as tasks in SWORDS's form: swords_metric makes them),
`llm` (an LLM judges a tasks file: run.py), `validate` (how far an LLM judge agrees with SWORDS's annotators, beside
the human ceiling: validate.py). Registered through the `swords.commands` entry points (setup.cfg)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import swords_dataset
from swords_baselines.judge.outputs import refuse_foreign, refuse_link
from swords_baselines.llm.timeouts import DEFAULT_TIMEOUT, LOCAL_TIMEOUT
from swords_baselines.run.shards import SHARD_HELP, shard_option
from swords_lexsub.arguments import float_range, int_range
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import check_output_file, check_writable_folder, refuse_input_as_output, sha256_of
from swords_lexsub.terminal import say

MAX_AGREEMENT_BYTES = 2**20  # a validation file holds a few figures a judge
CONSTRAINTS = ("auto", "none")  # --constraint (baselines/judge/constraint.py's AUTO and NONE: not imported at start)


def register(subparsers) -> None:
    judge = subparsers.add_parser(
        "judge",
        help="judge the substitutes the benchmark never judged (tasks, an LLM judge, its validation)",
        description="SWORDS's own annotation protocol for a run's new substitutes: tasks for people or an LLM, "
        "and the LLM judge's measured agreement with SWORDS's annotators.",
    )
    commands = judge.add_subparsers(dest="judge_command", required=True, metavar="COMMAND")
    tasks = commands.add_parser(
        "tasks",
        help="a run's unjudged substitutes as tasks in SWORDS's form",
        description="For every target, the run's top-k substitutes the benchmark has no judgement for (matched as "
        "the metric matches), in tasks of at most 10 with SWORDS's two controls.",
    )
    tasks.add_argument("--dataset", default="swords", choices=list(swords_dataset.CONFIGS), help="benchmark config")
    tasks.add_argument("--split", default="test", help=f"split of the config ({swords_dataset.splits_text()})")
    tasks.add_argument("--predictions", required=True, help="the run's predictions file (JSONL or upstream JSON)")
    tasks.add_argument("--output", required=True, help="the tasks file to write (JSONL)")
    tasks.add_argument("--k", type=int_range(1, None, "a number of substitutes"), default=10, help="top-k judged")
    tasks.add_argument("--targets", type=int_range(1, None, "a number of targets"), help="sample this many targets")
    tasks.add_argument("--seed", type=int, default=0, help="seed of the sample, the order and the controls")
    tasks.add_argument("--force", action="store_true", help="replace an --output no `swords judge tasks` wrote")
    tasks.set_defaults(func=tasks_command)

    llm = commands.add_parser(
        "llm",
        help="an LLM judges a tasks file (any OpenAI-compatible server, or --local)",
        description="One request a candidate, the protocol's instructions as the prompt, the answer read strictly "
        "(anything but accept, reject or abstain is a failed item). Resumes after any interruption.",
    )
    llm.add_argument("--tasks", required=True, help="the tasks file (`swords judge tasks`)")
    llm.add_argument("--output", required=True, help="the judgments file to write (JSONL)")
    llm.add_argument("--agreement", help="a `swords judge validate --output` file: its figures go into each record")
    llm.add_argument("--shard", type=shard_option, metavar="K/N", help=SHARD_HELP.replace("targets", "candidates"))
    add_judge_options(llm)
    batch = llm.add_mutually_exclusive_group()
    batch.add_argument(
        "--batch-export",
        metavar="FILE",
        help="write the request of every candidate not yet judged to FILE, in OpenAI's Batch API format (vLLM's "
        "run_batch reads it too; the constraint as that engine takes it), and send nothing",
    )
    batch.add_argument(
        "--batch-import",
        metavar="FILE",
        help="take the answers from FILE, the output of OpenAI's Batch API or vLLM's run_batch for an export of "
        "this judging, instead of asking a server; what it lacks stays to do",
    )
    llm.add_argument("--force", action="store_true", help="replace an --output (or a journal) of anything else")
    llm.set_defaults(func=llm_command, resumes=True)  # an interrupted judging resumes (the stop line says so)

    validate = commands.add_parser(
        "validate",
        help="measure an LLM judge against SWORDS's annotators, beside the human ceiling",
        description="The judge on candidates SWORDS already judged (the same task form and controls): accuracy and "
        "Cohen's kappa at acceptable (score > 50%) and conceivable (score > 0%), Spearman between its accept "
        "rate and the human score; and the same figures for SWORDS's second annotator pool.",
    )
    validate.add_argument("--dataset", default="swords", help="swords: the benchmark with human scores")
    validate.add_argument("--split", default="dev", help="dev or test")
    validate.add_argument(
        "--sample", type=int_range(1, None, "a number of candidates"), default=200, help="candidates judged"
    )
    validate.add_argument("--seed", type=int, default=0, help="seed of the sample, the order and the controls")
    validate.add_argument("--output", help="write the figures as JSON keyed by the judge id (updated in place)")
    add_judge_options(validate)
    validate.add_argument("--force", action="store_true", help="replace an --output no validation wrote")
    validate.set_defaults(func=validate_command)


def add_judge_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base-url", help="the server's API base URL (none: $OPENAI_BASE_URL, else OpenAI's)")
    parser.add_argument("--model", help="the model the server serves; with --local: smollm2-135m or a .gguf file")
    parser.add_argument("--local", action="store_true", help="serve the model on this machine (embedded llama.cpp)")
    parser.add_argument("--api-key-env", default="OPENAI_API_KEY", help="environment variable holding the API key")
    parser.add_argument("--cache-dir", help="response cache folder ('off' disables; none: the one `swords run` uses)")
    parser.add_argument(
        "--timeout",
        type=float_range(0.001, None, "seconds"),
        help=f"seconds a request (none: {DEFAULT_TIMEOUT:g}; with --local, {LOCAL_TIMEOUT:g})",
    )
    parser.add_argument(
        "--max-retries", type=int_range(0, None, "a number of retries"), default=6, help="retries of a request"
    )
    parser.add_argument("--backoff", type=float_range(0, None, "seconds"), default=1.0, help="first retry's wait")
    parser.add_argument(
        "--concurrency", type=int_range(1, 256, "a number of requests"), default=4, help="requests in flight"
    )
    parser.add_argument(
        "--constraint",
        choices=CONSTRAINTS,
        default=CONSTRAINTS[0],
        help="auto: hold the answer to a label where the server can (a grammar, a guided choice, a JSON schema; "
        "free text where it refuses it); none: free text",
    )


def model_input(args: argparse.Namespace) -> tuple[str, str | None]:
    """The local model file a judge command reads (--local --model FILE), as refuse_input_as_output takes it."""
    return f"--model {args.model}", args.model if args.local else None


def judge_of(args: argparse.Namespace, command: str = "judge llm", batch: bool = False):
    from swords_baselines.judge.llm import JudgeSettings, LLMJudge
    from swords_baselines.llm.client import check_base_url
    from swords_lexsub.extras import check

    check(command, "llm")  # before any journal is written: rerunning cannot help a missing module
    if args.base_url:
        check_base_url(args.base_url)
    # Every field of the settings is the option of its name (add_judge_options).
    settings = JudgeSettings(**{item.name: getattr(args, item.name) for item in dataclasses.fields(JudgeSettings)})
    with said_as(command):
        judge = LLMJudge(settings)
        if batch:
            judge.use_batch()  # no server asked anything
        judge.check()
    check_cache_folder(settings.cache_folder(), args.cache_dir)
    return judge


def check_cache_folder(folder: Path | None, given: str | None) -> None:
    """Before any request: the response cache's folder takes files (else every answer fails after it is paid for)."""
    if folder is None:
        return
    what = "--cache-dir" if given else "the response cache (--cache-dir)"
    if folder.exists() and not folder.is_dir():
        raise SwordsError(f"{what} {folder} is a file, not a folder; name a folder, or pass --cache-dir off")
    check_writable_folder(folder, what, hint="name another folder, or pass --cache-dir off")


@contextmanager
def said_as(command: str) -> Iterator[None]:
    """The judge's one-line errors name the command the user ran (`judge validate`, not `judge llm`)."""
    try:
        yield
    except SwordsError as error:
        text = str(error)
        if command != "judge llm" and text.startswith("judge llm:"):
            raise SwordsError(command + text[len("judge llm") :]) from None
        raise


def tasks_command(args: argparse.Namespace) -> int:
    from swords_baselines.judge.tasks_file import stamped, task_lines, tasks_file_is_ours
    from swords_lexsub.files import atomic_write
    from swords_metric import MetricInputError, Scorer, make_tasks, write_tasks

    swords_dataset.check_config(args.dataset, args.split)
    output = Path(args.output)
    what = f"--output {output}"
    refuse_input_as_output([(what, output)], [(f"--predictions {args.predictions}", args.predictions)])
    refuse_link(output, what)  # the system's /dev/stdout is a link: never replaced, --force or not
    check_output_file(output, what, create_folder=True, kind="tasks")
    ours = tasks_file_is_ours(output)
    refuse_foreign(output, ours, args.force, "swords judge tasks")
    try:
        scorer = Scorer.from_dataset(args.dataset, args.split)
        taskset = make_tasks(scorer, args.predictions, k=args.k, targets=args.targets, seed=args.seed)
        taskset = stamped(taskset, task_lines(taskset, what))  # a file the readers refuse: refused now, unwritten
        if output.exists() and not ours:  # --force: the user's say-so, still replaced at once
            staged = output.with_name(f".{output.name}.swords-tasks")
            try:
                write_tasks(staged, taskset)
                atomic_write(output, staged.read_bytes())
            finally:
                staged.unlink(missing_ok=True)
        else:
            write_tasks(output, taskset)  # atomically
    except MetricInputError as error:
        raise SwordsError(str(error)) from None
    targets = len({task.id for task in taskset.tasks})
    candidates = sum(c.control is None for task in taskset.tasks for c in task.candidates)
    controls = sum(c.control is not None for task in taskset.tasks for c in task.candidates)
    say(f"wrote {output}")
    print(f"targets with tasks: {targets}")
    print(f"targets with nothing new: {taskset.header.get('targets_without_new', 0)}")
    print(f"candidates: {candidates}")
    # What the Judge tab counts beside them: a judge answers the controls too (its "N words judged").
    print(
        f"controls: {controls} (the target word and a random word in each task; {candidates + controls} words to judge)"
    )
    print(f"tasks: {len(taskset.tasks)}")
    return 0


def read_agreement(path: str, judge: str) -> dict:
    """This judge's entry of a validation file, checked as `swords evaluate` checks a claim; else one line why not."""
    from swords_baselines.judge.outputs import entries_of
    from swords_baselines.run.ownership import strict_json
    from swords_lexsub.files import open_regular
    from swords_metric import MetricInputError, check_agreement, judge_id

    try:
        with open_regular(path, "--agreement") as f:  # a FIFO or a folder: one line, never a hang
            data = f.read(MAX_AGREEMENT_BYTES + 1)
    except FileNotFoundError:
        raise SwordsError(f"--agreement {path}: no such file (a `swords judge validate --output` file)") from None
    if len(data) > MAX_AGREEMENT_BYTES:
        raise SwordsError(f"--agreement {path}: larger than {MAX_AGREEMENT_BYTES:,} bytes; not a validation file")
    not_ours = f"--agreement {path}: not a file `swords judge validate --output` wrote"
    try:
        entries = strict_json(data)
    except (json.JSONDecodeError, RecursionError):
        entries = None
    except ValueError as error:  # NaN, Infinity: Python reads them, no validation writes them
        raise SwordsError(f"{not_ours} ({error})") from None
    if entries_of(entries) is None:
        raise SwordsError(not_ours)
    found = [key for key in entries if judge_id(key) == judge]  # as the metric compares names: LLM: is llm:
    if not found:
        known = ", ".join(sorted(entries)) or "none"
        raise SwordsError(f"--agreement {path}: no figures for the judge {judge} (it has: {known})")
    if len(found) > 1:
        raise SwordsError(f"--agreement {path}: {' and '.join(found)} are one judge, {judge}; keep one of them")
    entry = {k: v for k, v in entries[found[0]].items() if k != "written_by"}
    try:
        check_agreement(entry, f"--agreement {path}: the figures for {judge}")
    except MetricInputError as error:
        raise SwordsError(f"{error}; `swords evaluate` would refuse every record claiming them") from None
    return entry


def llm_command(args: argparse.Namespace) -> int:
    from swords_baselines.judge.batch import check_export, exporter, import_answers, import_summary
    from swords_baselines.judge.run import judge_tasks, paths_of
    from swords_metric import MetricInputError, read_tasks

    output = Path(args.output)  # the judgments, the journal and the lock: none of them a file the run reads
    export = [(f"--batch-export {args.batch_export}", args.batch_export)] if args.batch_export else []
    outputs = [*paths_of(output).values(), *paths_of(output, args.shard).values()]
    refuse_input_as_output(
        [*((f"--output {output}", path) for path in outputs), *export],
        [(f"--tasks {args.tasks}", args.tasks), (f"--agreement {args.agreement}", args.agreement), model_input(args),
         (f"--batch-import {args.batch_import}", args.batch_import)],
    )  # fmt: skip
    check_export(args.batch_export, paths_of(output), args.force)
    judge = judge_of(args, batch=bool(args.batch_export or args.batch_import))  # checks the settings; starts nothing
    try:
        taskset = read_tasks(args.tasks)
    except MetricInputError as error:
        raise SwordsError(str(error)) from None
    header = {"judge": judge.judge, "server": judge.server, "tasks_sha256": sha256_of(Path(args.tasks))}
    if args.agreement:
        header["agreement"] = read_agreement(args.agreement, judge.judge)
    started = time.monotonic()
    if args.batch_import:
        import_answers(judge, taskset, header, Path(args.batch_import))
    export = exporter(judge, header, Path(args.batch_export)) if args.batch_export else None
    where = {"force": args.force, "tasks": f"--tasks {args.tasks}", "shard": args.shard, "export": export}
    outcome = judge_tasks(taskset, judge, Path(args.output), header, **where)
    if export is not None:
        return 0
    written = paths_of(output, args.shard)["journal"] if args.shard else output
    say(f"wrote {written}")
    print(f"judge: {judge.judge}")
    print(f"judgments: {outcome.judgments}")
    print(f"judged now: {outcome.asked - len(outcome.failed)} ({judge.requests} requests, {judge.cache_hits} cached)")
    not_label = [v for v in outcome.failed if v.answer is not None]
    no_answer = len(outcome.failed) - len(not_label)
    print(f"failed items: {len(outcome.failed)} ({len(not_label)} not a label, {no_answer} no answer)")
    for verdict in outcome.failed[:3]:
        say(f"  {verdict.task.task} {verdict.candidate.substitute!r}: {verdict.failure}")
    left = import_summary(judge, outcome.asked, outcome.failed)
    if left is not None:
        say(left)
    print(f"seconds: {time.monotonic() - started:.1f}")
    return 0


def validate_command(args: argparse.Namespace) -> int:
    from swords_baselines.judge.validate import run_validation

    if args.output:
        refuse_input_as_output([(f"--output {args.output}", args.output)], [model_input(args)])
        refuse_link(Path(args.output), f"--output {args.output}")
    judge = judge_of(args, "judge validate")
    with said_as("judge validate"):
        return run_validation(args, judge)
