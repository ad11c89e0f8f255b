"""A run's journal lines: an answer's line, read back strictly; a shard's report line; and how two runs' recorded
settings compare (runner.py writes and resumes the journal; extent.py and shards.py read and join it)."""

from __future__ import annotations

import json
import math
import re

from swords_baselines.run.ownership import one_key_record, strict_json
from swords_baselines.system import Prediction
from swords_lexsub.errors import SwordsError

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _flat(header: dict) -> dict:
    options = header.get("options")
    return {**{k: v for k, v in header.items() if k != "options"}, **(options if isinstance(options, dict) else {})}


def _shown_value(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def settings_difference(recorded: dict, wanted: dict, most: int = 3) -> str:
    """What differs, as "option: 'recorded' then, 'wanted' now": the system, else the benchmark, then `most` more."""
    if recorded.get("system") != wanted.get("system"):
        return f"system: {_shown_value(recorded.get('system'))} then, {_shown_value(wanted.get('system'))} now"
    old, new = _flat(recorded), _flat(wanted)
    differing = sorted(
        (key for key in set(old) | set(new) if old.get(key) != new.get(key)),
        key=lambda key: (key not in ("dataset", "split"), key),
    )
    parts = [f"{key}: {_shown_value(old.get(key))} then, {_shown_value(new.get(key))} now" for key in differing[:most]]
    if len(differing) > most:
        parts.append(f"and {', '.join(differing[most:])}")
    return "; ".join(parts) or "the same options in another form"


def same_settings(a: dict, b: dict) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def journal_answer(line: str) -> tuple[str, Prediction]:
    """A journal line's target id and prediction (strict JSON, [string, finite number] pairs), else ValueError."""
    record = strict_json(line)
    if not isinstance(record, dict) or not isinstance(record.get("id"), str):
        raise ValueError("not an answer")
    substitutes = record.get("substitutes")
    if not isinstance(substitutes, list):
        raise ValueError("no substitutes")
    prediction = []
    for item in substitutes:
        if not (
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[0], str)
            and isinstance(item[1], (int, float))
            and not isinstance(item[1], bool)
            and math.isfinite(item[1])
        ):
            raise ValueError("not a [substitute, score] pair")
        prediction.append((item[0], float(item[1])))
    return record["id"], prediction


def journal_line(system: str, target_id: str, prediction: Prediction) -> str:
    """The journal line of one answer (a lone surrogate becomes U+FFFD; a score not finite is refused)."""
    substitutes = []
    for substitute, score in prediction:
        try:
            value = float(score)
        except (TypeError, ValueError):
            value = math.nan
        if isinstance(score, (bool, str)) or not math.isfinite(value):
            raise SwordsError(f"{system}: target {target_id}: score {score!r} of {substitute!r} is not a finite number")
        substitutes.append([_LONE_SURROGATE.sub("\ufffd", str(substitute)), value])
    return json.dumps({"id": target_id, "substitutes": substitutes}, ensure_ascii=False, allow_nan=False) + "\n"


def report_record(line: bytes | str) -> dict | None:
    """The figures of a `{"report": …}` line of a shard file, else None."""
    report = one_key_record(line, "report")
    return report if isinstance(report, dict) else None
