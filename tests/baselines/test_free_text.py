"""Free text as a benchmark row (swords_baselines.free_text): where a target stands as a word, the part of speech
guessed from WordNet and the word before it, measured against SWORDS test's own POS, and the row every system
answers."""

from __future__ import annotations

import pytest

import swords_dataset
from swords_baselines import free_text
from swords_baselines.classic.wordnet import wordnet_substitutes


@pytest.fixture(scope="module")
def swords_test() -> list[dict]:
    return swords_dataset.rows("swords", "test")


def test_a_target_stands_where_the_benchmark_puts_it(swords_test):
    assert all(row["offset"] in free_text.occurrences(row["context"], row["target"]) for row in swords_test)
    context = "Banks bank on the bank. The bank is open."
    assert free_text.occurrences(context, "bank") == [6, 18, 28]  # whole words, case-sensitive first
    assert free_text.occurrences(context, "banks") == [0]  # case-insensitive only when nothing else matches
    assert free_text.occurrences(context, "ban") == []  # inside a word is not the word
    assert free_text.WORD.findall("don't stop 42 well-known") == ["don't", "stop", "well-known"]


@pytest.mark.parametrize(
    ("context", "target", "expected"),
    [
        ("She gave a bright answer.", "bright", "ADJ"),
        ("They want to run the company.", "run", "VERB"),
        ("The run lasted an hour.", "run", "NOUN"),
        ("He answered quickly and left.", "quickly", "ADV"),
    ],
)
def test_guessed_part_of_speech(context, target, expected):
    assert free_text.guess_pos(context, context.index(target), target) == expected


def test_the_guess_agrees_with_swords_test_on_nine_targets_in_ten(swords_test):
    """Measured: 697 of SWORDS test's 762 targets (91.5%) get the benchmark's own POS."""
    agreed = sum(free_text.guess_pos(r["context"], r["offset"], r["target"]) == r["pos"] for r in swords_test)
    assert agreed == 697


def test_a_free_text_row_has_the_benchmark_schema_and_a_system_answers_it(swords_test):
    row = free_text.make_row("The cats sat.", 4, "cats", "NOUN", prefix="demo")
    assert row["target_lemma"] == "cat" and row["benchmark"] == "custom" and row["substitutes"] == []
    assert row["id"].startswith("demo:") and row == free_text.make_row("The cats sat.", 4, "cats", "NOUN", "demo")
    assert set(row) <= set(swords_test[0])  # fields of a benchmark row (no upstream id, no CEFR level)
    answers = [word for word, _ in wordnet_substitutes(row)]
    assert answers and "cat" not in answers
