"""One form per lemma in a system's list (issue 50): the metric merges a lemma's forms into the best-ranked one, so
`wordnet` and the default system keep that one form only (the default system's run: test_classic_baselines_default.py).
"""

from __future__ import annotations

import pytest

import swords_dataset
from swords_baselines.classic.wordnet import WordNet
from swords_baselines.lemmas import one_form_per_lemma
from swords_metric import score


def test_each_lemma_keeps_its_best_ranked_form_and_the_next_words_move_up():
    ranked = [("rooms", 0.9), ("chamber", 0.8), ("room", 0.7), ("hall", 0.6)]
    assert one_form_per_lemma(ranked, "NOUN") == [("rooms", 0.9), ("chamber", 0.8), ("hall", 0.6)]
    found = [("find", 0.5), ("found", 0.4), ("discover", 0.3)]
    assert one_form_per_lemma(found, "VERB") == [("find", 0.5), ("discover", 0.3)]
    # "found" is its own lemma as a noun or adjective: the target's POS decides, as in the metric.
    assert one_form_per_lemma(found, "NOUN") == found
    # ProLex and TSAR-2022 rows have no POS, and their metrics compare forms: the list stays as it is.
    assert one_form_per_lemma(ranked, None) == ranked == one_form_per_lemma(ranked, "")


@pytest.mark.parametrize(
    ("relations", "before"),
    [
        ("", 7),
        # 7 s on two cores: some 150 words a target
        pytest.param("similar,also,verb_group,hypernyms,hyponyms,sisters", 164, marks=pytest.mark.slow),
    ],
)
def test_wordnets_answers_on_swords_test_have_no_duplicates_after_lemmatization(relations, before):
    """`before`: the metric's count when the list kept every form (synonyms only; the default system's relations)."""
    rows = swords_dataset.rows("swords", "test")
    answers = dict(WordNet(relations=relations).predict(rows))
    notes = score(answers, rows, bootstrap=0)["input_notes"]  # the metric's own count
    assert notes["duplicates"] == 0 < before, notes
