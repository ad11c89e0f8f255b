"""Prediction files read as streams: the numbers of the in-memory path for every layout a file can have, memory
that does not grow with the file, and every hostile file one line from `swords evaluate` (and `--compare`),
each fault made for real (files on disk, the command in a subprocess)."""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
import time
import zlib

import pytest

import swords_dataset
from swords_metric import MAX_PREDICTIONS_BYTES, MetricInputError, Scorer, read_predictions
from swords_metric.references.target_ids import UnknownTargetsError

from ..conftest import REPO_ROOT

SWORDS = [sys.executable, "-m", "swords_lexsub.cli"]
# Starts a command and prints its exit code, peak RSS (MB) and stderr as JSON. The kernel's maximum RSS of a
# child counts the process it was forked from, so the command is started from this bare interpreter rather
# than from pytest (hundreds of MB).
LAUNCHER = """
import json, os, subprocess, sys
with open(os.devnull, "wb") as out:
    process = subprocess.Popen(sys.argv[1:], stdout=out, stderr=subprocess.PIPE)
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
print(json.dumps([os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024, err.decode("utf-8", "replace")]))
"""


@pytest.fixture(scope="module")
def swords_test() -> list[dict]:
    return swords_dataset.rows("swords", "test")


@pytest.fixture(scope="module")
def scorer() -> Scorer:
    return Scorer.from_dataset("swords", "test")


def evaluate(*args: str, split: tuple[str, str] = ("swords", "test")) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*SWORDS, "evaluate", "--dataset", split[0], "--split", split[1], "--bootstrap", "0", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )


def one_line(done: subprocess.CompletedProcess) -> str:
    """The error of a refused file: exit 2, exactly one line on stderr, no traceback."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-3000:]
    return lines[0]


def peak_of_evaluate(*args: str, split: tuple[str, str] = ("swords", "test")) -> tuple[int, float, str]:
    """(exit code, whole-process peak RSS in MB, stderr) of `swords evaluate`."""
    command = [*SWORDS, "evaluate", "--dataset", split[0], "--split", split[1], "--json", *args]
    done = subprocess.run(
        [sys.executable, "-S", "-c", LAUNCHER, *command],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    code, peak, stderr = json.loads(done.stdout)
    return code, peak, stderr


def system(rows: list[dict], seed: int = 3, extra: int = 20) -> dict[str, list[list]]:
    """Every target's own substitutes among other targets' words, shuffled, with scores that tie."""
    rng = random.Random(seed)
    words = [s["substitute"] for row in rows for s in row["substitutes"]]
    out = {}
    for row in rows:
        chosen = [s["substitute"] for s in row["substitutes"]] + rng.sample(words, extra) + [row["target"]]
        rng.shuffle(chosen)
        out[row["id"]] = [[word, float(rng.randrange(5))] for word in chosen]
    return out


def numbers(result: dict) -> dict:
    return {key: value for key, value in result.items() if isinstance(value, float | int) and key != "id_scheme"}


# --- The same numbers, however the file is laid out -----------------------------------------------------------


@pytest.mark.slow  # 6 s on two cores
def test_every_layout_of_a_file_scores_as_the_predictions_in_memory(swords_test, scorer, tmp_path):
    predictions = system(swords_test)
    expected = scorer.score(predictions, bootstrap=200)
    by_line = "".join(json.dumps({"id": tid, "substitutes": items}) + "\n" for tid, items in predictions.items())
    upstream = {"substitutes_lemmatized": False, "substitutes": predictions}
    layouts = {
        "lines.jsonl": by_line.encode(),
        "crlf-blank-lines.jsonl": ("\r\n\n".join(by_line.splitlines()) + "\r\n\n  \n").encode(),
        "bom.jsonl": b"\xef\xbb\xbf" + by_line.encode(),
        "lines.jsonl.gz": gzip.compress(by_line.encode()),
        "one-line.json": json.dumps(upstream).encode(),
        "pretty.json": json.dumps(upstream, indent=2).encode(),  # a target's list spans many lines
        "flag-last.json.gz": gzip.compress(
            json.dumps(
                {"substitutes": predictions, "substitutes_lemmatized": True, "note": {"any": ["other", "member"]}}
            ).encode()
        ),
        "dicts.jsonl": "".join(
            json.dumps({"substitutes": [{"substitute": s, "score": x} for s, x in items], "id": tid}) + "\n"
            for tid, items in predictions.items()
        ).encode(),
    }
    for name, content in layouts.items():
        path = tmp_path / name
        path.write_bytes(content)
        prepared = scorer.read(path)
        assert scorer.score(prepared, bootstrap=200) == expected, name
        assert prepared.file_format == ("upstream" if ".json" in name and "jsonl" not in name else "jsonl"), name
        assert read_predictions(path)[0] == {tid: [(s, x) for s, x in items] for tid, items in predictions.items()}
    assert scorer.read(tmp_path / "flag-last.json.gz").substitutes_lemmatized is True
    done = evaluate("--predictions", str(tmp_path / "pretty.json"), "--json")
    assert done.returncode == 0, done.stderr
    assert numbers(json.loads(done.stdout)) == numbers(scorer.score(predictions))


def test_a_target_split_across_read_blocks_is_read_whole(swords_test, scorer, tmp_path, monkeypatch):
    """Blocks of 7 bytes: every value, key and multi-byte character is cut somewhere."""
    from swords_metric.predictions import bounded_text

    predictions = {
        row["id"]: [[f"{s['substitute']} é€😀", -i] for i, s in enumerate(row["substitutes"])]
        for row in swords_test[:30]
    }
    upstream = tmp_path / "small.json"
    upstream.write_text(json.dumps({"substitutes": predictions}, ensure_ascii=False, indent=1), encoding="utf-8")
    lines = tmp_path / "small.jsonl"
    lines.write_text(
        "".join(json.dumps({"id": t, "substitutes": i}, ensure_ascii=False) + "\n" for t, i in predictions.items()),
        encoding="utf-8",
    )
    expected = {tid: [(s, float(x)) for s, x in items] for tid, items in predictions.items()}
    monkeypatch.setattr(bounded_text, "BLOCK_BYTES", 7)
    for path in (upstream, lines):
        assert read_predictions(path)[0] == expected
        assert scorer.score(scorer.read(path)) == scorer.score(predictions)


# --- Memory does not grow with the file -----------------------------------------------------------------------


@pytest.mark.slow  # 17 s on two cores
def test_a_large_file_is_scored_in_memory_that_does_not_grow_with_it(tmp_path):
    """The fault: a file cost ~19 times its size (json.loads of the whole text, then a dict of lists of
    tuples). 60 MB of short [substitute, score] items for every CoInCo dev target peaked above 1 GB; streamed,
    what is kept per target is a few dozen lemmas."""
    rows = swords_dataset.rows("coinco", "dev", columns=["id", "pos", "candidates"])
    words = sorted({c for row in rows for c in row["candidates"]})
    rng = random.Random(1)
    path = tmp_path / "coinco-dev.jsonl"
    with open(path, "w") as f:
        for row in rows:
            f.write(
                json.dumps(
                    {"id": row["id"], "substitutes": [[w, round(rng.random(), 2)] for w in rng.sample(words, 300)]}
                )
                + "\n"
            )
    assert path.stat().st_size > 55 * 2**20
    code, peak, stderr = peak_of_evaluate("--predictions", str(path), "--bootstrap", "0", split=("coinco", "dev"))
    assert code == 0, stderr[-2000:]
    assert peak < 700, peak  # the process itself (Python, numpy, the references) is about 300 MB


@pytest.mark.slow  # 10 s on two cores
def test_a_gzip_bomb_of_valid_json_is_refused_without_holding_its_expansion(swords_test, tmp_path):
    """The fault: a .gz expanding past the 1,024 MB limit was refused only after the whole expansion was held
    (2.1 GB). Here it is valid JSON all the way (whitespace between targets), so only the limit stops it."""
    bomb = tmp_path / "bomb.json.gz"
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b" " * (64 * 2**20)
    with open(bomb, "wb") as f:
        f.write(compressor.compress(f'{{"substitutes": {{"{swords_test[0]["id"]}": ["word"],'.encode()))
        for _ in range(MAX_PREDICTIONS_BYTES // len(block) + 1):
            f.write(compressor.compress(block))
        f.write(compressor.compress(b"}}") + compressor.flush())
    assert bomb.stat().st_size < 3 * 2**20
    code, peak, stderr = peak_of_evaluate("--predictions", str(bomb))
    assert code == 2 and stderr.strip().count("\n") == 0 and "expands past 1,024 MB" in stderr, stderr
    assert peak < 600, peak


def test_a_file_over_the_limit_is_refused_before_it_is_read(swords_test, tmp_path):
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as f:
        f.write(json.dumps({"id": swords_test[0]["id"], "substitutes": ["word"]}).encode() + b"\n")
        f.truncate(MAX_PREDICTIONS_BYTES + 1)  # sparse: reading it would take seconds, refusing it does not
    started = time.monotonic()
    assert f"{big}: larger than 1,024 MB" in one_line(evaluate("--predictions", str(big)))
    assert time.monotonic() - started < 30
    with pytest.raises(MetricInputError, match="larger than 1 MB"):
        Scorer.from_dataset("swords", "test").read(big, max_bytes=2**20)


def test_one_target_over_its_limit_is_refused_when_it_passes_it(swords_test, scorer, tmp_path):
    tid = swords_test[0]["id"]
    for name, head, tail in (
        ("long.jsonl", f'{{"id": "{tid}", "substitutes": ["', '"]}\n'),
        ("long.json", f'{{"substitutes": {{"{tid}": ["', '"]}}'),
    ):
        path = tmp_path / name
        path.write_text(head + "a" * 3000 + tail)
        with pytest.raises(MetricInputError, match=":1: .*more than 1,000 characters"):
            scorer.read(path, max_target_chars=1000)
        assert scorer.score(scorer.read(path, max_target_chars=4000))["targets_scored"] == 762


# --- Hostile files: one line, naming file, line and item -----------------------------------------------------


def write(path, text: str):
    path.write_text(text, encoding="utf-8")
    return path


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


def test_too_many_unknown_ids_stop_the_reading(swords_test, scorer, tmp_path, monkeypatch):
    from swords_metric.references import target_ids as alignment

    monkeypatch.setattr(alignment, "MAX_UNKNOWN_IDS", 5)
    path = write(
        tmp_path / "elsewhere.jsonl",
        "".join(json.dumps({"id": f"x{i}", "substitutes": ["a"]}) + "\n" for i in range(50)),
    )
    with pytest.raises(UnknownTargetsError, match="6 of the first 6 target ids are not in swords test"):
        scorer.read(path)


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
