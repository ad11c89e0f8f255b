"""The files the golden cases score, made deterministically from the shipped benchmark rows (nothing from the
shared data folder, so that the cases run in a fresh clone), in one folder the cases run in:

- SWORDS-family splits, JSONL keyed by the dataset's ids: `gold.CONFIG.SPLIT.jsonl` (each target's first 12 gold
  substitutes in the gold's order, as [substitute, score] pairs, scores descending), `noisy.CONFIG.SPLIT.jsonl` (the
  first 10 gold substitutes reversed, as plain strings, with a word of no gold on every third target, the target
  itself on every fifth, a repeated substitute on every seventh and an empty one on every eleventh: each unusual
  input the notes count), `cut.CONFIG.SPLIT.jsonl` (the gold file's first 40 targets: a partial file),
  `few.CONFIG.SPLIT.jsonl` (the noisy file's first 5 targets, every unusual input on the first: for details files
  small enough to read);
- TSAR-2022: `gold.CONFIG.SPLIT.jsonl` and `gold.CONFIG.SPLIT.tsv` (every gold substitute, most annotators first),
  `noisy.CONFIG.SPLIT.jsonl` and `.tsv` (the same reversed, cut to 6), `cut.CONFIG.SPLIT.tsv` (the gold .tsv's first
  40 lines, the shared task's format of a partial run) and `cut.CONFIG.SPLIT.jsonl`;
- ProLex: `gold.prolex.SPLIT.csv` (its official CSV: target word, Sentence, Substitutes joined by ", ": the gold
  substitutes as listed, the acceptable first) and `.jsonl`, `noisy.prolex.SPLIT.csv` and `.jsonl` (reversed, cut to 8),
  `cut.prolex.SPLIT.jsonl` (the gold's first 40 targets);
- the Space's shipped predictions (space/results), copied: `coinco-oracle.swords.test.jsonl` (keyed by the upstream
  SWORDS library's ids) and `humans.swords_test_subset.test.jsonl`;
- bad files for the refusals: `bad-json.jsonl` (a line that is not JSON), `unknown-ids.jsonl` (ids of no split),
  `empty.jsonl`, `wrong-order.tsv`, `bad.csv` (no `target word` column), `details.txt` (an unknown details format);
- in a folder of their own, made only for the cases that need them (make_judged): judgments (judgment_cases.py's
  case, made as tests/metric makes it), `tasks.jsonl`, `a.judgments.jsonl`, `b.judgments.jsonl`, and the predictions
  they judge, `wordnet.swords.test.json` (the `wordnet` baseline's run, keyed by upstream ids, the upstream library's
  result JSON).
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import swords_dataset

from ..conftest import REPO_ROOT

SWORDS_SPLITS = (
    ("swords", "test"),
    ("swords", "dev"),
    ("swords", "dev+test"),
    ("swords_test_subset", "test"),
    ("swords_reannotated", "test"),
    ("coinco", "test"),
    ("semeval07", "test"),
    ("semeval07", "trial"),
)
TSAR_SPLITS = (("tsar2022_en", "test"), ("tsar2022_es", "test"), ("tsar2022_pt", "test"), ("tsar2022_en", "trial"))
PROLEX_SPLITS = (("prolex", "test"), ("prolex", "dev"))
SHIPPED = ("coinco-oracle.swords.test.jsonl", "humans.swords_test_subset.test.jsonl")
CUT = 40  # targets of a partial file
FEW = 5  # targets of a file whose details are recorded (each a few hundred bytes a substitute and a target)
OTHER_WORD = "xylophone"  # a word in no gold of these targets


def split_rows(config: str, split: str) -> list[dict]:
    """A split's rows, or a joined split's (its parts' rows, in order)."""
    return [row for part in split.split("+") for row in swords_dataset.rows(config, part)]


def gold_words(row: dict) -> list[str]:
    return [s["substitute"] for s in row["substitutes"]]


def noisy_words(row: dict, number: int, most: int = 10) -> list[str]:
    """The first `most` gold substitutes reversed, with each unusual input on some targets."""
    words = gold_words(row)[:most][::-1]
    if number % 3 == 0:
        words.insert(1, OTHER_WORD)
    if number % 5 == 0:
        words.insert(0, row["target"])
    if number % 7 == 0 and words:
        words.append(words[0])
    if number % 11 == 0:
        words.append("")
    return words


def write_jsonl(path: Path, records: list[dict]) -> None:
    path.write_text("".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records), encoding="utf-8")


def write_tsv(path: Path, rows: list[dict], answers: list[list[str]]) -> None:
    path.write_text(
        "".join(
            "\t".join([row["context"], row["target"], *given]) + "\n" for row, given in zip(rows, answers, strict=True)
        ),
        encoding="utf-8",
    )


def write_prolex_csv(path: Path, rows: list[dict], answers: list[list[str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["target word", "Sentence", "Substitutes"])
        for row, given in zip(rows, answers, strict=True):
            writer.writerow([row["target"], row["context"], ", ".join(given)])


def make_swords_family(folder: Path, config: str, split: str) -> None:
    rows = split_rows(config, split)
    gold = [
        {"id": row["id"], "substitutes": [[word, float(12 - i)] for i, word in enumerate(gold_words(row)[:12])]}
        for row in rows
    ]
    write_jsonl(folder / f"gold.{config}.{split}.jsonl", gold)
    noisy = [{"id": row["id"], "substitutes": noisy_words(row, number)} for number, row in enumerate(rows)]
    write_jsonl(folder / f"noisy.{config}.{split}.jsonl", noisy)
    write_jsonl(folder / f"cut.{config}.{split}.jsonl", gold[:CUT])
    write_jsonl(folder / f"few.{config}.{split}.jsonl", noisy[:FEW])


def make_tsar(folder: Path, config: str, split: str) -> None:
    rows = split_rows(config, split)
    gold = [gold_words(row) for row in rows]
    noisy = [words[::-1][:6] for words in gold]
    for name, answers in (("gold", gold), ("noisy", noisy)):
        write_jsonl(
            folder / f"{name}.{config}.{split}.jsonl",
            [{"id": row["id"], "substitutes": given} for row, given in zip(rows, answers, strict=True)],
        )
        write_tsv(folder / f"{name}.{config}.{split}.tsv", rows, answers)
    write_tsv(folder / f"cut.{config}.{split}.tsv", rows[:CUT], gold[:CUT])
    write_jsonl(
        folder / f"cut.{config}.{split}.jsonl",
        [{"id": row["id"], "substitutes": given} for row, given in zip(rows[:CUT], gold, strict=False)],
    )


def make_prolex(folder: Path, config: str, split: str) -> None:
    rows = split_rows(config, split)
    gold = [gold_words(row) for row in rows]
    noisy = [words[::-1][:8] for words in gold]
    for name, answers in (("gold", gold), ("noisy", noisy)):
        write_prolex_csv(folder / f"{name}.{config}.{split}.csv", rows, answers)
        write_jsonl(
            folder / f"{name}.{config}.{split}.jsonl",
            [{"id": row["id"], "substitutes": given} for row, given in zip(rows, answers, strict=True)],
        )
    write_jsonl(
        folder / f"cut.{config}.{split}.jsonl",
        [{"id": row["id"], "substitutes": given} for row, given in zip(rows[:CUT], gold, strict=False)],
    )


def make_bad_files(folder: Path) -> None:
    (folder / "bad-json.jsonl").write_text('{"id": "x", "substitutes": ["a"]}\n{"id": \n', encoding="utf-8")
    write_jsonl(folder / "unknown-ids.jsonl", [{"id": "nowhere:0", "substitutes": ["a"]}])
    (folder / "empty.jsonl").write_text("", encoding="utf-8")
    rows = swords_dataset.rows("tsar2022_en", "test")
    write_tsv(folder / "wrong-order.tsv", rows[1::-1] + rows[2:], [gold_words(row) for row in rows])
    (folder / "bad.csv").write_text("word,Substitutes\ncharming,appealing\n", encoding="utf-8")


def make_judged(folder: Path) -> None:
    """judgment_cases.py's judges on the `wordnet` baseline's SWORDS test run, and that run as upstream JSON."""
    from ..metric.judgment_cases import make_case

    case = make_case(folder)
    run = {"substitutes_lemmatized": False, "substitutes": case.run}
    (folder / "wordnet.swords.test.json").write_text(json.dumps(run), encoding="utf-8")


def make_inputs(folder: Path) -> Path:
    for config, split in SWORDS_SPLITS:
        make_swords_family(folder, config, split)
    for config, split in TSAR_SPLITS:
        make_tsar(folder, config, split)
    for config, split in PROLEX_SPLITS:
        make_prolex(folder, config, split)
    for name in SHIPPED:
        shutil.copyfile(REPO_ROOT / "space" / "results" / name, folder / name)
    make_bad_files(folder)
    return folder
