"""`swords run`'s batch files: `--batch-export FILE` writes the requests of the targets not yet answered (the journal
tells) as an OpenAI Batch API input file, sending nothing; `--batch-import FILE` takes a Batch API or vLLM run_batch
output file as the server's answers, and the run finishes as online (the runner: parsing, the journal, the outputs).
The files' format and the custom_ids are llm/batch.py's.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from swords_baselines.llm.batch import check_export_path, read_outputs, request_line, write_requests
from swords_baselines.run.extent import identity
from swords_baselines.run.runner import read_journal
from swords_baselines.system import System
from swords_lexsub.errors import SwordsError


def check_batch_options(
    system: type[System], name: str, export: str | None, imported: str | None, force: bool, paths: dict[str, Path]
) -> None:
    """Before any work: one batch option, for a system that sends requests; the export never one of `paths`."""
    if export and imported:
        raise SwordsError("--batch-export writes requests and --batch-import reads answers: pass one of them")
    option = "--batch-export" if export else "--batch-import" if imported else None
    if option is None:
        return
    if not hasattr(system, "batch_requests"):
        raise SwordsError(f"{option}: {name} sends no requests (it answers here); only --system llm has batch files")
    if export:
        resolved = Path(export).resolve()
        clash = next((role for role, path in paths.items() if path.resolve() == resolved), None)
        if clash is not None:
            raise SwordsError(f"--batch-export {export} is the run's {clash} file ({paths[clash]}): name another file")
        check_export_path(Path(export), force)


def export_requests(system: System, rows: Sequence[dict], paths: dict[str, Path], header: dict, path: Path,
                    force: bool) -> str:  # fmt: skip
    """Write the requests of `rows` not yet answered (the journal's answers kept, --force discards them) to `path`;
    returns the line saying what was written. The caller holds the output's RunLock."""
    done = read_journal(paths["journal"], header, {row["id"] for row in rows}, force)
    todo = [row for row in rows if row["id"] not in done]
    if not todo:
        return f"{paths['journal']} answers every target already: nothing to export; rerun without --batch-export"
    requests = system.batch_requests(todo, identity(header))
    count = write_requests(path, (request_line(name, endpoint, body) for _, name, endpoint, body in requests))
    kept = f" ({len(done)} answered ones are in {paths['journal']})" if done else ""
    return (
        f"wrote {path}: {count} requests, one a target not yet answered{kept}; nothing was sent. Give it to OpenAI's "
        "Batch API or vLLM's run_batch, then rerun this command with --batch-import and the output file"
    )


def import_answers(system: System, rows: Sequence[dict], header: dict, path: Path) -> None:
    """The system answers from the output file at `path`, refused (read_outputs) before anything is journalled."""
    expected = {name: target for target, name, _, _ in system.batch_requests(rows, identity(header))}
    system.answer_from(read_outputs(path, expected))
