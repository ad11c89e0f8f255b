"""Every verified published figure, read again in its paper's text: the SWORDS paper's Tables 4, 6, 7 and 8 (arXiv
version) and McCarthy & Navigli 2009's Tables 4-8 are parsed from the papers folder, each row of the file is found in
its table (by the row number or system name its `where` gives) and every figure compared as the paper prints it;
and every cell those tables print is in the file. A figure changed in the file makes these tests fail (the last test
changes one and checks that it is caught)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from swords_dataset import CONFIGS
from swords_dataset.builder.sources import default_sources_dir
from swords_metric import published_papers, published_results
from swords_metric.families.tsar2022 import TSAR_COLUMNS
from swords_metric.published import PUBLISHED_METRICS

from ..conftest import REPO_ROOT

PAPERS = default_sources_dir().parent / "papers"
# The SWORDS paper's tables: their columns, left to right, as metric keys.
_FPR = ("f@10", "p@10", "r@10")
SWORDS_COLUMNS = {
    "4": ["lenient_a_f@10", "lenient_c_f@10", "strict_a_f@10", "strict_c_f@10"],
    "6": ["gap_rat"],
    "7": [f"{variant}_{m}" for variant in ("lenient_a", "lenient_c", "strict_a", "strict_c") for m in _FPR],
    "8": ["best_r", "best_mode_r", "oot_r", "oot_mode_r", "strict_c_p@1"],
}
# McCarthy & Navigli's tables: the metric of their All column.
SEMEVAL_COLUMN = {"4": "best_r", "5": "best_mode_r", "6": "best_r", "7": "oot_r", "8": "oot_mode_r"}
# A cell of the SWORDS text: a figure printed once or three times over (LaTeX's rendering), or "-".
_CELL = re.compile(r"^(\d+\.\d)(?:\1\1)?$|^-$")

pytestmark = pytest.mark.skipif(not PAPERS.is_dir(), reason=f"the papers folder is not at {PAPERS}")


def swords_table(text: str, table: str) -> list[tuple[str, list[str]]]:
    """The rows of the SWORDS arXiv text's table (name, cells), read upwards from its caption to its header."""
    lines = text.splitlines()
    caption = next(i for i, line in enumerate(lines) if line.startswith(f"Table {table}:"))
    rows = []
    for line in reversed(lines[:caption]):
        if line.startswith("Model "):
            break
        tokens = line.split(" ")
        cells = []
        while tokens and _CELL.match(tokens[-1]):
            match = _CELL.match(tokens.pop())
            cells.insert(0, match.group(1) or "-")
        rows.insert(0, (" ".join(tokens), cells))
    assert rows and all(len(cells) == len(SWORDS_COLUMNS[table]) for _, cells in rows), (table, rows)
    return rows


def semeval_table(text: str, table: str) -> dict[str, dict[str, str]]:
    """McCarthy & Navigli's table, one cell a line: system name (lowercased, " bl" dropped) -> header -> cell."""
    lines = [line.replace("\xa0", " ").strip() for line in text.splitlines()]
    start = lines.index(f"Table {table}")
    cells = []
    for line in lines[start + 1 :]:
        if line.startswith("Table ") or len(line) > 60:
            break
        if line:
            cells.append(line)
    cells = cells[1:]  # after the title
    width = cells.index("IwD") + 1 if "IwD" in cells else cells.index("Order") + 1
    header, body = cells[:width], cells[width:]
    assert header[:2] == ["Systems", "All"] and len(body) % width == 0, (table, header, len(body))
    chunks = [dict(zip(header, body[i : i + width], strict=True)) for i in range(0, len(body), width)]
    return {re.sub(r" bl$", "", chunk["Systems"].lower()): chunk for chunk in chunks}


def problems(rows) -> list[str]:
    """What in `rows` (PublishedResult) disagrees with the papers' text, and what the tables print that no row has."""
    papers, found = published_papers(), []
    texts = {
        key: (PAPERS / paper["text"]).read_text(encoding="utf-8") for key, paper in papers.items() if paper["text"]
    }
    covered: dict[tuple, set[str]] = {}
    for row in rows:
        if not row.verified:
            continue
        if row.paper == "lee2021":
            number = int(re.search(r"row (\d+)", row.where).group(1))
            name, cells = swords_table(texts["lee2021"], row.table)[number - 1]
            if name.split(" ")[0].rstrip("*").lower() != row.system.split(" ")[0].lower():
                found.append(f"{row.system} ({row.source}): row {number} of the text is {name!r}")
            columns = SWORDS_COLUMNS[row.table]
            for key in row.metrics:
                cell = cells[columns.index(key)]
                if cell != row.figure(key):
                    found.append(f"{row.system} ({row.source}) {key}: {row.figure(key)} in the file, {cell} printed")
            covered.setdefault((row.table, number), set()).update(row.metrics)
        elif row.paper == "mccarthy2009":
            table = semeval_table(texts["mccarthy2009"], row.table)
            chunk = table.get(row.system.removesuffix(" (baseline)").lower())
            key = SEMEVAL_COLUMN[row.table]
            if chunk is None or set(row.metrics) != {key} or chunk["All"] != row.figure(key):
                found.append(f"{row.system} ({row.source}): {row.metrics} in the file, {chunk} printed")
            elif "IwD" in chunk and int(chunk["IwD"]) != (row.items_with_duplicates or 0):
                found.append(
                    f"{row.system} ({row.source}): {row.items_with_duplicates} items with duplicates, "
                    f"{chunk['IwD']} printed"
                )
            covered.setdefault((row.table, row.system.removesuffix(" (baseline)").lower()), set()).add(key)
        elif row.paper == "saggion2022":  # the shared task's results files: tests/metric/test_family_metric.py
            continue
        else:  # no text at hand: the source its `where` quotes gives every figure as printed
            found += [
                f"{row.system} ({row.source}) {key}: {row.figure(key)} not in its where"
                for key in row.metrics
                if row.figure(key) not in row.where
            ]
    for table, columns in SWORDS_COLUMNS.items():  # every figure the SWORDS tables print is in the file
        for number, (name, cells) in enumerate(swords_table(texts["lee2021"], table), 1):
            printed = {key for key, cell in zip(columns, cells, strict=True) if cell != "-"}
            if missing := sorted(printed - covered.get((table, number), set())):
                found.append(f"SWORDS Table {table} row {number} ({name}): {', '.join(missing)} not in the file")
    for table in SEMEVAL_COLUMN:
        for name in semeval_table(texts["mccarthy2009"], table):
            if (table, name) not in covered:
                found.append(f"McCarthy & Navigli Table {table}: {name} not in the file")
    return found


def test_every_verified_figure_is_printed_in_its_table_and_every_printed_figure_is_in_the_file():
    rows = published_results()
    assert problems(rows) == []
    by_table = {(row.paper, row.table) for row in rows if row.verified}
    assert {("lee2021", t) for t in "4678"} | {("mccarthy2009", t) for t in "45678"} <= by_table
    # The humans' figures issue 25 names, each in its table.
    humans = {(row.table, key): value for row in rows if row.system == "Humans" for key, value in row.metrics.items()}
    assert {humans["4", "lenient_a_f@10"], humans["7", "lenient_a_p@10"], humans["7", "lenient_a_r@10"]} == {
        48.8,
        43.9,
        54.8,
    }
    assert (humans["7", "lenient_c_p@10"], humans["7", "lenient_c_r@10"], humans["6", "gap_rat"]) == (76.7, 79.1, 66.2)


def test_a_changed_figure_or_a_missing_row_is_caught():
    rows = published_results()
    gpt3 = next(i for i, row in enumerate(rows) if row.system == "GPT-3" and row.table == "7")
    changed = rows.copy()
    changed[gpt3] = dataclasses.replace(rows[gpt3], metrics={**rows[gpt3].metrics, "strict_c_r@10": 33.9})
    assert problems(changed) == ["GPT-3 (Lee et al. 2021, Table 7) strict_c_r@10: 33.9 in the file, 33.8 printed"]
    irst2 = next(i for i, row in enumerate(rows) if row.system == "irst2" and row.table == "7")
    changed = rows.copy()
    changed[irst2] = dataclasses.replace(rows[irst2], metrics={"oot_r": 68.09})
    assert len(problems(changed)) == 1 and "irst2" in problems(changed)[0]
    swag1 = next(i for i, row in enumerate(rows) if row.system == "swag1" and row.table == "8")
    assert problems(rows[:swag1] + rows[swag1 + 1 :]) == ["McCarthy & Navigli Table 8: swag1 not in the file"]
    bert_m = next(i for i, row in enumerate(rows) if row.system == "BERT-M" and row.table == "8" and row.reranked_by)
    assert problems(rows[:bert_m] + rows[bert_m + 1 :]) == [
        "SWORDS Table 8 row 14 (Bert-M): best_mode_r, best_r, oot_mode_r, oot_r, strict_c_p@1 not in the file"
    ]


def test_the_dagger_rows_are_the_better_of_each_pair_but_for_gpt3():
    """The † (reranked by BERT) marks, lost in the text, from §5.5: reranking 'unilaterally improves performance for
    all systems on all metrics except for GPT-3'. The thesaurus oracle reproduces the unreranked Thesaurus."""
    table4 = {(row.system, row.reranked_by): row.metrics for row in published_results() if row.table == "4"}
    for system in ("Thesaurus (oracle)", "Wordtune", "BERT-K", "BERT-M", "GPT-3"):
        reranked, plain = table4[system, "BERT"], table4[system, None]
        better = all(reranked[key] >= plain[key] for key in plain)
        assert better == (system != "GPT-3"), system
    assert table4["Thesaurus (oracle)", None] == {"lenient_a_f@10": 12.0, "lenient_c_f@10": 44.9}


def test_every_row_names_a_known_paper_table_benchmark_and_metric():
    scorer_keys = set(
        json.loads((REPO_ROOT / "space" / "results" / "thesaurus-oracle.swords.test.metrics.json").read_text())
    )  # what `swords run` wrote: the Scorer's keys
    assert set(PUBLISHED_METRICS) - set(TSAR_COLUMNS) <= scorer_keys  # TSAR-2022's: test_family_metric.py
    papers = published_papers()
    for row in published_results():
        paper = papers[row.paper]
        if paper["text"]:
            assert re.search(rf"^Table[ \xa0]{row.table}\b", (PAPERS / paper["text"]).read_text(), re.M), row
        else:
            assert row.table is None or row.table.isdigit()
        assert row.config in CONFIGS and all(split in CONFIGS[row.config] for split in row.split.split("+")), row
        assert set(row.metrics) <= set(PUBLISHED_METRICS) and row.metrics, row
        if not row.verified:
            assert row.where.startswith("quoted by issue 25 from ") and row.reproduced_by is None, row
    assert Path(PAPERS / "swords-lee2021-arxiv.txt") == PAPERS / papers["lee2021"]["text"]
