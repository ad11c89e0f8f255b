"""ProLex and TSAR-2022 as built: offline loading with the sources' row counts, and every row against the raw
files, read here independently (TSAR's TSV with collections.Counter, ProLex's CSV with csv + ast.literal_eval)."""

from __future__ import annotations

import ast
import csv
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import swords_dataset
from swords_dataset.builder.errors import BuildError
from swords_dataset.builder.readers.tsar2022 import read_tsar2022
from swords_dataset.builder.sources import BUILD_SOURCES
from swords_dataset.schema import FEATURES
from swords_dataset.stats import split_statistics

from ..conftest import run_swords
from .test_build_cli import assert_one_line_error_and_no_output

# The sources' row counts (ProLex's and TSAR-2022's releases; issue 26).
ROW_COUNTS = {
    ("prolex", "dev"): 68,
    ("prolex", "test"): 680,
    ("tsar2022_en", "trial"): 10,
    ("tsar2022_en", "test"): 373,
    ("tsar2022_es", "trial"): 12,
    ("tsar2022_es", "test"): 368,
    ("tsar2022_pt", "trial"): 10,
    ("tsar2022_pt", "test"): 374,
}
TSAR_SPLITS = [(c, s) for c, s in ROW_COUNTS if c.startswith("tsar2022")]

_LOAD_BOTH_WAYS = """
import json, sys, datasets, swords_dataset
counts = {}
for config, split in json.loads(sys.argv[1]):
    direct = datasets.load_dataset(str(swords_dataset.DATASET_DIR), config, split=split)
    packaged = swords_dataset.load(config, split=split)
    assert direct.features == packaged.features
    counts[f"{config}/{split}"] = [direct.num_rows, packaged.num_rows, direct["id"] == packaged["id"]]
print(json.dumps(counts))
"""


@pytest.mark.slow  # 6 s on two busy cores (load 4-6)
def test_every_new_config_and_split_loads_offline_both_ways_with_the_sources_row_counts(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", _LOAD_BOTH_WAYS, json.dumps(list(ROW_COUNTS))],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_CACHE": str(tmp_path / "cache")},
    )
    assert result.returncode == 0, result.stderr
    counts = json.loads(result.stdout.strip().splitlines()[-1])
    assert counts == {f"{c}/{s}": [n, n, True] for (c, s), n in ROW_COUNTS.items()}


@pytest.mark.parametrize(("config", "split"), list(ROW_COUNTS))
def test_rows_have_the_shared_schema_and_say_what_the_source_lacks(dataset_rows, config, split):
    rows = dataset_rows[(config, split)]
    assert len(rows) == ROW_COUNTS[(config, split)]
    assert [row["id"] for row in rows] == [f"{config}:{split}:{n:04d}" for n in range(1, len(rows) + 1)]
    for row in rows:
        assert set(row) == set(FEATURES)
        assert row["upstream_id"] == row["context_id"] == row["id"] and row["benchmark"] == config
        assert row["context"][row["offset"] : row["offset"] + len(row["target"])] == row["target"], row["id"]
        assert row["pos"] is None and row["target_lemma"] is None and row["candidates"] == []
        assert row["substitutes"] and len({s["substitute"] for s in row["substitutes"]}) == len(row["substitutes"])


# --- TSAR-2022 ------------------------------------------------------------------------------------------


def raw_tsar_lines(sources_dir: Path, config: str, split: str) -> list[list[str]]:
    language = config.rsplit("_", 1)[1]
    text = (sources_dir / f"tsar2022/{split}/tsar2022_{language}_{split}_gold.tsv").read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines()]


@pytest.mark.parametrize(("config", "split"), TSAR_SPLITS)
def test_tsar_rows_count_each_annotation_as_the_gold_file_gives_it(dataset_rows, sources_dir, config, split):
    lines = raw_tsar_lines(sources_dir, config, split)
    rows = dataset_rows[(config, split)]
    assert len(rows) == len(lines)
    for row, (sentence, word, *given) in zip(rows, lines, strict=True):
        counts = Counter(a.strip() for a in given)  # the official scorer strips each annotation
        assert (row["context"], row["target"]) == (sentence, word)
        assert [(s["substitute"], s["votes_positive"]) for s in row["substitutes"]] == counts.most_common()
        for substitute in row["substitutes"]:
            assert substitute["score"] == substitute["votes_positive"]
            assert substitute["votes_total"] == len(given)
            assert substitute["labels"] == [] and substitute["sources"] == ["tsar2022"]
            assert substitute["cefr"] is None


def test_verify_counts_tsars_annotations_and_prolexs_judgements(dataset_rows, sources_dir):
    for config, split in TSAR_SPLITS:
        lines = raw_tsar_lines(sources_dir, config, split)
        stats = split_statistics(dataset_rows[(config, split)])
        assert stats["labels"] == sum(len(line) - 2 for line in lines)  # one per annotator per line
        assert stats["substitutes"] == sum(len({a.strip() for a in line[2:]}) for line in lines)
    for split in ("dev", "test"):
        records = raw_prolex(sources_dir, split)
        judged = sum(len(set(ast.literal_eval(r["acc_subs"]) + ast.literal_eval(r["unacc_subs"]))) for r in records)
        stats = split_statistics(dataset_rows[("prolex", split)])
        assert stats["labels"] == stats["substitutes"] == judged + (5 if split == "test" else 0)


def test_tsar_annotations_equal_to_the_complex_word_are_kept_as_the_card_counts(dataset_rows):
    """The card: 238 English and 227 Spanish test lines hold an annotation equal to the complex word (the
    official scorer drops it when scoring; the rows keep the data)."""
    kept = {
        config: sum(any(s["substitute"] == row["target"] for s in row["substitutes"]) for row in rows)
        for (config, split), rows in dataset_rows.items()
        if split == "test" and config.startswith("tsar2022")
    }
    assert kept == {"tsar2022_en": 238, "tsar2022_es": 227, "tsar2022_pt": 0}


def test_a_tsar_word_found_first_inside_another_word_is_placed_at_the_whole_word(dataset_rows):
    placed = {}
    for config in ("tsar2022_en", "tsar2022_es"):
        for row in dataset_rows[(config, "test")]:
            if row["context"].count(row["target"]) > 1:
                placed[row["target"]] = row["context"][row["offset"] - 1 : row["offset"] + len(row["target"]) + 1]
    assert placed == {"impeach": " impeach ", "ovina": " ovina."}


def test_tsar_inputs_that_do_not_match_the_gold_lines_are_refused_naming_the_line(sources_dir, tmp_path):
    gold = sources_dir / "tsar2022/trial/tsar2022_pt_trial_gold.tsv"
    lines = (sources_dir / "tsar2022/trial/tsar2022_pt_trial_none.tsv").read_text(encoding="utf-8").split("\n")
    lines[3] = lines[3].replace("\t", "\tx", 1)  # the 4th input's complex word differs
    inputs = tmp_path / "none.tsv"
    inputs.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(BuildError, match=f"{inputs}:4: its sentence and complex word differ"):
        read_tsar2022(gold, inputs, "tsar2022_pt", "trial")
    inputs.write_text("\n".join(lines[:5]) + "\n", encoding="utf-8")
    with pytest.raises(BuildError, match="5 lines, but .* has 10"):
        read_tsar2022(gold, inputs, "tsar2022_pt", "trial")


# --- ProLex ---------------------------------------------------------------------------------------------


def raw_prolex(sources_dir: Path, split: str) -> list[dict]:
    with open(sources_dir / f"prolex/ProLex_v1.0_{split}.csv", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _once(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


@pytest.mark.parametrize("split", ["dev", "test"])
def test_prolex_rows_hold_the_experts_lists_and_levels_of_the_csv(dataset_rows, sources_dir, split):
    records = raw_prolex(sources_dir, split)
    rows = dataset_rows[("prolex", split)]
    assert len(rows) == len(records)
    for row, record in zip(rows, records, strict=True):
        lists = {
            column: ast.literal_eval(record[column])
            for column in ("acc_subs", "unacc_subs", "prof_acc_subs", "prof_unacc_subs")
        }
        subs = row["substitutes"]

        def labelled(label, subs=subs):
            return [s["substitute"] for s in subs if label in s["labels"]]

        assert row["target"] == record["target word"]
        assert row["context"] == record["Sentence"].replace("**", "")
        assert row["offset"] == record["Sentence"].index("**")  # the first marked span
        assert labelled("acceptable") == _once(lists["acc_subs"])
        assert labelled("unacceptable") == _once(lists["unacc_subs"])
        judged = _once(lists["acc_subs"] + lists["unacc_subs"])
        assert [s["substitute"] for s in subs][: len(judged)] == judged  # acceptable first, then unacceptable
        assert set(labelled("proficiency_acceptable")) == set(lists["prof_acc_subs"])
        assert set(labelled("proficiency_unacceptable")) == set(lists["prof_unacc_subs"])
        for s in subs:
            assert s["score"] == (0.0 if "unacceptable" in s["labels"] else 1.0)
            assert s["votes_positive"] is None and s["votes_total"] is None and s["sources"] == ["prolex"]
        if split == "dev":
            assert row["target_cefr"] is None and all(s["cefr"] is None for s in subs)
            continue
        assert row["target_cefr"] == int(record["t_words_cefr"])
        levels = {}
        for column, cefr_column in (("prof_unacc_subs", "prof_unacc_cefr"), ("prof_acc_subs", "prof_acc_cefr")):
            for item, level in zip(lists[column], ast.literal_eval(record[cefr_column]), strict=True):
                levels.setdefault(item, None if level == "None" else level)
        assert [s["cefr"] for s in subs] == [levels.get(s["substitute"]) for s in subs]


def test_prolex_figures_the_card_states(dataset_rows):
    dev, test = dataset_rows[("prolex", "dev")], dataset_rows[("prolex", "test")]
    proficiency_only = [
        (r["id"], s["substitute"]) for r in test for s in r["substitutes"] if s["labels"] == ["proficiency_acceptable"]
    ]
    assert len(proficiency_only) == 5 and len({row_id for row_id, _ in proficiency_only}) == 4
    assert ("prolex:test:0162", '"peoples"') in proficiency_only
    assert all(s["cefr"] is None for r in dev for s in r["substitutes"])
    levels = Counter(s["cefr"] for r in test for s in r["substitutes"] if s["cefr"] is not None)
    assert set(levels) == set(range(7)) and levels[6] == 89
    assert Counter(r["target_cefr"] for r in test)[-1] == 2


@pytest.mark.parametrize(("split", "expected"), [("dev", 2), ("test", 27)])
def test_prolex_rows_with_the_target_marked_more_than_once(sources_dir, split, expected):
    assert sum(record["Sentence"].count("**") > 2 for record in raw_prolex(sources_dir, split)) == expected


# --- Licenses, checksums --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "opening"),
    [
        ("prolex", "Apache License"),
        ("tsar2022_en", "Attribution-NonCommercial-ShareAlike 4.0 International"),
        ("tsar2022_es", "Attribution-NonCommercial-ShareAlike 4.0 International"),
        ("tsar2022_pt", "Attribution-NonCommercial-ShareAlike 4.0 International"),
    ],
)
def test_each_new_config_ships_its_license_and_the_card_names_it(config, opening):
    text = (swords_dataset.DATASET_DIR / swords_dataset.license_path(config)).read_text(encoding="utf-8")
    assert text.lstrip().startswith(opening)
    card = (swords_dataset.DATASET_DIR / "README.md").read_text(encoding="utf-8")
    header = card.split("\n---\n", 1)[0]
    config_entry = header.split(f"config_name: {config}\n", 1)[1].split("- config_name:", 1)[0]
    expected = "Apache-2.0" if config == "prolex" else "CC-BY-NC-SA-4.0"
    assert expected in config_entry and f"data/{config}/LICENSE" in config_entry
    assert ("cc-by-nc-sa-4.0" if config != "prolex" else "apache-2.0") in header


@pytest.mark.parametrize("relative", ["tsar2022/test/tsar2022_es_test_gold.tsv", "prolex/ProLex_v1.0_test.csv"])
def test_a_new_raw_file_with_another_checksum_is_refused(sources_copy, nltk35_path, tmp_path, relative):
    with open(sources_copy / relative, "a", encoding="utf-8") as f:
        f.write("tampered\n")
    output = tmp_path / "out"
    result = run_swords(
        "data", "build", "--sources", str(sources_copy), "--output", str(output), "--nltk35", str(nltk35_path)
    )
    assert_one_line_error_and_no_output(result, output, "corrupted source", relative, BUILD_SOURCES[relative])
