"""The user pages read easily: short sentences (at most 18 words on average, none over 50) and code lines that fit
the column (at most 100 characters). The examples read only what an installed package has, never a clone's space/.

Sentences are counted in the Markdown's prose: code blocks, tables, headings and HTML are left out, a link counts
as its text, inline code as one word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .doc_blocks import DOCS, REPO_ROOT

# Every page of the manual but the developers' own: a page added under docs/ is held to the same plain words.
USER_PAGES = sorted(page for page in DOCS.rglob("*.md") if page.name != "development.md")
MAX_AVERAGE_WORDS, MAX_WORDS, MAX_CODE_WIDTH = 18, 50, 100

# A full stop that ends no sentence: abbreviations and initials.
_ABBREVIATIONS = re.compile(r"\b(?:e\.g|i\.e|al|vs|cf|etc|approx|Fig|Sec|No|Eq)\.$|\b[A-Z]\.$")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]*_]*\s+(?=[\"'(\[*_`]*[A-Z0-9`])")


def prose(text: str) -> list[str]:
    """The page's paragraphs and list items as plain text, one a string."""
    units, current, fenced = [], [], False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        new_unit = not stripped or stripped.startswith(("#", "|", "<", "!!!", "???")) or _ITEM.match(stripped)
        if fenced or new_unit:
            if current:
                units.append(" ".join(current))
            current = []
            if fenced or not stripped or not _ITEM.match(stripped):
                continue
            stripped = _ITEM.sub("", stripped, count=1)
        current.append(stripped)
    if current:
        units.append(" ".join(current))
    return [_plain(unit) for unit in units if _plain(unit)]


_ITEM = re.compile(r"^(?:[-*+]|\d+\.)\s+")


def _plain(unit: str) -> str:
    unit = re.sub(r"`[^`]*`", "CODE", unit)  # inline code: one word
    unit = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", unit)  # a link: its text
    unit = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", unit)
    return re.sub(r"[*_]{1,2}(?=\w)|(?<=\w)[*_]{1,2}", "", unit).strip()


def sentences(text: str) -> list[str]:
    found = []
    for unit in prose(text):
        pieces, start = [], 0
        for match in _SENTENCE_END.finditer(unit):
            if not _ABBREVIATIONS.search(unit[start : match.start()].rstrip("\"')]*_")):
                pieces.append(unit[start : match.start()])
                start = match.end()
        pieces.append(unit[start:])
        found += [piece.strip() for piece in pieces if words(piece)]
    return found


def words(sentence: str) -> int:
    return len(re.findall(r"[\w@%$][\w@%$'’.,/+:=-]*", sentence))


def wide_code_lines(text: str) -> list[str]:
    lines, fenced = [], False
    for line in text.splitlines():
        if line.strip().startswith(("```", "~~~")):
            fenced = not fenced
        elif fenced and len(line) > MAX_CODE_WIDTH:
            lines.append(line)
    return lines


def test_the_splitter_counts_sentences_as_a_reader_does():
    text = (
        "# A heading\n\nOne short one. A second, e.g. with `swords run --k 10` and [a link](x.md).\n\n"
        "| a | table |\n| --- | --- |\n\n```bash\nnot. prose. here.\n```\n\n- an item\n- Another. Two.\n"
    )
    assert sentences(text) == [
        "One short one.",
        "A second, e.g. with CODE and a link.",
        "an item",
        "Another.",
        "Two.",
    ]
    assert [words(s) for s in sentences(text)] == [3, 8, 2, 1, 1]


@pytest.mark.parametrize("page", USER_PAGES, ids=lambda page: str(page.relative_to(REPO_ROOT)))
def test_user_pages_have_short_sentences_and_narrow_code(page: Path):
    text = page.read_text(encoding="utf-8")
    found = sentences(text)
    counts = [words(sentence) for sentence in found]
    average = sum(counts) / len(counts)
    long = [sentence for sentence, count in zip(found, counts, strict=True) if count > MAX_WORDS]
    assert average <= MAX_AVERAGE_WORDS, f"{page.name}: {average:.1f} words a sentence on average"
    assert not long, f"{page.name}: sentences over {MAX_WORDS} words: {long}"
    wide = wide_code_lines(text)
    assert not wide, f"{page.name}: code lines over {MAX_CODE_WIDTH} characters: {wide}"
    # An example that reads the clone's space/ folder would fail from an empty folder outside a clone.
    assert "space/results" not in text, f"{page.name}: reads space/results/, which only a clone has"
