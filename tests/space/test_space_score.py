"""The Score tab's handlers on the real bundled data: scores equal the metric's, stored baselines, and every bad
upload a clear message."""

from __future__ import annotations

import gzip
import json

import pytest

from swords_metric import Scorer

from .helpers import COINCO_ORACLE, import_space, write

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_space import benchmarks, scoring, stored  # noqa: E402  (after the import fallback)
from swords_space.errors import SpaceError  # noqa: E402
from swords_space.tabs.score import on_score, on_score_page, score_predictions  # noqa: E402
from swords_space.tabs.score_files import MAX_UNCOMPRESSED_BYTES, MAX_UPLOAD_BYTES  # noqa: E402
from swords_space.tabs.score_result import CURVE_KS, curve_frame  # noqa: E402


def test_scoring_an_upload_matches_the_scorer(swords_test, coinco_predictions):
    result = score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=200)
    expected = Scorer(swords_test, split="test").score(coinco_predictions, bootstrap=200)
    table = result.metrics_table().set_index("key")
    assert table.loc["lenient_a_f@10", "value"] == round(expected["lenient_a_f@10"], 2)
    assert table.loc["lenient_a_f@10", "95% interval"].startswith("[")
    assert result.result["signature"] == expected["signature"] and "bootstrap:200" in result.result["signature"]
    assert set(result.by_pos_table()["POS"]) == {"NOUN", "VERB", "ADJ", "ADV"}
    published = result.published_table().data
    assert published.iloc[0]["source"] == "this run, measured here"
    assert published.iloc[0]["F@10 A"] == round(expected["lenient_a_f@10"], 2)
    assert {"CoInCo (oracle)", "Thesaurus (oracle)"} <= set(published["system"])
    assert "Humans" not in set(published["system"])  # published on swords_test_subset, not this split
    assert "762 targets" in result.summary()


def test_the_curve_equals_scoring_at_each_k(swords_test, coinco_predictions):
    scorer = scoring.scorer_for("swords", "test")
    curve = curve_frame(scorer.family.curve(scorer, coinco_predictions, CURVE_KS))
    assert sorted(curve["k"].unique()) == list(range(1, 21))
    for k in (1, 3, 10, 20):
        expected = Scorer(swords_test, k=k).score(coinco_predictions, by_pos=False)
        for setting in ("lenient", "strict"):
            for letter, name in (("a", "acceptable"), ("c", "conceivable")):
                at = curve[(curve["k"] == k) & (curve["setting"] == setting)].set_index("series")["value"]
                assert at[f"P, {name}"] == pytest.approx(expected[f"{setting}_{letter}_p@{k}"], abs=1e-9)
                assert at[f"R, {name}"] == pytest.approx(expected[f"{setting}_{letter}_r@{k}"], abs=1e-9)


def test_stored_baselines_can_be_scored_on_their_own_split():
    choices = dict((name, label) for label, name in stored.stored_predictions())
    assert COINCO_ORACLE.name in choices and "coinco-oracle" in choices[COINCO_ORACLE.name]
    assert stored.stored_split(COINCO_ORACLE.name) == "swords test"
    result = score_predictions(None, COINCO_ORACLE.name, "swords test", bootstrap=0)
    assert result.result["lenient_c_f@10"] == pytest.approx(63.6, abs=0.5)  # Table 4, up to tie order
    with pytest.raises(SpaceError, match="No stored predictions"):
        score_predictions(None, "../../setup.cfg", "swords test")


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.jsonl", b"", "is empty"),
        ("latin1.jsonl", '{"id": "t:1", "substitutes": ["caf\u00e9"]}\n'.encode("latin-1"), ":1: not UTF-8 text"),
        ("binary.json", bytes(range(256)) * 10, ":2: not UTF-8 text"),
        ("list.json", b"[1, 2, 3]", "expected a JSON object"),
        ("lines.jsonl", b'{"id": "x"}\n', "expected an object with 'id' and 'substitutes'"),
        (
            "notjson.jsonl",
            b"hello\n",
            r"notjson.jsonl:1: not JSON: predictions are JSON lines \(.jsonl\)",
        ),
        # What the file is, and what is read: a metrics file (named .json too), TSAR-2022's TSV, ProLex's CSV.
        (
            "run.metrics.json",
            (COINCO_ORACLE.parent / "coinco-oracle.swords.test.metrics.json").read_bytes(),
            r"^run.metrics.json: a metrics file \(the figures swords evaluate and swords run write\), not predictions",
        ),
        ("run.tsv", b"She is bright.\tbright\tclever\n", r"run.tsv:1: not JSON: a .tsv file \(TSAR-2022's format"),
        ("run.csv", b"id,substitutes\n", r"run.csv:1: not JSON: a .csv file \(ProLex's format.*JSON lines \(.jsonl\)"),
        ("bad.gz", b"not gzip at all", "not a readable gzip file"),
    ],
)
def test_bad_uploads_are_clear_messages(tmp_path, name, content, message):
    with pytest.raises(SpaceError, match=message) as error:
        score_predictions(write(tmp_path / name, content), None, "swords test", bootstrap=0)
    assert str(tmp_path) not in str(error.value)  # the server's temporary path is not shown, the name is


def test_the_page_says_why_a_file_is_not_scored_below_the_button_and_empties_the_tables(tmp_path):
    """The page's Score button: the message stays below it (no error that fades and leaves "Error" on every
    output); the API's /score still answers with the error."""
    import gradio as gr

    shipped = COINCO_ORACLE.parent / "thesaurus-oracle.swords.test.metrics.json"
    metrics = write(tmp_path / "run.metrics.json", shipped.read_bytes())
    *outputs, status = on_score_page(metrics, None, "swords test", "generative", 0, progress=lambda *a, **k: None)
    assert status.startswith("**Not scored.** run.metrics.json: a metrics file")
    summary, table, by_pos, curve, published, signature = outputs[:6]
    assert summary == signature == "" and table.empty and by_pos.empty and curve.empty and published.empty
    assert not outputs[14].visible  # no comparison block
    quiet = {"progress": lambda *a, **k: None}
    *scored, status = on_score_page(str(COINCO_ORACLE), None, "swords test", "generative", 0, **quiet)
    assert status == "" and "762 targets" in scored[0]
    assert (scored[1].label, scored[9].label) == ("Metrics (percent)", "Paired test (percent)")  # their unit
    assert all(block.visible for block in scored[-4:])  # the SWORDS metrics' panels: charts, worst, by POS, differences
    with pytest.raises(gr.Error, match="a metrics file"):
        on_score(metrics, None, "swords test", "generative", 0, progress=lambda *a, **k: None)


def test_uploads_over_the_limit_are_refused_before_reading(tmp_path):
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as f:
        f.truncate(MAX_UPLOAD_BYTES + 1)
    with pytest.raises(SpaceError, match="the limit is 20 MB"):
        score_predictions(str(big), None, "swords test")
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as f:
        chunk = b" " * (1 << 20)
        for _ in range(MAX_UNCOMPRESSED_BYTES // len(chunk) + 2):
            f.write(chunk)
    assert bomb.stat().st_size < MAX_UPLOAD_BYTES
    with pytest.raises(SpaceError, match="expands past"):
        score_predictions(str(bomb), None, "swords test")


def test_a_file_for_another_split_names_the_right_one(tmp_path):
    coinco_row = benchmarks.load_rows("coinco", "test")[0]
    path = write(tmp_path / "coinco.jsonl", json.dumps({"id": coinco_row["id"], "substitutes": ["x"]}).encode())
    with pytest.raises(SpaceError, match="not in swords test.*are dataset ids of coinco test. Choose coinco test as"):
        score_predictions(path, None, "swords test")
    with pytest.raises(SpaceError, match="Upload a predictions file"):
        score_predictions(None, None, "swords test")


def test_partial_predictions_are_scored_and_flagged(tmp_path, coinco_predictions):
    some = dict(list(coinco_predictions.items())[:100])
    path = write(
        tmp_path / "some.jsonl",
        "".join(json.dumps({"id": k, "substitutes": v}) + "\n" for k, v in some.items()).encode(),
    )
    result = score_predictions(path, None, "swords test", bootstrap=0)
    assert result.result["targets_without_predictions"] == 662 and "662 without predictions" in result.summary()


def test_the_summary_names_unicode_variants_of_gold_words(swords_test, tmp_path):
    """A gold word given in another Unicode form (fullwidth letters, a zero-width joiner) is not
    matched, as upstream does not match it; the Score tab says how many there were."""

    row = next(r for r in swords_test if any(s["score"] > 0.5 and s["substitute"].isalpha() for s in r["substitutes"]))
    gold = next(s["substitute"] for s in row["substitutes"] if s["score"] > 0.5 and s["substitute"].isalpha())
    variants = [
        gold.translate({ord(c): ord(c) + 0xFEE0 for c in gold}),  # fullwidth
        gold[:1] + "\u200d" + gold[1:],
    ]  # a zero-width joiner
    upload = write(tmp_path / "variants.jsonl", json.dumps({"id": row["id"], "substitutes": variants}).encode())
    result = score_predictions(upload, None, "swords test", bootstrap=0)
    assert result.result["input_notes"]["unicode_variants"] == 2
    assert "2 Unicode variants of a gold word (not matched" in result.summary()
    assert result.result["lenient_a_f@10"] == 0.0  # one hit on one target would show: neither counts
