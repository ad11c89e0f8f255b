"""The Space's handlers on the real bundled data, without Gradio's server: substitute, explore, score,
leaderboard, and every bad input the UI must turn into a message."""

from __future__ import annotations

import gzip
import importlib
import importlib.util
import json
import os
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

from swords_dataset.judgements import CLASSES, NOT_IN_BENCHMARK
from swords_metric import Scorer, read_predictions

REPO_ROOT = Path(__file__).resolve().parents[2]
SPACE_DIR = REPO_ROOT / "space"
RESULTS = SPACE_DIR / "results"
COINCO_ORACLE = RESULTS / "coinco-oracle.swords.test.jsonl"


def import_space():
    """swords_space as installed, or (before `pip install -e .` maps it) the space/ folder under that name."""
    if "swords_space" not in sys.modules:
        try:
            importlib.import_module("swords_space")
        except ImportError:
            spec = importlib.util.spec_from_file_location(
                "swords_space", SPACE_DIR / "__init__.py", submodule_search_locations=[str(SPACE_DIR)]
            )
            module = importlib.util.module_from_spec(spec)
            sys.modules["swords_space"] = module
            spec.loader.exec_module(module)
    return sys.modules["swords_space"]


pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_space import data, handlers, render, systems, text  # noqa: E402  (after the import fallback)
from swords_space.errors import SpaceError  # noqa: E402
from swords_space.published import TABLE_4  # noqa: E402


@pytest.fixture(scope="module")
def swords_test() -> list[dict]:
    return data.load_rows("swords", "test")


@pytest.fixture(scope="module")
def press(swords_test) -> dict:
    """A SWORDS test example whose target occurs once in its context."""
    return next(row for row in swords_test if len(text.occurrences(row["context"], row["target"])) == 1)


# -- free text ------------------------------------------------------------------------------------------


def test_words_of_a_context_number_repeated_occurrences():
    choices = handlers.word_choices("The bank by the river bank, don't you think? 42 well-known")
    labels = [label for label, _ in choices]
    assert labels == ["The", "bank", "by", "the", "river", "bank (2)", "don't", "you", "think", "well-known"]
    assert handlers.pick_word(dict(choices)["bank (2)"]) == ("bank", 2)
    assert handlers.word_choices("") == [] and handlers.word_choices("x" * 10_000) == []


def test_locating_a_target_by_occurrence_and_whole_words():
    context = "Banks bank on the bank. The bank is open."
    assert text.locate(context, "bank", 1) == (6, "bank")
    assert text.locate(context, "bank", 3) == (28, "bank")
    assert text.locate(context, "banks", 1) == (0, "Banks")  # case-insensitive only when nothing else matches
    with pytest.raises(SpaceError, match="occurs 3 times"):
        text.locate(context, "bank", 4)
    with pytest.raises(SpaceError, match="does not occur"):
        text.locate(context, "ban", 1)  # inside a word is not the word


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
    offset, written = text.locate(context, target)
    assert text.guess_pos(context, offset, written) == expected


def test_free_text_row_has_the_benchmark_schema():
    row = text.make_row("The cats sat.", 4, "cats", "NOUN")
    assert row["target_lemma"] == "cat" and row["benchmark"] == "custom" and row["substitutes"] == []
    assert row["context"][row["offset"] : row["offset"] + len(row["target"])] == "cats"


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
        handlers.substitute(context, target, 1, "auto", "coinco-oracle")
    assert time.perf_counter() - started < 2  # refused at once, whatever the size


def test_unknown_system_and_pos_are_messages():
    with pytest.raises(SpaceError, match="Unknown or unavailable system"):
        handlers.substitute("A bright day.", "bright", 1, "auto", "no-such-system")
    with pytest.raises(SpaceError, match="Unknown part of speech"):
        handlers.substitute("A bright day.", "bright", 1, "PRON", "coinco-oracle")


def test_default_system_is_registered_and_preferred():
    names, default = handlers.system_choices()
    assert default in names
    if systems.importable(systems.DEFAULT_SYSTEM):
        assert default == systems.DEFAULT_SYSTEM and names[0] == default
    else:  # fallback while wordnet+embedding is not installed: the first available preferred system
        assert default == next(name for name in systems.PREFERRED + tuple(names) if name in names)


def test_systems_that_cannot_answer_free_text_say_so():
    result = handlers.substitute("She gave a bright answer.", "bright", 1, "auto", "coinco-oracle")
    assert result.suggestions == [] and result.example is None and "found no substitutes" in result.status
    with pytest.raises(SpaceError, match="swords_test_subset"):
        handlers.substitute("She gave a bright answer.", "bright", 1, "auto", "humans")


# -- benchmark examples -------------------------------------------------------------------------------


def test_a_pasted_benchmark_context_is_recognised_and_judged(press):
    # Pasted with extra whitespace around it, as copying from a page does.
    result = handlers.substitute("\n " + press["context"] + "  \n", press["target"], 1, "auto", "coinco-oracle")
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
    from swords_baselines.oracles import CoincoOracle

    return dict(CoincoOracle().predict([row]))[row["id"]]


def test_judgements_follow_the_metric(press):
    reference = [(s["substitute"], s["score"]) for s in press["substitutes"]]
    judged = handlers.judge(press, [word for word, _ in reference] + ["zzzz-not-a-word"], "swords", "test")
    assert judged[-1] == ("—", NOT_IN_BENCHMARK)
    for (word, score), (gold, verdict) in zip(reference, judged, strict=False):
        if score > 0.5:
            assert verdict == "acceptable", (word, gold)


def test_picking_an_example_fills_the_substitute_tab(swords_test):
    row = next(r for r in swords_test if len(text.occurrences(r["context"], r["target"])) > 1)
    context, target, occurrence, pos, key = handlers.example_inputs("swords test", row["id"])
    assert text.locate(context, target, occurrence)[0] == row["offset"]
    result = handlers.substitute(context, target, occurrence, "auto", "coinco-oracle", example=key)
    assert result.row == row and result.example == ("swords", "test")
    # Edited afterwards: the example no longer applies, the text is looked up again.
    result = handlers.substitute(context + " More.", target, occurrence, "NOUN", "coinco-oracle", example=key)
    assert result.example is None


def test_search_and_show_examples_escape_everything(swords_test):
    choices, message = handlers.search_examples("swords test", "bri", "all")
    assert choices and all("bri" in label.lower() for label, _ in choices)
    assert message.startswith(f"{len(choices)} targets starting with")
    only_verbs, _ = handlers.search_examples("coinco dev", "", "VERB", limit=50)
    assert len(only_verbs) == 50
    assert all(data.get_row("coinco", "dev", rid)["pos"] == "VERB" for _, rid in only_verbs)
    header, context_html, substitutes = handlers.show_example("swords test", choices[0][1])
    assert '<mark class="swords-target"' in context_html and "width:" in substitutes
    hostile = {"context": "<script>alert(1)</script> x & y", "offset": 26, "target": "x"}
    marked = render.context_html(hostile["context"], hostile["offset"], 1)
    assert "<script>" not in marked and "&lt;script&gt;" in marked and ">x</mark>" in marked
    with pytest.raises(SpaceError, match="Unknown benchmark 'swords train'; choose one of swords dev"):
        handlers.search_examples("swords train")
    with pytest.raises(SpaceError, match="No example"):
        handlers.show_example("swords test", "t:nope")


# -- scoring --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def coinco_predictions() -> dict:
    return read_predictions(COINCO_ORACLE)[0]


def test_scoring_an_upload_matches_the_scorer(swords_test, coinco_predictions):
    result = handlers.score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=200)
    expected = Scorer(swords_test, split="test").score(coinco_predictions, bootstrap=200)
    table = result.metrics_table().set_index("key")
    assert table.loc["lenient_a_f@10", "value"] == round(expected["lenient_a_f@10"], 2)
    assert table.loc["lenient_a_f@10", "95% interval"].startswith("[")
    assert result.result["signature"] == expected["signature"] and "bootstrap:200" in result.result["signature"]
    assert set(result.by_pos_table()["POS"]) == {"NOUN", "VERB", "ADJ", "ADV"}
    published = result.published_table()
    assert published.iloc[0]["lenient F@10"] == round(expected["lenient_a_f@10"], 1)
    assert {"CoInCo (oracle)", "Thesaurus (oracle)", "Humans"} <= set(published["system"])
    assert "762 targets" in result.summary()


def test_the_curve_equals_scoring_at_each_k(swords_test, coinco_predictions):
    scorer = handlers.scorer_for("swords", "test")
    curve = handlers.pr_curve(scorer, coinco_predictions)
    assert sorted(curve["k"].unique()) == list(range(1, 21))
    for k in (1, 3, 10, 20):
        expected = Scorer(swords_test, k=k).score(coinco_predictions, by_pos=False)
        for setting in ("lenient", "strict"):
            for letter, name in (("a", "acceptable"), ("c", "conceivable")):
                at = curve[(curve["k"] == k) & (curve["setting"] == setting)].set_index("series")["value"]
                assert at[f"P, {name}"] == pytest.approx(expected[f"{setting}_{letter}_p@{k}"], abs=1e-9)
                assert at[f"R, {name}"] == pytest.approx(expected[f"{setting}_{letter}_r@{k}"], abs=1e-9)


def test_stored_baselines_can_be_scored_on_their_own_split():
    choices = dict((name, label) for label, name in handlers.stored_predictions())
    assert COINCO_ORACLE.name in choices and "coinco-oracle" in choices[COINCO_ORACLE.name]
    assert handlers.stored_split(COINCO_ORACLE.name) == "swords test"
    result = handlers.score_predictions(None, COINCO_ORACLE.name, "swords test", bootstrap=0)
    assert result.result["lenient_c_f@10"] == pytest.approx(63.6, abs=0.5)  # Table 4, up to tie order
    with pytest.raises(SpaceError, match="No stored predictions"):
        handlers.score_predictions(None, "../../setup.cfg", "swords test")


def write(path: Path, content: bytes) -> str:
    path.write_bytes(content)
    return str(path)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.jsonl", b"", "is empty"),
        ("latin1.jsonl", '{"id": "t:1", "substitutes": ["caf\u00e9"]}\n'.encode("latin-1"), ":1: not UTF-8 text"),
        ("binary.json", bytes(range(256)) * 10, ":2: not UTF-8 text"),
        ("list.json", b"[1, 2, 3]", "expected a JSON object"),
        ("lines.jsonl", b'{"id": "x"}\n', "expected an object with 'id' and 'substitutes'"),
        ("notjson.jsonl", b"hello\n", "not JSON"),
        ("bad.gz", b"not gzip at all", "not a readable gzip file"),
    ],
)
def test_bad_uploads_are_clear_messages(tmp_path, name, content, message):
    with pytest.raises(SpaceError, match=message) as error:
        handlers.score_predictions(write(tmp_path / name, content), None, "swords test", bootstrap=0)
    assert str(tmp_path) not in str(error.value)  # the server's temporary path is not shown, the name is


def test_uploads_over_the_limit_are_refused_before_reading(tmp_path):
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as f:
        f.truncate(handlers.MAX_UPLOAD_BYTES + 1)
    with pytest.raises(SpaceError, match="the limit is 20 MB"):
        handlers.score_predictions(str(big), None, "swords test")
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as f:
        chunk = b" " * (1 << 20)
        for _ in range(handlers.MAX_UNCOMPRESSED_BYTES // len(chunk) + 2):
            f.write(chunk)
    assert bomb.stat().st_size < handlers.MAX_UPLOAD_BYTES
    with pytest.raises(SpaceError, match="expands past"):
        handlers.score_predictions(str(bomb), None, "swords test")


def test_a_file_for_another_split_names_the_right_one(tmp_path):
    coinco_row = data.load_rows("coinco", "test")[0]
    path = write(tmp_path / "coinco.jsonl", json.dumps({"id": coinco_row["id"], "substitutes": ["x"]}).encode())
    with pytest.raises(SpaceError, match="not in swords test.*are dataset ids of coinco test. Choose coinco test as"):
        handlers.score_predictions(path, None, "swords test")
    with pytest.raises(SpaceError, match="Upload a predictions file"):
        handlers.score_predictions(None, None, "swords test")


def test_partial_predictions_are_scored_and_flagged(tmp_path, coinco_predictions):
    some = dict(list(coinco_predictions.items())[:100])
    path = write(tmp_path / "some.jsonl", "".join(json.dumps({"id": k, "substitutes": v}) + "\n"
                                                  for k, v in some.items()).encode())
    result = handlers.score_predictions(path, None, "swords test", bootstrap=0)
    assert result.result["targets_without_predictions"] == 662 and "662 without predictions" in result.summary()


# -- leaderboard ----------------------------------------------------------------------------------------


def test_leaderboard_lists_stored_results_and_published_figures(tmp_path):
    table, note = handlers.leaderboard()
    measured = table[table["source"] == "measured (swords run)"]
    assert {"coinco-oracle", "thesaurus-oracle", "humans"} <= set(measured["system"])
    for entry in TABLE_4:
        published = table[(table["system"] == entry.label) & (table["source"] != "measured (swords run)")]
        assert published.iloc[0]["lenient Fc@10"] == entry.metrics["lenient_c_f@10"]
    thesaurus = measured[measured["system"] == "thesaurus-oracle"].iloc[0]
    assert (thesaurus["lenient F@10"], thesaurus["lenient Fc@10"]) == (12.0, 44.9)  # reproduces Table 4
    (tmp_path / "broken.metrics.json").write_text("{not json")
    table, note = handlers.leaderboard(tmp_path)
    assert "broken.metrics.json" in note and len(table) == len(TABLE_4)


# -- the LLM with a session's own key -------------------------------------------------------------------


@pytest.fixture
def llm_server():
    if not systems.importable(systems.LLM_SYSTEM):
        pytest.skip("the llm system is not installed")
    pytest.importorskip("openai")
    from tests.llm_server import LLMServer

    with LLMServer() as server:
        yield server


def test_llm_settings_are_validated():
    with pytest.raises(SpaceError, match="Paste an API key"):
        handlers.llm_settings("https://api.example.org/v1", "m", "chat", "")
    with pytest.raises(SpaceError, match="http\\(s\\) URL"):
        handlers.llm_settings("file:///etc/passwd", "m", "chat", "sk-abcdefgh")
    settings = handlers.llm_settings(" https://api.example.org/v1/ ", "m", "chat", " sk-abcdefgh ")
    assert settings.base_url == "https://api.example.org/v1" and settings.api_key == "sk-abcdefgh"
    assert "sk-abcdefgh" not in repr(settings)
    with pytest.raises(SpaceError, match="needs an API key"):
        handlers.substitute("A bright day.", "bright", 1, "auto", "llm")


def test_llm_uses_each_sessions_key_and_never_the_environment(llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-server-owner-key-never-used")
    keys = [f"sk-session-{n}-0123456789" for n in range(2)]
    results = {}

    def ask(key: str) -> None:
        settings = handlers.llm_settings(llm_server.base_url, "davinci-002", "completions", key)
        results[key] = handlers.substitute("She gave a bright answer.", "bright", 1, "ADJ", "llm", llm=settings)

    threads = [threading.Thread(target=ask, args=(key,)) for key in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert llm_server.authorization == {f"Bearer {key}" for key in keys}
    for key in keys:
        assert [s["substitute"] for s in results[key].suggestions][:3] == ["alternative", "option", "choice"]
    assert not any(key in value for value in os.environ.values() for key in keys)


def test_an_unreachable_llm_endpoint_is_a_message_without_the_key():
    if not systems.importable(systems.LLM_SYSTEM):
        pytest.skip("the llm system is not installed")
    with socket.socket() as probe:  # a port with nothing listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    key = "sk-secret-abcdefghijklmnop"
    settings = handlers.llm_settings(f"http://127.0.0.1:{port}/v1", "davinci-002", "completions", key)
    started = time.perf_counter()
    with pytest.raises(SpaceError, match="did not answer: cannot connect to http://127.0.0.1") as error:
        handlers.substitute("She gave a bright answer.", "bright", 1, "ADJ", "llm", llm=settings)
    assert key not in str(error.value) and time.perf_counter() - started < 20


# -- the offline systems on free text, and `swords demo` ------------------------------------------------


def test_wordnet_answers_free_text_without_gold():
    if not systems.importable("wordnet"):
        pytest.skip("the wordnet system is not installed")
    result = handlers.substitute("She gave a bright answer.", "bright", 1, "auto", "wordnet", top_k=5)
    assert result.example is None and result.metrics is None and result.row["pos"] == "ADJ"
    assert len(result.suggestions) == 5 and "brilliant" in [s["substitute"] for s in result.suggestions]
    assert {s["judgement"] for s in result.suggestions} == {NOT_IN_BENCHMARK}
    assert "guessed" in result.status and "free text" in result.status


def test_swords_demo_is_a_subcommand(monkeypatch, tmp_path):
    pytest.importorskip("gradio")
    from swords_dataset import cli

    app = importlib.import_module("swords_space.app")
    space_cli = importlib.import_module("swords_space.cli")
    seen = []
    monkeypatch.setattr(app, "serve", lambda args: seen.append(args) or 0)
    with socket.socket() as probe:  # a port that is free now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert cli.main(["demo", "--port", str(port), "--results", str(tmp_path)]) == 0
    assert (seen[0].port, seen[0].host, seen[0].results) == (port, None, str(tmp_path))
    assert cli.parser().parse_args(["demo"]).func is space_cli.run


def test_an_example_without_gold_says_so():
    row = next(r for r in data.load_rows("semeval07", "test") if not r["substitutes"])
    context, target, occurrence, pos, key = handlers.example_inputs("semeval07 test", row["id"])
    result = handlers.substitute(context, target, occurrence, pos, "coinco-oracle", example=key)
    assert result.example == ("semeval07", "test") and result.metrics is None
    assert "no gold substitutes" in result.status and result.metrics_table().empty
