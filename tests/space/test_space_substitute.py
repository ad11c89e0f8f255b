"""The Substitute tab's handlers on the real bundled data, without Gradio's server: free text, benchmark
examples with their gold judgements and metrics, and every bad input the UI must turn into a message."""

from __future__ import annotations

import time

import pytest

from swords_dataset import UNTAGGED_CONFIGS
from swords_dataset.judgements import CLASSES, NOT_IN_BENCHMARK
from swords_metric import Scorer

from .helpers import import_space, importable

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_space import benchmarks, free_text, offered_systems, scoring  # noqa: E402  (after the import fallback)
from swords_space.errors import SpaceError  # noqa: E402
from swords_space.tabs.explore import example_inputs  # noqa: E402
from swords_space.tabs.substitute import pick_word, substitute, system_choices, word_choices  # noqa: E402


def test_words_of_a_context_number_repeated_occurrences():
    choices = word_choices("The bank by the river bank, don't you think? 42 well-known")
    labels = [label for label, _ in choices]
    assert labels == ["The", "bank", "by", "the", "river", "bank (2)", "don't", "you", "think", "well-known"]
    assert pick_word(dict(choices)["bank (2)"]) == ("bank", 2)
    assert word_choices("") == [] and word_choices("x" * 10_000) == []


def test_locating_a_target_by_occurrence_and_whole_words():
    context = "Banks bank on the bank. The bank is open."
    assert free_text.locate(context, "bank", 1) == (6, "bank")
    assert free_text.locate(context, "bank", 3) == (28, "bank")
    assert free_text.locate(context, "banks", 1) == (0, "Banks")  # case-insensitive only when nothing else matches
    with pytest.raises(SpaceError, match="occurs 3 times"):
        free_text.locate(context, "bank", 4)
    with pytest.raises(SpaceError, match="does not occur"):
        free_text.locate(context, "ban", 1)  # inside a word is not the word


def test_the_tab_guesses_the_part_of_speech_of_free_text():
    """The baselines' guess (tests/baselines/test_free_text.py measures it), on the tab's free-text row."""
    row, split, how = free_text.resolve_row("They want to run the company.", "run", 1, free_text.AUTO_POS, None)
    assert (row["pos"], row["target_lemma"], split, how) == ("VERB", "run", None, "guessed")
    assert row["id"].startswith("space:") and row["benchmark"] == "custom"


@pytest.mark.parametrize(
    ("context", "target", "message"),
    [
        ("", "bright", "Type or paste a context"),
        ("   \n ", "bright", "Type or paste a context"),
        ("A bright day.", "", "Choose the target"),
        ("A bright day.", "dark", "does not occur"),
        ("A bright day. " * 400_000, "bright", "the limit is 2,000"),  # a 5.6 MB paste
        ("A bright day.", "x" * 500, "one word or a short phrase"),
    ],
)
def test_bad_substitute_inputs_are_messages(context, target, message):
    started = time.perf_counter()
    with pytest.raises(SpaceError, match=message):
        substitute(context, target, 1, "auto", "coinco-oracle")
    assert time.perf_counter() - started < 2  # refused at once, whatever the size


def test_unknown_system_and_pos_are_messages():
    with pytest.raises(SpaceError, match="Unknown or unavailable system"):
        substitute("A bright day.", "bright", 1, "auto", "no-such-system")
    with pytest.raises(SpaceError, match="Unknown part of speech"):
        substitute("A bright day.", "bright", 1, "PRON", "coinco-oracle")


def test_default_system_is_registered_and_preferred():
    names, default = system_choices()
    assert default in names
    if importable(offered_systems.DEFAULT_SYSTEM):
        assert default == offered_systems.DEFAULT_SYSTEM and names[0] == default
    else:  # fallback while wordnet+embedding is not installed: the first available preferred system
        assert default == next(name for name in offered_systems.PREFERRED + tuple(names) if name in names)


def test_systems_that_cannot_answer_free_text_say_so():
    result = substitute("She gave a bright answer.", "bright", 1, "auto", "coinco-oracle")
    assert result.suggestions == [] and result.example is None and "found no substitutes" in result.status
    with pytest.raises(SpaceError, match="swords_test_subset"):
        substitute("She gave a bright answer.", "bright", 1, "auto", "humans")


def test_a_pasted_benchmark_context_is_recognised_and_judged(press):
    # Pasted with extra whitespace around it, as copying from a page does.
    result = substitute("\n " + press["context"] + "  \n", press["target"], 1, "auto", "coinco-oracle")
    assert result.example == ("swords", "test") and result.row["id"] == press["id"]
    assert result.row["pos"] == press["pos"]
    reference_scores = Scorer([press]).score({press["id"]: _coinco(press)}, by_pos=False)
    assert result.metrics["lenient_a_f@10"] == pytest.approx(reference_scores["lenient_a_f@10"])
    table = result.table()
    assert list(table.columns) == ["rank", "substitute", "score", "gold score", "judgement"]
    assert set(table["judgement"]) <= set(CLASSES)
    html = result.html()
    assert html.count('class="swords-suggestion"') == len(result.suggestions)
    assert "acceptable (score &gt; 0.5)" in html  # the legend, escaped


def _coinco(row: dict) -> list:
    from swords_baselines.classic.oracles import CoincoOracle

    return dict(CoincoOracle().predict([row]))[row["id"]]


def test_judgements_follow_the_metric(press):
    reference = [(s["substitute"], s["score"]) for s in press["substitutes"]]
    judged = scoring.judge(press, [word for word, _ in reference] + ["zzzz-not-a-word"], "swords", "test")
    assert judged[-1] == ("—", NOT_IN_BENCHMARK)
    for (word, score), (gold, verdict) in zip(reference, judged, strict=False):
        if score > 0.5:
            assert verdict == "acceptable", (word, gold)


def test_picking_an_example_fills_the_substitute_tab(swords_test):
    row = next(r for r in swords_test if len(free_text.occurrences(r["context"], r["target"])) > 1)
    context, target, occurrence, pos, key, status = example_inputs("swords test", row["id"])
    assert free_text.locate(context, target, occurrence)[0] == row["offset"]
    result = substitute(context, target, occurrence, "auto", "coinco-oracle", example=key)
    assert result.row == row and result.example == ("swords", "test")
    # Edited afterwards: the example no longer applies, the text is looked up again.
    result = substitute(context + " More.", target, occurrence, "NOUN", "coinco-oracle", example=key)
    assert result.example is None


def test_an_example_without_gold_says_so():
    row = next(r for r in benchmarks.load_rows("semeval07", "test") if not r["substitutes"])
    context, target, occurrence, pos, key, status = example_inputs("semeval07 test", row["id"])
    result = substitute(context, target, occurrence, pos, "coinco-oracle", example=key)
    assert result.example == ("semeval07", "test") and result.metrics is None
    assert "no gold substitutes" in result.status and result.metrics_table().empty


def test_wordnet_answers_free_text_without_gold():
    if not importable("wordnet"):
        pytest.skip("the wordnet system is not installed")
    result = substitute("She gave a bright answer.", "bright", 1, "auto", "wordnet", top_k=5)
    assert result.example is None and result.metrics is None and result.row["pos"] == "ADJ"
    assert len(result.suggestions) == 5 and "brilliant" in [s["substitute"] for s in result.suggestions]
    assert {s["judgement"] for s in result.suggestions} == {NOT_IN_BENCHMARK}
    assert "guessed" in result.status and "free text" in result.status


def _prediction(row: dict) -> list[tuple[str, float]]:
    """A system's answer (substitute, score) for an example: its gold in reverse, a non-word and the target."""
    gold = [s["substitute"] for s in row["substitutes"]][::-1]
    return [(word, -float(i)) for i, word in enumerate([*gold, "zzzz-not-a-word", row["target"], ""])]


@pytest.mark.parametrize(("config", "split"), [(c, s) for c, s in benchmarks.splits() if c not in UNTAGGED_CONFIGS])
@pytest.mark.slow  # 4 s on two cores
def test_example_metrics_are_the_shared_scorer_on_one_target(config, split):
    """The split's shared scorer restricted to one target gives exactly what a Scorer of that one row gives
    (what the Space computed before it shared one scorer per split). The SWORDS metrics' benchmarks only: a ProLex
    or TSAR-2022 example reaches this tab as free text (test_space_explore.py)."""
    rows = [row for row in benchmarks.load_rows(config, split) if row["substitutes"]]
    for row in rows[:: max(1, len(rows) // 40)]:
        prediction = _prediction(row)
        shown = scoring.example_metrics(row, prediction, config, split)
        alone = Scorer([row], split=split, include_problematic=True).score({row["id"]: prediction}, by_pos=False)
        shown.pop("signature"), alone.pop("signature")  # the one-row scorer's names no config
        assert shown == alone, (config, split, row["id"])
