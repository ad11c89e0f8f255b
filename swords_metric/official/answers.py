"""A system's answers for a FamilyScorer (TSAR-2022, ProLex): given in Python or read from a file whose extension
chooses its format (each may be gzipped): `.tsv` TSAR-2022's official format, `.csv` ProLex's (formats.py),
`.jsonl` / `.json` JSON lines or the upstream SWORDS result format; any other name is read as JSON when it starts
like JSON. Kept per row as the family's metrics read them (Family.kept), so that what is held is bounded by the
split, not by the file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from swords_metric.errors import MetricInputError
from swords_metric.families import Family, suffix_family
from swords_metric.official.formats import PROLEX_SUFFIX, TSAR_SUFFIX, official_lines
from swords_metric.predictions.bounded_text import text_blocks
from swords_metric.predictions.files import PredictionFile
from swords_metric.predictions.items import normalize_prediction_items

JSON_SUFFIXES = (".jsonl", ".json")
# An answer longer than MAX_ANSWER_CHARS that is not a gold substitute (the longest is 41 characters) is held as its
# first HELD_CHARS characters and a digest of the whole, which, like it, matches no gold substitute and equals
# exactly the answers equal to it (all that the metrics ask of an answer).
MAX_ANSWER_CHARS, HELD_CHARS = 200, 100


def formats_text(family: Family) -> str:
    """Which extension chooses which format, for messages."""
    return (
        f"the extension chooses the format: {family.official_suffix} for {family.reader.title}'s official "
        f"format ({family.official_format}), .jsonl or .json for JSON lines or the upstream result format, each "
        f"also gzipped ({family.official_suffix}.gz)"
    )


@dataclass
class Answers:
    """Per row of one FamilyScorer, in order: the answers kept (None: not in the predictions), how many were dropped
    (TSAR-2022: repeats and the complex word), and whether answers past the limit were left unread."""

    ranked: list[list[str] | None]
    source: str
    owner: object
    file_format: str | None = None
    dropped: list[int] = field(default_factory=list)
    cut: list[bool] = field(default_factory=list)

    @property
    def given(self) -> int:
        return sum(items is not None for items in self.ranked)

    @property
    def without_answers(self) -> int:
        """Rows not in the predictions, or given no answer at all."""
        return sum(
            items is None or not (items or dropped or cut)
            for items, dropped, cut in zip(self.ranked, self.dropped, self.cut, strict=True)
        )

    def subset(self, keep: list[int], owner: object) -> Answers:
        ranked, dropped, cut = ([values[i] for i in keep] for values in (self.ranked, self.dropped, self.cut))
        return replace(self, ranked=ranked, owner=owner, dropped=dropped, cut=cut)


class AnswerSlots:
    """Answers being gathered for the rows of a scorer (its `family`, `rows` and `k`), one row at a time."""

    def __init__(self, scorer, source: str, file_format: str | None):
        self.scorer = scorer
        size = len(scorer.rows)
        self.answers = Answers([None] * size, source, scorer, file_format, [0] * size, [False] * size)

    def put(self, position: int, given: Iterable[str]) -> None:
        family = self.scorer.family  # what it keeps of a row's answers, its gold words
        kept, dropped, cut = family.kept(given, self.scorer.rows[position], self.scorer.k)
        gold = family.gold_words(self.scorer.golds[position])
        self.answers.ranked[position] = [
            _held(answer, gold) if len(answer) > MAX_ANSWER_CHARS else answer for answer in kept
        ]
        self.answers.dropped[position], self.answers.cut[position] = dropped, cut


def _held(answer: str, gold) -> str:
    """A long answer as it is held (see MAX_ANSWER_CHARS); a gold substitute as it is."""
    if answer in gold:
        return answer
    digest = hashlib.sha256(answer.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    held = f"{answer[:HELD_CHARS]}\u2026[{len(answer):,} characters, sha256 {digest}]"
    return answer if held in gold else held


def ranked_strings(items, target_id: str, where: str = "") -> list[str]:
    """Substitutes best first: by score (descending), ties in the order given; plain lists as given."""
    pairs = normalize_prediction_items(items, target_id, where)
    return [substitute for substitute, _ in sorted(pairs, key=lambda pair: -pair[1])]


def prepare_answers(scorer, predictions, source: str) -> Answers:
    """Predictions given in Python (a mapping from target id, or one list per row), kept per row."""
    slots = AnswerSlots(scorer, source, None)
    for position, (items, row) in enumerate(
        zip(scorer.index.align(predictions, source).items, scorer.rows, strict=True)
    ):
        if items is not None:
            slots.put(position, ranked_strings(items, str(row["id"])))
    return slots.answers


def _starts_like_json(path: Path, max_bytes: int) -> bool:
    """Whether the file's first character that is not white space opens a JSON object (an empty file: True)."""
    blocks = text_blocks(path, max_bytes)
    try:
        for block in blocks:
            if block.strip():
                return block.lstrip().startswith("{")
        return True
    finally:
        blocks.close()


def read_answers(
    scorer, path: Path, max_bytes: int, max_target_chars: int, source: str, partial: bool = False
) -> Answers:
    """A predictions file, its format chosen by its extension (see the module), kept per row."""
    name, family = path.name.lower().removesuffix(".gz"), scorer.family
    suffix = next((suffix for suffix in (TSAR_SUFFIX, PROLEX_SUFFIX, *JSON_SUFFIXES) if name.endswith(suffix)), None)
    owner = suffix_family(suffix) or family  # the family whose official format the extension names
    if owner is not family:
        raise MetricInputError(
            f"{path}: a {suffix} file is {owner.reader.title}'s official format, not "
            f"{family.reader.title}'s; {formats_text(family)}"
        )
    if suffix is not None and suffix == family.official_suffix:
        slots = AnswerSlots(scorer, source, f"{family.name}-{suffix[1:]}")
        lines = official_lines(suffix, path, scorer.rows, max_bytes, max_target_chars, partial)
        for position, given, _ in lines:
            slots.put(position, given)
        return slots.answers
    file = PredictionFile(path, max_bytes, max_target_chars)
    if suffix is None and not _starts_like_json(path, max_bytes):
        raise MetricInputError(
            f"{path}: not JSON, and its name ends in no other format's extension; {formats_text(family)}"
        )
    tally = scorer.index.tally(source)
    slots: dict[str, AnswerSlots] = {}  # per id scheme, until the file shows which it uses
    for key, items, where in file:
        if key in tally.seen:
            raise file.duplicate(key, where)
        ranked = ranked_strings(items, key, where)
        for scheme, position in tally.add(key).items():
            if position is not None:
                slots.setdefault(scheme, AnswerSlots(scorer, source, None)).put(position, ranked)
    chosen = slots.get(tally.scheme()) or AnswerSlots(scorer, source, None)
    chosen.answers.file_format = file.format
    return chosen.answers
