"""Prediction files read as streams: the numbers of the in-memory path for every layout a file can have (a target
cut across read blocks included), memory that does not grow with the file, and each limit (the file's size, its
expansion, a target's length, unknown ids) enforced as the file is read, before it is held; each fault made for
real (files on disk, the command in a subprocess, its peak memory measured)."""

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

from ..baselines.run_helpers import SWORDS
from ..conftest import REPO_ROOT
from .prediction_files import evaluate, one_line, write

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
def scorer() -> Scorer:
    return Scorer.from_dataset("swords", "test")


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


def test_too_many_unknown_ids_stop_the_reading(swords_test, scorer, tmp_path, monkeypatch):
    from swords_metric.references import target_ids as alignment

    monkeypatch.setattr(alignment, "MAX_UNKNOWN_IDS", 5)
    path = write(
        tmp_path / "elsewhere.jsonl",
        "".join(json.dumps({"id": f"x{i}", "substitutes": ["a"]}) + "\n" for i in range(50)),
    )
    with pytest.raises(UnknownTargetsError, match="6 of the first 6 target ids are not in swords test"):
        scorer.read(path)
