"""Hostile substitutes for the lemmatizer: words of hundreds of thousands of characters are lemmatized as nltk
3.5 lemmatizes them (its rounds of suffix rules, repeated until something is in WordNet) in time that grows
with the word, not with its square; and the lemmatizer's cache stays bounded whatever a file holds."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import pytest

import swords_dataset
from swords_metric.wordnet import lemmatizer
from swords_metric.wordnet.lemmatizer import lemmatize, wordnet_candidates

from ..conftest import REPO_ROOT

SUFFIXES = ["s", "es", "ies", "ses", "ves", "xes", "ches", "shes", "men", "ed", "ing", "er", "est", "e", "y"]


def eager(word: str, pos: str, monkeypatch) -> tuple[str, ...]:
    """nltk 3.5's rounds as written, copying every form: the reference the long-word path must equal."""
    with monkeypatch.context() as patch:
        patch.setattr(lemmatizer, "_LONG_WORD", 10**9)
        return wordnet_candidates(word, pos)


def test_long_words_get_the_candidates_of_the_plain_rounds(monkeypatch):
    """Real lemmas and other stems followed by runs of suffixes, over 100 characters: the same candidates, in
    the same order, as the round-by-round rules."""
    rng = random.Random(5)
    stems = {
        "n": ["dog", "church", "box", "wolf", "man", "fly", "ice cream", "xylo"],
        "v": ["walk", "make", "fly", "go", "church", "zorb"],
        "a": ["quick", "happy", "large", "blue", "zorb"],
        "r": ["quickly", "zorb"],
    }
    suffixes = {
        "n": ["s", "es", "ses", "ies", "men", "ches", "xes"],
        "v": ["s", "ed", "ing", "es", "ies"],
        "a": ["er", "est"],
        "r": ["ly", "s"],
    }
    reached = 0
    for _ in range(600):
        pos = rng.choice("nvar")
        word = rng.choice(stems[pos]) + rng.choice(suffixes[pos]) * rng.randint(40, 150)
        while len(word) <= 100 or rng.random() < 0.3:  # sometimes other suffixes after the run
            word += rng.choice(SUFFIXES) * rng.randint(1, 3)
        assert wordnet_candidates(word, pos) == eager(word, pos, monkeypatch), (word, pos)
        reached += bool(wordnet_candidates(word, pos))
    assert reached > 150  # many reach a WordNet lemma after their rounds


@pytest.mark.slow  # 14 s on two cores
def test_a_word_of_a_million_suffixes_is_lemmatized_in_linear_time():
    started = time.process_time()  # this process's CPU: a loaded machine slows the clock, not the work
    assert lemmatize("dog" + "s" * 1_000_000, "NOUN") == "dog"
    assert lemmatize("church" + "es" * 300_000, "VERB") == "church"
    assert lemmatize("zzz" + "es" * 300_000, "VERB") == "zzz" + "es" * 300_000  # every round, nothing found
    assert time.process_time() - started < 20  # quadratic work would take hours


def test_the_cache_keeps_no_long_substitute_of_a_file(tmp_path):
    """A hostile file may hold millions of distinct, long substitutes: scoring caches at most 2**18 words of at
    most 64 characters."""
    from swords_metric import Scorer

    info = lemmatize.cache_info
    assert info().maxsize == 1 << 18
    row = swords_dataset.rows("swords", "test", columns=["id"])[0]
    long_words = ["q" * 5000 + f"zorb{i}s" for i in range(20)]
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps({"id": row["id"], "substitutes": long_words + [f"zorbquux{random.random()}"]}))
    scorer = Scorer.from_dataset("swords", "test")
    before = info().currsize
    scorer.score(scorer.read(path))
    assert info().currsize == before + 1  # the short one


@pytest.mark.slow  # 15 s on two cores
def test_a_file_with_a_megabyte_substitute_is_scored_quickly(tmp_path):
    """The fault: one such substitute in a predictions file kept `swords evaluate` busy for minutes."""
    row = swords_dataset.rows("swords", "test", columns=["id"])[0]
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps({"id": row["id"], "substitutes": [["dog" + "s" * 2**20, 1.0], ["word", 0.5]]}) + "\n")
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "swords_lexsub.cli",
            "evaluate",
            "--predictions",
            str(path),
            "--bootstrap",
            "0",
            "--json",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["targets_scored"] == 762 and time.monotonic() - started < 60


@pytest.mark.parametrize("word", ["Dogs", "ice creams", "running", "happier", "a" * 64, "b" * 65 + "s"])
def test_cached_and_uncached_words_lemmatize_alike(word):
    assert lemmatize(word, "NOUN") == lemmatizer.lemmatize_bounded(word, "NOUN") == lemmatizer._lemmatize(word, "NOUN")
