"""`swords judge llm`'s batch files: `--batch-export FILE` writes the request of every candidate not yet judged (the
journal and an earlier output tell) as an OpenAI Batch API input file, sending nothing; `--batch-import FILE` takes
a Batch API or vLLM run_batch output file as the server's answers. The format and the custom_ids are llm/batch.py's;
the constraint is the one the file's engine takes (judge/llm.py's use_batch)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from swords_baselines.judge.llm import LLMJudge, Verdict, batch_item
from swords_baselines.llm.batch import check_export_path, read_outputs, request_line, summary, write_requests
from swords_lexsub.errors import SwordsError
from swords_lexsub.terminal import say
from swords_metric import TaskSet


def settings_of(header: dict) -> dict:
    """What a custom_id's digest holds of the judging: its judge, server and tasks file (not the agreement)."""
    return {key: value for key, value in header.items() if key != "agreement"}


def check_export(export: str | None, paths: dict[str, Path], force: bool) -> None:
    """Before any work: the export file is none of the judging's files, and takes the requests."""
    if not export:
        return
    resolved = Path(export).resolve()
    if any(path.resolve() == resolved for path in paths.values()):
        raise SwordsError(f"--batch-export {export} is one of the judging's files (--output): name another file")
    check_export_path(Path(export), force)


def exporter(judge: LLMJudge, header: dict, path: Path) -> Callable[[list], None]:
    """What judge_tasks calls with the items not yet judged: their requests written to `path`, said on stderr."""

    def export(items: list) -> None:
        if not items:
            say(f"every candidate is judged already: nothing to export to {path}")
            return
        requests = judge.batch_requests(items, settings_of(header))
        count = write_requests(path, (request_line(name, endpoint, body) for _, name, endpoint, body in requests))
        say(
            f"wrote {path}: {count} requests, one a candidate not yet judged ({judge.constraint} constraint); "
            "nothing was sent. Give it to OpenAI's Batch API or vLLM's run_batch, then rerun this command with "
            "--batch-import and the output file"
        )

    return export


def import_answers(judge: LLMJudge, taskset: TaskSet, header: dict, path: Path) -> None:
    """The judge answers from the output file at `path`, refused (read_outputs) before anything is journalled."""
    items = [(task, candidate) for task in taskset.tasks for candidate in task.candidates]
    expected = {name: item for item, name, _, _ in judge.batch_requests(items, settings_of(header))}
    judge.answer_from(read_outputs(path, expected))


def import_summary(judge: LLMJudge, asked: int, failed: list[Verdict]) -> str | None:
    """The one line naming what an import left unjudged (llm/batch.summary); None when it left nothing."""
    if judge.imported is None or not failed:
        return None
    keys = {batch_item(verdict.task, verdict.candidate): verdict.failure for verdict in failed}
    missing = [key for key in keys if key not in judge.imported.outcomes]
    failures = {key: why.removeprefix("no answer: ") for key, why in keys.items() if key not in missing}
    then = "the judgments made are written: import a file with the rest, or rerun without --batch-import"
    return summary(judge.imported, failures, missing, asked - len(failed), asked, "candidates", then)
