"""The Score tab with a second file to compare with, on real systems (the stored CoInCo oracle against the wordnet
baseline's answers on SWORDS test): the differences are each file's own per-target figures, the paired test's
columns each file's own scores, and a bad second file is refused as the first is, naming it."""

from __future__ import annotations

import gzip
import json
import math

import pytest

from swords_metric import Scorer

from .helpers import COINCO_ORACLE, import_space, importable, write

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_space import benchmarks, systems  # noqa: E402  (after the import fallback)
from swords_space.errors import SpaceError  # noqa: E402
from swords_space.tabs import score_compare  # noqa: E402
from swords_space.tabs.score import score_predictions  # noqa: E402
from swords_space.tabs.score_files import MAX_UNCOMPRESSED_BYTES, MAX_UPLOAD_BYTES  # noqa: E402


@pytest.fixture(scope="module")
def wordnet_file(tmp_path_factory, swords_test) -> str:
    """The wordnet baseline's answers for every SWORDS test target, as a predictions file."""
    if not importable("wordnet"):
        pytest.skip("the wordnet system is not installed")
    path = tmp_path_factory.mktemp("compare") / "wordnet.swords.test.jsonl"
    path.write_text(
        "".join(
            json.dumps({"id": row["id"], "substitutes": systems.predict("wordnet", row, None)}) + "\n"
            for row in swords_test
        )
    )
    return str(path)


@pytest.fixture(scope="module")
def compared(wordnet_file):
    return score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=0, compare_upload=wordnet_file)


def per_target_f(path) -> dict[str, float]:
    """Each scored target's lenient F@10 against acceptable, from one file alone."""
    scorer = Scorer.from_dataset("swords", "test")
    return {record["id"]: record["lenient_a_f"] for record in scorer.target_details(scorer.read(path))}


def test_differences_are_each_files_own_per_target_figures(compared, wordnet_file):
    table = score_compare.differences_table(compared.differences)
    assert list(table.columns) == score_compare.DIFFERENCE_COLUMNS
    assert len(table) == score_compare.DIFFERENCES_SHOWN
    oracle, wordnet = per_target_f(COINCO_ORACLE), per_target_f(wordnet_file)
    gaps = sorted((abs(oracle[i] - wordnet[i]) for i in oracle), reverse=True)
    assert [abs(d) for d in table["difference"]] == [round(gap, 1) for gap in gaps[: len(table)]]
    for _, row in table.iterrows():
        full = benchmarks.full_id("swords", "test", row["id"])  # shown short: "t:408b6a7c…"
        assert row["id"] == benchmarks.short_id(full) and len(row["id"]) == 11
        assert row["F@10, this file"] == round(oracle[full], 1)
        assert row["F@10, compared file"] == round(wordnet[full], 1)
        assert row["difference"] == round(oracle[full] - wordnet[full], 1)
    chart = score_compare.differences_chart(compared.differences)
    assert list(chart["difference"]) == list(table["difference"])
    assert all(chart["target"][i].endswith(f". {target}") for i, target in enumerate(table["target"]))
    assert set(chart["better"]) <= {score_compare.THIS_FILE, score_compare.COMPARED}
    assert all(
        (better == score_compare.THIS_FILE) == (d > 0)
        for better, d in zip(chart["better"], chart["difference"], strict=True)
    )


def test_the_paired_test_shows_each_files_own_scores(compared, wordnet_file, swords_test):
    table = score_compare.comparison_table(compared.comparison).set_index("metric")
    scorer = Scorer(swords_test, split="test")
    oracle = scorer.score(json_predictions(COINCO_ORACLE), by_pos=False)
    wordnet = scorer.score(json_predictions(wordnet_file), by_pos=False)
    assert table.loc["lenient F@10, acceptable", "this file"] == round(oracle["lenient_a_f@10"], 2)
    assert table.loc["lenient F@10, acceptable", "compared file"] == round(wordnet["lenient_a_f@10"], 2)
    assert table.loc["GAP", "difference"] == round(oracle["gap"] - wordnet["gap"], 2)
    assert table["95% interval"].str.startswith("[").all() and table["p-value"].astype(float).between(0, 1).all()
    assert "Compared with **wordnet.swords.test.jsonl**" in compared.summary()
    alone = score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=0)
    assert alone.comparison is None and score_compare.comparison_table(alone.comparison).empty
    assert score_compare.differences_table(alone.differences).empty


def json_predictions(path) -> dict:
    from swords_metric import read_predictions

    return read_predictions(path)[0]


def test_a_stored_file_and_a_partial_file_can_be_compared(tmp_path, coinco_predictions):
    same = score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=0, compare_stored=COINCO_ORACLE.name)
    assert same.compared == f"{COINCO_ORACLE.name} (compared)" and same.differences == []
    some = dict(list(coinco_predictions.items())[:100])
    path = write(
        tmp_path / "some.jsonl",
        "".join(json.dumps({"id": k, "substitutes": v}) + "\n" for k, v in some.items()).encode(),
    )
    partial = score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=0, compare_upload=path)
    assert (
        "answer different targets (coinco-oracle.swords.test.jsonl: 762, some.jsonl: 100, both: 100 of 762)"
        in partial.summary()
    )
    assert all(r["b_in_predictions"] is False for r in partial.differences)  # only unanswered targets differ


def test_a_bad_second_file_is_refused_as_the_first_is(tmp_path):
    def score_with(path):
        return score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=0, compare_upload=path)

    big = tmp_path / "big.jsonl"
    with open(big, "wb") as f:
        f.truncate(MAX_UPLOAD_BYTES + 1)
    with pytest.raises(SpaceError, match="big.jsonl is 20.0 MB; the limit is 20 MB"):
        score_with(str(big))
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as f:
        for _ in range(MAX_UNCOMPRESSED_BYTES // 2**20 + 2):
            f.write(b" " * 2**20)
    with pytest.raises(SpaceError, match="bomb.jsonl.gz: expands past"):
        score_with(str(bomb))
    coinco_row = benchmarks.load_rows("coinco", "test")[0]
    other = write(tmp_path / "coinco.jsonl", json.dumps({"id": coinco_row["id"], "substitutes": ["x"]}).encode())
    with pytest.raises(SpaceError, match="coinco.jsonl.*not in swords test.*Choose coinco test") as error:
        score_with(other)
    assert str(tmp_path) not in str(error.value)
    with pytest.raises(SpaceError, match="No stored predictions"):
        score_predictions(str(COINCO_ORACLE), None, "swords test", compare_stored="../../setup.cfg")


def test_a_difference_that_rounds_to_zero_shows_as_zero_not_minus_zero():
    """Issue 50: two files within a rounding of each other showed "-0" (and an interval "[-0.0, 0.5]")."""
    comparison = {"metrics": {"lenient_a_f@10": {"a": 30.0, "b": 30.001, "difference": -0.001,
                                                 "interval": [-0.04, 0.5], "p_value": 0.9}}}  # fmt: skip
    row = score_compare.comparison_table(comparison).iloc[0]
    assert row["difference"] == 0 and math.copysign(1, row["difference"]) == 1
    assert row["95% interval"] == "[0.0, 0.5]"
