"""A run's extent: which of the split's targets it answers (`swords run --limit N`: the first N), and what a run of
one extent may do with another's journal or finished run on the same output.

The extent is no part of a run's identity: a run limited to 20 resumes one limited to 5, a full run completes a
limited one. A run never narrows what an output holds (a --limit below the targets stored is refused, no answer
lost). The header records the extent (`targets`, `split_targets`, `limit`), so a limited run cannot pass for a full.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

from swords_baselines.run.journal import journal_answer, same_settings, settings_difference
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_writer

EXTENT_KEYS = ("targets", "split_targets", "limit")
RECORD_KEYS = ("files", "report")  # what a finished run's record adds to its header


def identity(header: dict) -> dict:
    """What identifies a run in its header: everything but its extent and the hashes of its files."""
    return {key: value for key, value in header.items() if key not in (*EXTENT_KEYS, *RECORD_KEYS)}


def reach(header: dict) -> float:
    """How many of the split's first targets a header's run answers (its --limit); infinite for a whole run."""
    limit = header.get("limit")
    return limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else math.inf


def limited_rows(rows: list[dict], limit: int) -> list[dict]:
    """The first `limit` rows (all of them for 0)."""
    return rows[:limit] if limit > 0 else rows


def extent_header(identity_: dict, rows: list[dict], split_targets: int, limit: int) -> dict:
    """A run's header: its identity, then its extent."""
    header = {**identity_, "targets": len(rows)}
    if len(rows) < split_targets:  # a partial run (--limit, a system that covers only some targets)
        header["split_targets"] = split_targets
    if limit > 0:
        header["limit"] = limit
    return header


def held(header: dict) -> float:
    """How many targets a header's run answers ("targets", else its reach)."""
    targets = header.get("targets")
    valid = isinstance(targets, int) and not isinstance(targets, bool) and targets >= 0
    return targets if valid else reach(header)


def complete(header: dict) -> bool:
    """Whether a header's run answers every target it can: no --limit, or one it did not reach (1000 of 762)."""
    return held(header) < reach(header)


def shown_reach(header: dict) -> str:
    return f"--limit {header['limit']}" if reach(header) < math.inf else "every target (no --limit)"


def check_not_narrowed(where: Path, recorded: dict, limit: int, what: str) -> None:
    """Refuse a --limit below the targets answered at `where` (not its --limit: 762 after a full 762 drops none)."""
    answered = held(recorded)
    if 0 < limit < answered:
        raise SwordsError(
            f"{where} holds {what} of {answered:,} targets, made with {shown_reach(recorded)}; a run with --limit "
            f"{limit} would drop answers: rerun with --limit {answered} or more (or none), choose another --output, "
            "or pass --force"
        )


def stored_plan(paths: dict[str, Path], stored: dict, identity_: dict, limit: int) -> tuple[bool, bool]:
    """(reuse, extend) for a finished run at the output: reuse it when it is this run answering the same targets,
    extend it when it is this run with a narrower --limit; another run, or one this would narrow, is refused."""
    from swords_baselines.run.ownership import prediction_file_is_ours

    recorded = {key: stored.get(key) for key in identity_}
    if not same_settings(recorded, identity_):
        raise SwordsError(
            f"{paths['jsonl']} holds a finished run with other settings "
            f"({settings_difference(recorded, identity_)}); pass --force to replace it, or choose another --output"
        )
    check_not_narrowed(paths["jsonl"], stored, limit, "a finished run")
    ours = all(prediction_file_is_ours(paths, role, stored) for role in ("jsonl", "upstream"))
    wanted = reach({"limit": limit})
    reuse = ours and (reach(stored) == wanted or (complete(stored) and wanted >= held(stored)))
    return reuse, ours and not reuse


def part_of_split(header: dict) -> tuple[int, int] | None:
    """(targets answered, the split's targets) of a run over part of its split, from its header; else None."""
    targets, split_targets = header.get("targets"), header.get("split_targets")
    if not all(isinstance(count, int) and not isinstance(count, bool) for count in (targets, split_targets)):
        return None
    return (targets, split_targets) if 0 <= targets < split_targets else None


def targets_text(header: dict) -> str:
    """The run's targets as its printed title says them: a partial run says so, and why."""
    if not header.get("split_targets"):
        return f"{header['targets']} targets"
    why = f"--limit {header['limit']}" if reach(header) < math.inf else "a partial run"
    return f"{header['targets']} of the split's {header['split_targets']} targets: {why}, scored on those only"


def seed_journal(paths: dict[str, Path], stored: dict, journal_line) -> None:
    """A journal (atomically) of a finished limited run's predictions: a wider run answers only what it lacks."""
    with atomic_writer(paths["journal"]) as journal, open(paths["jsonl"], encoding="utf-8") as predictions:
        header = {key: value for key, value in stored.items() if key not in RECORD_KEYS}
        journal.write(json.dumps(header, allow_nan=False).encode("utf-8") + b"\n")
        for number, line in enumerate(predictions, 1):
            try:
                target_id, prediction = journal_answer(line)
            except (ValueError, RecursionError):
                raise SwordsError(
                    f"{paths['jsonl']}:{number}: not a prediction as a run writes it; pass --force to start afresh"
                ) from None
            journal.write(journal_line(target_id, prediction).encode("utf-8"))


def restate_header(path: Path, header: dict) -> None:
    """Give a journal, atomically, the header of the run of another extent resuming it."""
    with open(path, "rb") as journal, atomic_writer(path) as restated:
        journal.readline()
        restated.write(json.dumps(header, allow_nan=False).encode("utf-8") + b"\n")
        shutil.copyfileobj(journal, restated)
