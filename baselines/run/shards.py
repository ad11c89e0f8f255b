"""Shards (`--shard K/N` on `swords run` and `swords judge llm`): the partition, the shard files, their join.

The partition depends on each id alone: a target id (a judge's item: its task id and substitute) is in part
sha256(id) mod N, and shard K (1-based) answers part K - 1. A shard writes `OUTPUT.shard-K-of-N` beside the output
(`NAME.jsonl.shard-K-of-N` for a run): a journal as the run's (the run's header with `"shard": {"k", "n"}`, one
answer a line), kept when the shard ends, with a `{"report": …}` line of what it used. The same command without
`--shard` joins the shard files it finds: each checked (this run's settings, one N, its name's part, only ids of
its part, held by no running shard), their answers put into the output's journal, the rest answered, the outputs
written as one machine writes them; then the joined shard files go (their answers are all in the output).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
from collections.abc import Callable
from contextlib import ExitStack, closing
from dataclasses import dataclass, field
from pathlib import Path

from swords_baselines.run.extent import identity, reach, shown_reach
from swords_baselines.run.files import RunLock, open_in_place, whole_lines
from swords_baselines.run.journal import journal_answer, journal_line, report_record, same_settings, settings_difference
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_writer
from swords_lexsub.terminal import say, shown

_SHARD_TEXT = re.compile(r"([0-9]+)/([0-9]+)")
SHARD_HELP = (
    "answer only part K of N (K from 1 to N) of the targets, split by a hash of each id, into "
    "OUTPUT.shard-K-of-N beside the output; the same command without --shard joins the shards it finds there. "
    "A 0-based array index (Kubernetes' $JOB_COMPLETION_INDEX) is K - 1"
)


@dataclass(frozen=True)
class Shard:
    k: int  # 1-based
    n: int

    def holds(self, key: str) -> bool:
        """Whether the id `key` is in this shard's part."""
        digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()
        return int.from_bytes(digest[:8], "big") % self.n == self.k - 1

    def record(self) -> dict[str, int]:
        return {"k": self.k, "n": self.n}

    def __str__(self) -> str:
        return f"shard {self.k} of {self.n}"


def shard_option(text: str) -> Shard:
    """argparse type of --shard: K/N, 1 <= K <= N."""
    found = _SHARD_TEXT.fullmatch(text.strip())
    if not found:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N (e.g. 2/3: the second of three parts)")
    k, n = int(found[1]), int(found[2])
    if n < 1 or not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"{text!r}: K counts from 1 to N (N at least 1); a 0-based index is K - 1")
    return Shard(k, n)


def item_key(task_id: str, substitute: str) -> str:
    """A judge's item as the partition sees it."""
    return f"{task_id}\n{substitute}"


def shard_path(base: Path, shard: Shard) -> Path:
    """The shard file of `base` (a run's predictions file, a judge's output)."""
    return base.with_name(f"{base.name}.shard-{shard.k}-of-{shard.n}")


def lock_paths(path: Path) -> dict[str, Path]:
    """What RunLock takes for a shard file: its lock (hidden, beside it) and the file named in its message."""
    return {"lock": path.with_name(f".{path.name}.lock"), "jsonl": path}


def shard_files(base: Path) -> list[tuple[Path, Shard]]:
    """The shard files beside `base`, by N then K; a name with K outside 1..N is refused."""
    pattern = re.compile(re.escape(base.name) + r"\.shard-([0-9]+)-of-([0-9]+)")
    try:
        entries = list(os.scandir(base.parent))
    except OSError:
        return []
    found = []
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match:
            shard = Shard(int(match[1]), int(match[2]))
            if not 1 <= shard.k <= shard.n:
                raise SwordsError(f"{entry.path}: not a shard's name (K runs from 1 to N); remove or rename it")
            found.append((Path(entry.path), shard))
    return sorted(found, key=lambda item: (item[1].n, item[1].k))


def add_report(path: Path, report: dict) -> None:
    """Append what a shard's process used to its file (the join adds it up)."""
    if not report:
        return
    with open(open_in_place(path, os.O_WRONLY | os.O_APPEND), "a", encoding="utf-8") as shard_file:
        shard_file.write(json.dumps({"report": report}, ensure_ascii=False, allow_nan=False) + "\n")
        shard_file.flush()
        os.fsync(shard_file.fileno())


def _decimals(value: float) -> int:
    text = repr(value)
    return len(text.split(".")[1]) if "." in text and "e" not in text else 0


def merged_report(own: dict, reports: list[dict]) -> dict:
    """Its own figures plus the shards' (numbers added to their parts' decimals; any other figure: the first's)."""
    total = dict(own)
    for report in reports:
        for key, value in report.items():
            mine = total.get(key)
            numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (value, mine))
            if key not in total:
                total[key] = value
            elif numbers and math.isfinite(mine + value):
                added = mine + value
                total[key] = round(added, max(_decimals(mine), _decimals(value))) if isinstance(added, float) else added
    return total


def shard_lines(path: Path) -> list[tuple[int, bytes]]:
    """A shard file's whole lines after its header, numbered (a last line cut short by a kill is left out)."""
    data = path.read_bytes()
    lines = data[: data.rfind(b"\n") + 1].split(b"\n")[1:-1]
    return list(enumerate(lines, 2))


@dataclass
class Joined:
    """The shard files a join holds (locked), what they answered and what their processes used."""

    files: list[Path] = field(default_factory=list)
    n: int = 0  # the partition's parts
    answers: dict = field(default_factory=dict)  # key -> the record or prediction, in the files' order
    reports: list[dict] = field(default_factory=list)

    def remove(self) -> None:
        """The joined shard files go, once the output holds their answers."""
        for path in self.files:
            path.unlink(missing_ok=True)

    def say(self, output: Path, found: str) -> None:
        """The join's line: how many shard files, of how many parts, and what they hold."""
        say(f"joining {len(self.files)} shard files of {self.n} parts beside {output}: {found}")


def gather(base: Path, read_header, compare, stack: ExitStack, command: str) -> list[tuple[Path, Shard, dict]]:
    """The shard files beside `base`, checked and locked for the join: one N, each with a header (`read_header`) of its
    name's part and of this run (`compare(header)`: what differs, or None); one a running shard holds is refused."""
    found = shard_files(base)
    partitions = {shard.n: path for path, shard in found}
    if len(partitions) > 1:
        (n1, first), (n2, second) = list(partitions.items())[:2]
        raise SwordsError(
            f"{second} and {first} are shards of two partitions (of {n2} and of {n1} parts): the parts overlap; "
            f"remove one partition's files and rerun"
        )
    checked = []
    for path, shard in found:
        stack.enter_context(RunLock(lock_paths(path), command=f"{command} --shard {shard.k}/{shard.n}"))
        header = read_header(path)
        if header is None:
            raise SwordsError(
                f"{path}: not a shard file of `{command} --shard` (no header as it writes one); move it away, or "
                "choose another --output"
            )
        if header.get("shard") != shard.record():
            said = header.get("shard")
            raise SwordsError(
                f"{path}: its header says {shown(repr(said))}, its name {shard}: a renamed or copied file, whose "
                "parts may overlap; remove it and rerun that shard"
            )
        difference = compare({key: value for key, value in header.items() if key != "shard"})
        if difference is not None:
            raise SwordsError(
                f"{path}: {shard} of another run ({difference}); join it with those settings, or remove it"
            )
        checked.append((path, shard, header))
    return checked


def foreign_key(path: Path, number: int, key: str, shard: Shard) -> SwordsError:
    return SwordsError(
        f"{path}:{number}: {shown(repr(key))} is not in {shard}'s part (the parts overlap: an edited or copied "
        "file); remove it and rerun that shard"
    )


def join_run(paths: dict[str, Path], header: dict, rows: list[dict], force: bool, stack: ExitStack) -> Joined:
    """Join the shard files into the journal (atomically), under `stack`'s locks; `force` discards it first."""
    from swords_baselines.run.ownership import journal_header

    wanted = identity(header)

    def compare(recorded: dict) -> str | None:
        theirs = identity(recorded)
        return None if same_settings(theirs, wanted) else settings_difference(theirs, wanted)

    joined = Joined()
    for path, shard, recorded in gather(paths["jsonl"], journal_header, compare, stack, "swords run"):
        if reach(recorded) > reach(header):
            raise SwordsError(
                f"{path}: {shard} made with {shown_reach(recorded)}; a join with --limit {header.get('limit')} "
                f"would drop answers: rerun with --limit {recorded.get('limit') or 'none'} or none"
            )
        for number, line in shard_lines(path):
            report = report_record(line)
            if report is not None:
                joined.reports.append(report)
                continue
            try:
                target_id, prediction = journal_answer(line.decode("utf-8"))
            except (ValueError, RecursionError):
                raise SwordsError(
                    f"{path}:{number}: not a line `swords run --shard` writes; remove the file and rerun that shard"
                ) from None
            if not shard.holds(target_id):
                raise foreign_key(path, number, target_id, shard)
            joined.answers[target_id] = prediction
        joined.files.append(path)
        joined.n = shard.n
    if not joined.files:
        return joined

    def ours(journal: Path) -> bool:
        recorded = journal_header(journal)
        return recorded is not None and same_settings(identity(recorded), wanted)

    earlier = journal_so_far(paths["journal"], force, ours)
    if earlier is None:
        return joined
    have = set()
    for line in earlier.split(b"\n")[1:-1]:
        try:
            have.add(journal_answer(line.decode("utf-8"))[0])
        except (ValueError, RecursionError):
            continue  # the run names it
    ids = [row["id"] for row in rows]
    new = [journal_line(header["system"], t, joined.answers[t]) for t in ids if t in joined.answers and t not in have]
    taken = sum(tid in joined.answers for tid in ids)
    left = sum(tid not in joined.answers and tid not in have for tid in ids)
    joined.say(paths["jsonl"], f"{taken:,} of {len(ids):,} targets answered there, {left:,} to answer")
    if new:
        with atomic_writer(paths["journal"]) as seeded:
            seeded.write(earlier or json.dumps(header, allow_nan=False).encode("utf-8") + b"\n")
            seeded.write("".join(new).encode("utf-8"))
    return joined


def journal_so_far(journal: Path, force: bool, ours: Callable[[Path], bool]) -> bytes | None:
    """A journal's whole lines before a join adds to it: b"" when there is none (or `force` discarded it), None when
    it is not this run's (`ours` reads its header; the run refuses it in its own words, nothing of it touched)."""
    if force:
        journal.unlink(missing_ok=True)
    if not journal.exists():
        return b""
    return whole_lines(journal) if ours(journal) else None


def run_shard(
    cls, options: dict, identity_: dict, split: tuple[str, str], paths: dict, shard: Shard, **run_args
) -> int:
    """`swords run --shard K/N`: part K's answers into its shard file, resumable; `run_args`: limit, progress, force."""
    import swords_dataset
    from swords_baselines.run.extent import extent_header, limited_rows
    from swords_baselines.run.files import check_location
    from swords_baselines.run.ownership import journal_header
    from swords_baselines.run.runner import run

    limit, force = run_args["limit"], run_args["force"]
    path = shard_path(paths["jsonl"], shard)
    locks = lock_paths(path)
    check_location(paths["jsonl"], {"shard": path, "lock": locks["lock"]})
    if path.exists() and journal_header(path) is None and not force:
        raise SwordsError(
            f"{path} exists and was not written by `swords run --shard`; move it away, or pass --force to replace it"
        )
    system = cls(**options)
    system.check()
    system.for_benchmark(*split)
    with closing(system):  # the run starts it if its part has targets left
        split_rows = swords_dataset.rows(*split)
        rows = limited_rows(system.covers(split_rows), limit)
        header = {**extent_header(identity_, rows, len(split_rows), limit), "shard": shard.record()}
        mine = [row for row in rows if shard.holds(row["id"])]
        with RunLock(locks, command=f"swords run --shard {shard.k}/{shard.n}"):
            run(system, mine, paths["jsonl"], header, progress=run_args["progress"], force=force, shard=path)
            add_report(path, system.report())
    say(
        f"wrote {path} ({shard}: {len(mine):,} of {len(rows):,} targets); the same command without --shard "
        "joins the shards into the output"
    )
    return 0
