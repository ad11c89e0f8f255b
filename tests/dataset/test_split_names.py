"""A mistyped split name, wherever a split is taken (`swords evaluate --split`, `swords run --split`,
`swords_dataset.load/rows`, joined splits): a near miss and a look-alike letter get "did you mean", the letter that
is not what it looks like is named, and a 10 kB name is shortened. One owner checks them all
(`swords_dataset.check_config`)."""

from __future__ import annotations

import pytest

import swords_dataset

from ..conftest import run_swords

CYRILLIC_TEST = "t\u0435st"  # 'е' is U+0435, CYRILLIC SMALL LETTER IE
LOOK_ALIKE = (
    f"config 'swords' has no split '{CYRILLIC_TEST}' (did you mean 'test'? character 2 is U+0435 CYRILLIC "
    "SMALL LETTER IE, not ASCII); it has dev, test"
)
NEAR_MISS = "config 'swords' has no split 'tset' (did you mean 'test'?); it has dev, test"
LONG = "x" * 10_000
SHORTENED = f"config 'swords' has no split '{'x' * 60}…' (10,000 characters); it has dev, test"


@pytest.mark.parametrize(("split", "expected"), [(CYRILLIC_TEST, LOOK_ALIKE), ("tset", NEAR_MISS), (LONG, SHORTENED)])
def test_the_python_api_names_the_split(split, expected):
    for call in (swords_dataset.load, swords_dataset.rows, swords_dataset.split_parts):
        with pytest.raises(swords_dataset.SwordsError) as raised:
            call("swords", split)
        assert str(raised.value) == expected, call


def test_a_joined_split_names_its_part():
    with pytest.raises(swords_dataset.SwordsError) as raised:
        swords_dataset.split_parts("coinco", f"dev+{CYRILLIC_TEST}")
    assert str(raised.value) == (
        f"config 'coinco' has no split 'dev+{CYRILLIC_TEST}': '{CYRILLIC_TEST}' is not one of its splits (did you mean "
        "'test'? character 2 is U+0435 CYRILLIC SMALL LETTER IE, not ASCII); combine its splits as dev+test"
    )


def test_rows_without_a_split_is_one_line():
    """`rows("swords", split=None)` read `data/swords/None.parquet` and raised FileNotFoundError."""
    with pytest.raises(swords_dataset.SwordsError) as raised:
        swords_dataset.rows("swords", split=None)
    assert str(raised.value) == (
        "rows() reads one split: give split= one of dev, test (load('swords') gives every split)"
    )
    assert len(swords_dataset.rows("swords", split="dev")) == 370


def test_a_split_that_is_not_a_string_is_named_by_its_type():
    with pytest.raises(swords_dataset.SwordsError) as raised:
        swords_dataset.rows("swords", split=3)
    assert str(raised.value) == "config 'swords' has no split 3 (of type int); it has dev, test"


@pytest.mark.parametrize(("split", "expected"), [(CYRILLIC_TEST, LOOK_ALIKE), ("tset", NEAR_MISS), (LONG, SHORTENED)])
def test_the_command_lines_name_the_split(tmp_path, split, expected):
    predictions = tmp_path / "p.jsonl"
    predictions.write_text('{"id": "t:1", "substitutes": ["x"]}\n')
    for command in (
        ["evaluate", "--dataset", "swords", "--split", split, "--predictions", str(predictions)],
        [
            "run",
            "--system",
            "wordnet",
            "--dataset",
            "swords",
            "--split",
            split,
            "--output",
            str(tmp_path / "run.jsonl"),
        ],
    ):
        result = run_swords(*command)
        assert result.returncode == 2 and result.stderr == f"swords: error: {expected}\n", command
        assert not (tmp_path / "run.jsonl").exists()
