"""The Batch API's output file as llm/batch.py reads it, line by line: each kind of failed line and why it is
named so, a line past the bound refused by its FILE:LINE, a failed retry after an answer changing nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from swords_baselines.llm.batch import MAX_LINE_BYTES, custom_id, read_outputs
from swords_lexsub.errors import SwordsError

BODY = {"model": "m", "prompt": "p"}


def ids(*items: str) -> dict[str, str]:
    return {custom_id(item, "completions", BODY, {"run": 1}): item for item in items}


def write(path: Path, *records: object) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path


def test_each_failed_line_is_named_by_why(tmp_path):
    expected = ids("a", "b", "c", "d", "e", "f")
    name = {item: key for key, item in expected.items()}
    answer = {"choices": [{"text": " x"}]}
    path = write(
        tmp_path / "out.jsonl",
        {"custom_id": name["a"], "response": {"status_code": 200, "body": answer}, "error": None},
        {"custom_id": name["b"], "response": {"status_code": 429, "body": {"error": "slow down"}}},
        {"custom_id": name["c"], "response": None, "error": None},
        {"custom_id": name["d"], "response": {"status_code": 200, "body": "ok"}},
        {"custom_id": name["e"], "response": None, "error": {"code": "expired", "message": "too late"}},
        ["a list"],
        {"custom_id": name["a"], "response": {"status_code": 500, "body": {}}},  # a failed retry: the answer stays
    )
    outputs = read_outputs(path, expected)
    why = {item: (outcome.line, outcome.failure) for item, outcome in outputs.outcomes.items()}
    assert why == {
        "a": (1, None),
        "b": (2, "HTTP 429: slow down"),
        "c": (3, "no response"),
        "d": (4, "no response body"),
        "e": (5, "error expired: too late"),
    }
    assert outputs.outcomes["a"].body == answer and outputs.unreadable == [(6, "no custom_id")]


def test_a_line_past_the_bound_is_refused_by_its_place(tmp_path):
    path = tmp_path / "out.jsonl"
    with open(path, "w") as f:
        f.write("{}\n")
        f.write('{"custom_id": "' + "x" * MAX_LINE_BYTES + '"}\n')
    with pytest.raises(SwordsError, match=f"^{path}:2: a line of more than {MAX_LINE_BYTES:,} bytes; nothing was"):
        read_outputs(path, {})


def test_a_custom_id_holds_the_request_and_the_settings():
    first = custom_id("t:1", "completions", BODY, {"run": 1})
    assert re.fullmatch("swords-[0-9a-f]{32}", first)  # what every batch API takes (some: [A-Za-z0-9_-]{1,64})
    assert first == custom_id("t:1", "completions", dict(BODY), {"run": 1})
    others = [
        custom_id("t:2", "completions", BODY, {"run": 1}),
        custom_id("t:1", "chat", BODY, {"run": 1}),
        custom_id("t:1", "completions", {**BODY, "prompt": "q"}, {"run": 1}),
        custom_id("t:1", "completions", BODY, {"run": 2}),
    ]
    assert len({first, *others}) == 5
