"""TSAR-2022's and ProLex's official formats as real files, read: as streams in bounded memory (a 47 MB TSV and CSV
cost what the gold-sized file costs), each refused past its stated limit before it is read, the extension choosing
the format, and a ProLex CSV read as evaluate.py (pandas) reads it (blank lines before the header skipped, a column
named twice refused). The figures are checked against the official scorers run beside ours (family_sources.py)."""

from __future__ import annotations

import csv
import gzip
import json
import random
import subprocess
import sys

import pytest

import swords_dataset
from swords_metric import MAX_PREDICTIONS_BYTES, MetricInputError, Scorer, scorer_for

from ..baselines.run_helpers import SWORDS, one_line, swords
from .family_sources import (
    PROLEX_DATA,
    need,
    prolex_gold_file,
    prolex_official,
    prolex_rows,
    tsar_gold_lines,
    write_tsar_predictions,
)

# Measures one command's peak memory from a bare interpreter (a child's maximum RSS counts the process it was
# forked from: not the test's, hundreds of MB).
LAUNCHER = """
import json, os, subprocess, sys
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
err = process.stderr.read()
_, status, usage = os.wait4(process.pid, 0)
print(json.dumps([usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), err.decode("utf-8", "replace")]))
"""


def peak_mb(dataset: str, path) -> float:
    command = [*SWORDS, "evaluate", "--dataset", dataset, "--split", "test", "--predictions", str(path), "--json"]
    done = subprocess.run(
        [sys.executable, "-S", "-c", LAUNCHER, *command], capture_output=True, text=True, timeout=600, check=True
    )
    peak, code, err = json.loads(done.stdout)
    assert code == 0, err
    return peak


def made_up(rng: random.Random, count: int) -> list[str]:
    return ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(5, 12))) for _ in range(count)]


def phrases(rng: random.Random, pool: list[str], count: int) -> list[str]:
    return [" ".join(rng.choices(pool, k=12)) for _ in range(count)]


@pytest.mark.slow
def test_official_files_are_read_in_bounded_memory(tmp_path):
    """This 47 MB TSV cost 450 MB (every answer of every line split and held; short answers cost more: a 63 MB TSV,
    1.76 GB), and nothing over 64 MB was read; now each line is read, checked and cut to what the metrics read, so
    memory is that of a gold-sized file."""
    rng = random.Random(0)
    pool = made_up(rng, 20_000)
    rows = swords_dataset.rows("tsar2022_en", "test")
    small = write_tsar_predictions(tmp_path / "small.tsv", [(s, t, a[:3]) for s, t, a in tsar_gold_lines("en", "test")])
    large = write_tsar_predictions(
        tmp_path / "large.tsv", [(row["context"], row["target"], phrases(rng, pool, 1_150)) for row in rows]
    )
    assert large.stat().st_size > 45 * 2**20
    prolex = swords_dataset.rows("prolex", "test")
    table = tmp_path / "large.csv"
    with open(table, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["target word", "Sentence", "Substitutes"])
        for row in prolex:
            writer.writerow([row["target"], row["context"], ", ".join(rng.choices(pool, k=8_000))[:70_000]])
    assert table.stat().st_size > 45 * 2**20
    floor = peak_mb("tsar2022_en", small)
    assert peak_mb("tsar2022_en", large) < floor + 60
    assert peak_mb("prolex", table) < floor + 60


@pytest.mark.slow  # 3 s on two cores
def test_each_format_is_refused_past_its_limit_before_it_is_read(tmp_path):
    scorer = Scorer.from_dataset("tsar2022_en", "test")
    lines = tsar_gold_lines("en", "test")
    for name in ("huge.tsv", "huge.csv", "huge.jsonl"):
        with open(tmp_path / name, "wb") as f:  # sparse: one byte over the limit, nothing to read
            f.truncate(MAX_PREDICTIONS_BYTES + 1)
    for name, config in (("huge.tsv", "tsar2022_en"), ("huge.csv", "prolex"), ("huge.jsonl", "tsar2022_en")):
        done = swords(
            "evaluate", "--dataset", config, "--split", "test", "--predictions", str(tmp_path / name), timeout=120
        )
        assert one_line(done).endswith(f"{name}: larger than 1,024 MB; not a predictions file") and done.seconds < 30
    written = write_tsar_predictions(tmp_path / "run.tsv", lines)
    with pytest.raises(MetricInputError, match=r"run\.tsv: larger than"):  # a smaller limit given (the Space's)
        scorer.read(written, max_bytes=2**15)
    long_line = write_tsar_predictions(tmp_path / "long.tsv", [(*lines[0][:2], ["word"] * 5000), *lines[1:]])
    with pytest.raises(MetricInputError, match=r"long\.tsv:1: the line holds more than 20,000 characters"):
        scorer.read(long_line, max_target_chars=20_000)
    prolex = scorer_for(prolex_rows("test"))
    target = prolex.rows[0]["target"]
    cell, row = tmp_path / "cell.csv", tmp_path / "row.csv"
    cell.write_text(f'target word,Sentence,Substitutes\n{target},s,"{"a, " * 50_000}"\n', encoding="utf-8")
    quoted = ",".join(['"' + "x" * 60_000 + "\n" + "y" * 60_000 + '"'] * 10)  # ten fields within csv's limit
    row.write_text(f"target word,Sentence,Substitutes\n{target},s,a,{quoted}\n", encoding="utf-8")
    with pytest.raises(
        MetricInputError,
        match=r"cell\.csv:2: a cell of more than 131,072 characters, the most a "
        r"cell may hold",
    ):
        prolex.read(cell)
    with pytest.raises(MetricInputError, match=r"row\.csv:\d+: a row of more than 1,048,576 characters"):
        prolex.read(row)


def test_the_extension_chooses_the_format(tmp_path):
    scorer = Scorer.from_dataset("tsar2022_en", "test")
    lines = [(s, t, a[:2]) for s, t, a in tsar_gold_lines("en", "test")]
    plain = write_tsar_predictions(tmp_path / "run.tsv", lines)
    expected = scorer.score(scorer.read(plain))
    zipped = tmp_path / "run.tsv.gz"
    zipped.write_bytes(gzip.compress(plain.read_bytes()))
    assert scorer.score(scorer.read(zipped)) == expected
    for name in ("run.txt", "run"):
        (tmp_path / name).write_bytes(plain.read_bytes())
        line = one_line(
            swords("evaluate", "--dataset", "tsar2022_en", "--split", "test", "--predictions", str(tmp_path / name))
        )
        assert line.endswith(
            f"{name}: not JSON, and its name ends in no other format's extension; the extension "
            "chooses the format: .tsv for TSAR-2022's official format (sentence<TAB>complex "
            "word<TAB>answers…), .jsonl or .json for JSON lines or the upstream result format, each "
            "also gzipped (.tsv.gz)"
        ), line
    keyed = tmp_path / "keyed.txt"  # JSON lines under another name: read as JSON
    keyed.write_text(
        "".join(
            json.dumps({"id": row["id"], "substitutes": given}) + "\n"
            for row, (_, _, given) in zip(scorer.rows, lines, strict=True)
        ),
        encoding="utf-8",
    )
    assert scorer.score(scorer.read(keyed)) == expected
    with pytest.raises(
        MetricInputError,
        match=r"run\.tsv: a \.tsv file is TSAR-2022's official format, not ProLex's; "
        r"the extension chooses the format: \.csv for ProLex's",
    ):
        scorer_for(prolex_rows("test")).read(plain)


def prolex_csv(path, header_lines: str, records: list[list[str]], between: str = "") -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(header_lines)
        writer = csv.writer(f, lineterminator="\n")
        for number, record in enumerate(records):
            writer.writerow(record)
            if number == 5:
                f.write(between)


def test_a_prolex_csv_is_read_as_evaluate_py_reads_it(tmp_path):
    """Blank lines (spaces and tabs too) before the header and between rows are skipped, as pandas skips them; a
    column named twice, which pandas renames (scoring the first) and csv overwrites (the last: acc F 0.0 where
    evaluate.py gives 0.4781), is refused."""
    example = need(PROLEX_DATA / "example_predictions.csv")
    with open(example, encoding="utf-8", newline="") as f:
        records = list(csv.reader(f))
    blank = tmp_path / "blank.csv"
    prolex_csv(blank, "\n  \n\t\n", records, between="\n \n")
    twice = tmp_path / "twice.csv"
    prolex_csv(
        twice, "", [record + (["Substitutes"] if i == 0 else ["none, of, these"]) for i, record in enumerate(records)]
    )
    gold = str(prolex_gold_file("test"))
    official = prolex_official(
        [{"gold": gold, "predictions": str(path), "ks": [10]} for path in (blank, twice)], tmp_path
    )
    scorer = scorer_for(prolex_rows("test"))
    ours = scorer.score(scorer.read(blank))
    assert official[0] == {f"{aspect}@10": [ours[f"{aspect}_{m}@10"] for m in "prf"] for aspect in ("acc", "prof")}
    assert round(official[1]["acc@10"][2], 4) == 0.4781  # evaluate.py scores the first Substitutes column
    with pytest.raises(
        MetricInputError,
        match=r"^\S*twice\.csv:1: the column 'Substitutes' appears twice "
        r"\(evaluate\.py would read the first, other readers the last\)",
    ):
        scorer.read(twice)
