"""swords_metric.wordnet.lemmatizer on hand-checked examples, each verified against nltk 3.5 and 3.10.4 on WordNet 3.0:
exception lists, suffix rules, ties, case, spaces, POS mapping (the exhaustive parity is in
test_lemmatize_nltk_parity.py)."""

from __future__ import annotations

import pytest

from swords_metric.wordnet import lemmatizer as lem


@pytest.mark.parametrize(
    ("word", "pos", "expected"),
    [
        ("ran", "VERB", "run"),  # verb.exc
        ("geese", "NOUN", "goose"),  # noun.exc
        ("better", "ADJ", "good"),  # adj.exc gives better/good/well: the first shortest wins
        ("better", "ADV", "well"),
        ("churches", "NOUN", "church"),  # -ches -> -ch
        ("us", "NOUN", "u"),  # "us" and "u" are both nouns; the shorter wins
        ("Dogs", "NOUN", "dogs"),  # case matters for the lookup; lower-casing comes after
        ("DOGS", "VERB", "dogs"),
        ("ice creams", "NOUN", "ice creams"),  # WordNet writes ice_cream; spaces never match
        ("", "NOUN", ""),
        ("  dogs ", "NOUN", "dogs"),  # not found with the spaces; the scorer strips afterwards
        ("aurar", "NOUN", "eyrir"),  # noun.exc lists aurar twice; the last line wins
        ("involucra", "NOUN", "involucra"),  # ... here the last line's "involucrum" is not a noun
        ("running", "X", "running"),  # other UD tags are lemmatized as nouns
        ("running", "VERB", "run"),
        # nltk 3.5 only (recent nltk returns the word unchanged): repeated suffix-stripping rounds.
        ("catss", "NOUN", "cat"),
        ("savings", "VERB", "save"),
        ("businessess", "NOUN", "business"),
        ("less", "NOUN", "le"),
        ("trimester", "ADJ", "trim"),
    ],
)
def test_known_lemmas(word: str, pos: str, expected: str):
    assert lem.lemmatize(word, pos) == expected


def test_wordnet_pos_mapping():
    assert [lem.wordnet_pos(t) for t in ("VERB", "NOUN", "ADJ", "ADV", "PROPN", "X", "", "verb")] == [
        "v", "n", "a", "r", "n", "n", "n", "n",
    ]  # fmt: skip


def test_case_is_kept_before_lowercasing():
    assert lem.wordnet_lemmatize("Dogs", "n") == "Dogs"
    assert lem.wordnet_lemmatize("dogs", "n") == "dog"
    assert lem.wordnet_candidates("better", "a") == ("better", "good", "well")
    assert lem.wordnet_candidates("better", "s") == ("better", "good", "well")  # satellites: as adjectives
    with pytest.raises(KeyError):
        lem.wordnet_candidates("dogs", "x")
