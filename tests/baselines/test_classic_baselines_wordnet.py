"""The `wordnet` baseline on real benchmark data: hand-checked synonym lists and its scores on SWORDS test. Its
WordNet 3.0 data is the metric's graph (tests/metric/test_wordnet_graph.py: regenerated identically, its shape,
nltk beside it)."""

from __future__ import annotations

import pytest

import swords_dataset
from swords_baselines.classic.wordnet import WordNet, load_wordnet, parse_relations, wordnet_substitutes
from swords_baselines.system import SYSTEMS
from swords_lexsub.errors import SwordsError

from .run_helpers import run_system

METRICS = ("lenient_a_f@10", "lenient_c_f@10", "strict_c_p@1", "gap", "oot_r")


@pytest.fixture(scope="module")
def swords_test() -> list[dict]:
    return swords_dataset.load("swords", split="test").to_list()


# --- wordnet ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lemma", "pos", "relations", "expected"),
    [
        # `wn voice -synsn`: sense 2 is "voice, vocalization, vocalisation, vocalism, phonation, vox", sense 4
        # "articulation, voice", sense 8 "spokesperson, interpreter, representative, voice" (reordered by tag
        # count: "representative" is tagged, the others not), sense 11 "part, voice".
        (
            "voice",
            "n",
            (),
            "vocalization vocalisation vocalism phonation vox articulation representative "
            "spokesperson interpreter part",
        ),
        # `wn quickly -synsr`: "quickly, rapidly, speedily, chop-chop, apace"; "promptly, quickly, quick"
        # ("quick" is tagged 7 times in that sense, "promptly" 4); "cursorily, quickly".
        ("quickly", "r", (), "rapidly speedily chop-chop apace quick promptly cursorily"),
        # Similar-to words come after every direct synonym.
        (
            "bright",
            "a",
            ("similar",),
            "brilliant vivid smart burnished lustrous shining shiny undimmed promising "
            "hopeful gleaming agleam nitid luminous",
        ),
    ],
)
def test_wordnet_hand_checked_lists(lemma, pos, relations, expected):
    expected = expected.split()
    assert load_wordnet().ranked(lemma, pos, relations)[: len(expected)] == expected


def test_wordnet_substitutes_of_rows():
    row = {"target": "Dogs", "target_lemma": "dog", "pos": "NOUN"}
    words = [w for w, _ in wordnet_substitutes(row)]
    assert words[:3] == ["domestic dog", "Canis familiaris", "frump"]  # "_" shown as a space
    scores = [s for _, s in wordnet_substitutes(row)]
    assert scores == sorted(scores, reverse=True) and scores[0] == 1.0
    # CoInCo's lemma of "fourth-quarter" is "fourth quarter"; unknown lemmas and POS give nothing.
    assert wordnet_substitutes({"target": "xyzzy", "target_lemma": "xyzzy", "pos": "NOUN"}) == []
    assert wordnet_substitutes({"target": "dog", "target_lemma": "dog", "pos": "PROPN"}) == []
    with pytest.raises(SwordsError, match="unknown WordNet relation"):
        parse_relations("hypernyms,cousins")


# Measured on SWORDS v1.1 test (762 targets); the numbers only change if the data file or ranking does.
WORDNET_SWORDS_TEST = {
    "": {"lenient_a_f@10": 15.54, "lenient_c_f@10": 29.45, "strict_c_p@1": 48.12, "gap": 6.07, "oot_r": 10.52},
    "similar,hypernyms": {"lenient_a_f@10": 18.66, "lenient_c_f@10": 40.50, "gap": 8.15, "oot_r": 13.99},
}


@pytest.mark.slow  # 3.4 s a relation set on two quiet cores
@pytest.mark.parametrize("relations", list(WORDNET_SWORDS_TEST))
def test_wordnet_scores_on_swords_test(relations, tmp_path):
    metrics = run_system("wordnet", {"relations": relations}, tmp_path)
    assert metrics["targets_scored"] == 762
    for name, value in WORDNET_SWORDS_TEST[relations].items():
        assert metrics[name] == pytest.approx(value, abs=0.006), name


def test_wordnet_system_is_registered():
    assert SYSTEMS.get("wordnet") is WordNet
    assert WordNet.substitutes_lemmatized
