"""The project's documents (the README, the manual's pages, the package cards) and their fenced code blocks, for
the tests that run them as written."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parent.parent
DOCS = REPO_ROOT / "docs"
README = REPO_ROOT / "README.md"
CARDS = (REPO_ROOT / "swords_metric" / "README.md", REPO_ROOT / "space" / "README.md")
# A fence may be indented (a block inside a list item); its code is taken without that indent.
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<language>\w*)[^\n]*\n(?P<code>.*?)^(?P=indent)```", re.S | re.M)


@dataclass(frozen=True)
class Block:
    language: str
    code: str
    line: int  # 1-based line of the opening fence
    path: Path

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO_ROOT)}:{self.line}"

    def commands(self) -> list[tuple[int, str]]:
        """(line, command) for each shell command: comments and blank lines dropped, continued lines joined."""
        found, pending, start = [], "", 0
        for number, text in enumerate(self.code.splitlines(), self.line + 1):
            if not pending and (not text.strip() or text.lstrip().startswith("#")):
                continue
            if not pending:
                start = number
            if text.endswith("\\"):
                pending += text[:-1] + " "
                continue
            found.append((start, (pending + text).strip()))
            pending = ""
        return found


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        indent = len(match.group("indent"))
        code = "".join(line[indent:] for line in match.group("code").splitlines(keepends=True))
        found.append(Block(match.group("language"), code, text.count("\n", 0, match.start()) + 1, path))
    return found


def _nav_files(entries) -> list[str]:
    files = []
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        files += _nav_files(value) if isinstance(value, list) else [value]
    return files


def manual_pages() -> list[Path]:
    """The manual's pages in mkdocs.yml's navigation order (those written at build time are not in docs/)."""
    config = yaml.safe_load((REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    return [DOCS / name for name in _nav_files(config["nav"]) if (DOCS / name).is_file()]


def documents() -> list[Path]:
    """Everything a user reads, in the order a reader meets it: the README, the manual, the package cards."""
    return [README, *manual_pages(), *CARDS]
