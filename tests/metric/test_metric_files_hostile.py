"""Hostile prediction files, each one line from `swords evaluate` (and `--compare`) naming the file, the line and
the item: a null score, an integer too long for Python, a file cut mid-string, keys given twice, extra data,
misplaced punctuation; and predictions written as standard JSON that read back as given. Each fault is made for
real (files on disk, the command in a subprocess)."""

from __future__ import annotations

import gzip
import json

import pytest

from swords_metric import MetricInputError, read_predictions

from .prediction_files import evaluate, one_line, write


def test_a_null_score_is_refused_as_nan_is(swords_test, tmp_path):
    """A null score used to become -position: ["junk", 0] ranked above ["media", null]."""
    tid = swords_test[3]["id"]
    lines = write(
        tmp_path / "null.jsonl",
        json.dumps({"id": swords_test[0]["id"], "substitutes": ["a"]})
        + "\n"
        + json.dumps({"id": tid, "substitutes": [["junk", 0], ["media", None]]})
        + "\n",
    )
    message = one_line(evaluate("--predictions", str(lines)))
    assert f"{lines}:2: target {tid}: item 1 ('media'): score is null" in message
    upstream = write(
        tmp_path / "null.json", json.dumps({"substitutes": {tid: [{"substitute": "media", "score": None}]}})
    )
    assert f"{upstream}:1: target {tid}: item 0 ('media'): score is null" in one_line(
        evaluate("--predictions", str(upstream))
    )
    # A dict item without a score still ranks by its position, as documented.
    by_position = write(
        tmp_path / "no-score.jsonl",
        json.dumps({"id": tid, "substitutes": [{"substitute": "junk"}, {"substitute": "media"}]}) + "\n",
    )
    assert read_predictions(by_position)[0] == {tid: [("junk", -0.0), ("media", -1.0)]}


def test_an_integer_too_long_for_python_names_its_item(swords_test, tmp_path):
    tid = swords_test[5]["id"]
    score = "9" * 5000
    lines = write(tmp_path / "digits.jsonl", f'{{"id": "{tid}", "substitutes": [["ok", 1], ["vast", {score}]]}}\n')
    message = one_line(evaluate("--predictions", str(lines)))
    assert f"{lines}:1: target {tid}: item 1 ('vast'): score is an integer of 5,000 digits" in message
    assert "set_int_max_str_digits" not in message
    upstream = write(tmp_path / "digits.json", f'{{"substitutes": {{\n"{tid}": [["vast", -{score}]]}}}}')
    assert f"{upstream}:2: target {tid}: item 0 ('vast'): score is an integer of 5,000 digits" in one_line(
        evaluate("--predictions", str(upstream))
    )


def test_a_file_cut_mid_string_names_line_and_column(swords_test, tmp_path):
    first = json.dumps({"id": swords_test[0]["id"], "substitutes": ["a"]})
    cut = write(tmp_path / "cut.jsonl", first + "\n" + first.replace(swords_test[0]["id"], swords_test[1]["id"])[:30])
    message = one_line(evaluate("--predictions", str(cut)))
    assert f"{cut}:2: not JSON (Unterminated string starting at column 8)" in message
    upstream = write(
        tmp_path / "cut.json", '{"substitutes": {\n  "' + swords_test[0]["id"] + '": [["fine", 1],\n    ["cu'
    )
    assert f"{upstream}:3: not JSON (Unterminated string starting at column 6)" in one_line(
        evaluate("--predictions", str(upstream))
    )
    gz = tmp_path / "cut.jsonl.gz"
    gz.write_bytes(gzip.compress((first + "\n").encode())[:-12])
    assert "the gzip data is truncated" in one_line(evaluate("--predictions", str(gz)))


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"substitutes": {"T1": ["a"], "T1": ["b"]}}', ":1: key 'T1' appears twice in one JSON object"),
        (
            '{"substitutes": {"T1": [{"substitute": "a", "substitute": "b"}]}}',
            ":1: key 'substitute' appears twice in one JSON object",
        ),
        ('{"substitutes": {"T1": ["a"]}, "substitutes": {}}', ":1: key 'substitutes' appears twice in one JSON"),
        ('{"substitutes": {"T1": ["a"]}}\n{"more": 1}', ":2: extra data after the JSON object at column 1"),
        ('{"substitutes": {"T1": ["a"] "x": []}}', ":1: expected ',' or '}', found '\"' at column 30"),
        ('{"substitutes": {"T1" ["a"]}}', ":1: expected ':', found '[' at column 23"),
        (
            '{"substitutes_lemmatized": false, "substitutes": [["a", 1]]}',
            ": 'substitutes' must map target ids to lists, got list",
        ),
        ('{"id": "T1", "substitutes": ["a"]}\n{"id": "T1", "substitutes": ["b"]}', ":2: target 'T1' appears twice"),
        ('{"id": "T1", "substitutes": ["a"]}\n[1, 2]', ":2: expected a JSON object with 'id' and 'substitutes'"),
        ('{"id": "T1", "substitutes": [["a", NaN]]}', ":1: target T1: item 0 ('a'): score is NaN"),
        ('{"id": "T1", "substitutes": ["a"]} {"id": "T2"}', ":1: not JSON (Extra data at column 36)"),
    ],
)
@pytest.mark.slow  # 4 s on two cores
def test_malformed_files_name_file_line_and_item(tmp_path, content, expected):
    """Read before the ids are looked up: each fault is named, not the unknown id T1."""
    path = write(tmp_path / "bad.predictions", content)
    assert f"{path}{expected}" in one_line(evaluate("--predictions", str(path)))


@pytest.mark.slow  # 4 s on two busy cores (load 4-6)
def test_compare_refuses_a_bad_second_file_in_one_line(swords_test, tmp_path):
    tid = swords_test[2]["id"]
    good = write(tmp_path / "good.jsonl", json.dumps({"id": tid, "substitutes": ["a", "b"]}) + "\n")
    faults = {
        "null.jsonl": (json.dumps({"id": tid, "substitutes": [["a", None]]}) + "\n", ":1: target"),
        "digits.jsonl": (f'{{"id": "{tid}", "substitutes": [["a", {"1" * 5000}]]}}\n', "integer of 5,000 digits"),
        "cut.jsonl": (json.dumps({"id": tid, "substitutes": ["abc"]})[:-5], ":1: not JSON (Unterminated string"),
    }
    for name, (content, expected) in faults.items():
        bad = write(tmp_path / name, content)
        done = evaluate("--compare", str(good), str(bad), "--bootstrap", "100")
        message = one_line(done)
        assert str(bad) in message and expected in message, message


@pytest.mark.parametrize("name", ["out.jsonl", "out.json", "out.jsonl.gz"])
def test_written_predictions_are_standard_json_and_read_back_as_given(tmp_path, name):
    """Infinite scores as "inf" / "-inf" (float() reads them, here and upstream), a lone surrogate as JSON's escape;
    never Infinity or NaN, which standard JSON has not."""
    from swords_metric import write_predictions

    predictions = {"t:1": [("first", float("inf")), ("a\ud800b", 0.5), ("last", float("-inf"))], "t:2": []}
    path = tmp_path / name
    write_predictions(path, predictions)
    raw = gzip.decompress(path.read_bytes()) if name.endswith(".gz") else path.read_bytes()

    def refuse(constant):
        raise AssertionError(f"non-standard JSON: {constant}")

    text = raw.decode("utf-8")  # valid UTF-8
    values = [json.loads(line, parse_constant=refuse) for line in text.splitlines()]
    assert '"inf"' in text and '"-inf"' in text and "\\ud800" in text and len(values) >= 1
    read, _ = read_predictions(path)
    assert read == {"t:1": predictions["t:1"], "t:2": []}
    with pytest.raises(MetricInputError, match=r"target t:3: item 0 \('x'\): score is NaN"):
        write_predictions(tmp_path / "nan.jsonl", {"t:3": [("x", float("nan"))]})
    assert not (tmp_path / "nan.jsonl").exists()
