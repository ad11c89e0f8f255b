"""The fenced code blocks of the project's READMEs, for the tests that run them as written."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Block:
    language: str
    code: str
    line: int  # 1-based line of the opening fence

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
    return [Block(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)]
