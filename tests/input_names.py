"""Shared by the tests of the rule that no command writes over one of its own inputs (swords_lexsub/files.py's
refuse_input_as_output; issue 47): a file named another way, and the one line that refuses it."""

from __future__ import annotations

import os
from pathlib import Path

WAYS = {  # how the input is named, and how the refusal says the two names are one file
    "the same path": "the same path",
    "another spelling": "the same path",
    "a symbolic link": "through a symbolic link",
    "a hard link": "another name of it: a hard link or a bind mount",
}


def another_name(path: Path, way: str, folder: Path | None = None) -> Path:
    """A name of the file at `path`, made the given way (one of WAYS): a link beside it named `link-NAME` or
    `hard-NAME`, or with `folder`, of the same name in its `link/` or `hard/` (a wheel's name must stay one)."""
    if way == "the same path":
        return path
    if way == "another spelling":
        return path.parent / ".." / path.parent.name / path.name
    kind = "link" if way == "a symbolic link" else "hard"
    if folder is None:
        alias = path.with_name(f"{kind}-{path.name}")
    else:
        (folder / kind).mkdir(exist_ok=True)
        alias = folder / kind / path.name
    if kind == "link":
        alias.symlink_to(os.path.relpath(path, alias.parent))
    else:
        os.link(path, alias)
    return alias


def refusal(output: str, option: str, given: Path, way: str, written: Path | None = None) -> str:
    """The line that refuses writing `written` (the output as named, unless said) over the input `given`: `output`
    is how the command names its output ("--output x.jsonl"), `option` the input's option ("--tasks")."""
    where = "" if written is None else f": {written}"
    return (
        f"swords: error: {output}{where} is the same file as {option} {given} ({WAYS[way]}), which this command "
        "reads; writing it would destroy its own input, so it is refused even with --force: name another file"
    )


def regular_files(folder: Path) -> dict[str, bytes]:
    """The regular files of a folder (links aside) and their bytes."""
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and not p.is_symlink()}
