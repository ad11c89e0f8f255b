"""`swords judge llm`'s shard files joined (the partition, the files and their checks: run/shards.py): each shard
file's records, every one of its part, appended to the output's journal, which the judge run then reads as it reads
an interrupted run's (each record checked there)."""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path

from swords_baselines.judge.outputs import journal_header, llm_record
from swords_baselines.run.journal import settings_difference
from swords_baselines.run.shards import Joined, foreign_key, gather, item_key, journal_so_far, shard_lines
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_writer

COMMAND = "swords judge llm"


def join_judge(paths: dict[str, Path], header: dict, force: bool, stack: ExitStack) -> Joined:
    """Append the judge's shard files' records to its journal (atomically), as run/shards.join_run joins a run's."""

    def compare(recorded: dict) -> str | None:
        return None if recorded == header else settings_difference(recorded, header)

    joined, lines = Joined(), []
    for path, shard, _ in gather(paths["jsonl"], journal_header, compare, stack, COMMAND):
        for number, line in shard_lines(path):
            record = llm_record(line)
            if record is None:
                raise SwordsError(
                    f"{path}:{number}: not a line `{COMMAND} --shard` writes; remove the file and rerun that shard"
                )
            task, substitute = record.get("task"), record.get("substitute")
            key = item_key(task, substitute) if isinstance(task, str) and isinstance(substitute, str) else None
            if key is None or not shard.holds(key):
                raise foreign_key(path, number, f"{task} {substitute}", shard)
            lines.append(line + b"\n")
        joined.files.append(path)
        joined.n = shard.n
    if not joined.files:
        return joined
    earlier = journal_so_far(paths["journal"], force, lambda journal: journal_header(journal) == header)
    if earlier is None:
        return joined  # another run's: the judge run refuses it in its own words, untouched
    joined.say(paths["jsonl"], f"{len(lines):,} judgments there")
    with atomic_writer(paths["journal"]) as seeded:
        seeded.write(earlier or json.dumps(header, ensure_ascii=False, allow_nan=False).encode("utf-8") + b"\n")
        seeded.write(b"".join(lines))
    return joined
