"""The Score tab's account of what a system proposed, on a stored baseline's real predictions: the class and
relation charts add up to the metric's own figures (strict precision; the details file's per-substitute records),
the worst targets are the lowest per-target F, a worst target opens in the Substitute tab, the file is read once;
and the published rows of the split stand beside the run."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from swords_metric import CLASSES, RELATIONS, Scorer, published_systems

from .helpers import COINCO_ORACLE, import_space

pytest.importorskip("pandas", reason="the Space's tables are pandas DataFrames (installed with gradio)")
import_space()
from swords_space import benchmarks, free_text  # noqa: E402  (after the import fallback)
from swords_space.errors import SpaceError  # noqa: E402
from swords_space.published import notes  # noqa: E402
from swords_space.tabs import score_analysis  # noqa: E402
from swords_space.tabs.score import score_predictions  # noqa: E402


@pytest.fixture(scope="module")
def scored():
    return score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=0)


@pytest.fixture(scope="module")
def details(tmp_path_factory) -> list[dict]:
    """What the metric counted, substitute by substitute and target by target (a details file it wrote)."""
    path = tmp_path_factory.mktemp("details") / "coinco-oracle.details.jsonl"
    Scorer.from_dataset("swords", "test").read(COINCO_ORACLE, details=path)
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_class_chart_is_strict_precision_overall_and_per_pos(scored, swords_test, coinco_predictions):
    chart = score_analysis.class_chart(scored.analysis)
    expected = Scorer(swords_test, split="test").score(coinco_predictions)
    assert list(chart["targets"].unique()) == ["all", *sorted(expected["by_pos"])]
    for group, figures in [("all", expected), *expected["by_pos"].items()]:
        bars = chart[chart["targets"] == group].set_index("kind")
        assert sorted(bars.index) == sorted(CLASSES) and bars["share"].sum() == pytest.approx(100)
        # The acceptable share is strict P@10 against acceptable; with conceivable, against conceivable.
        assert bars.loc["acceptable", "share"] == pytest.approx(figures["strict_a_p@10"], abs=1e-9)
        assert bars.loc[["acceptable", "conceivable"], "share"].sum() == pytest.approx(
            figures["strict_c_p@10"], abs=1e-9
        )
    # Stacked with the metric's first class on the axis: the chart meets the classes last one first.
    assert list(chart["kind"][: len(CLASSES)]) == list(reversed(CLASSES))


def test_the_relation_chart_counts_what_the_details_file_records(scored, details):
    chart = score_analysis.relation_chart(scored.analysis)
    counted = Counter(r["relation"] for r in details if r["kind"] == "substitute" and r["in_strict_top_k"])
    overall = chart[chart["targets"] == "all"].set_index("kind")
    assert sorted(overall.index) == sorted(RELATIONS)
    assert {kind: int(n) for kind, n in overall["substitutes"].items() if n} == dict(counted)
    assert overall["share"].sum() == pytest.approx(100)
    by_class = Counter(r["class"] for r in details if r["kind"] == "substitute" and r["in_strict_top_k"])
    classes = score_analysis.class_chart(scored.analysis)
    assert {
        k: int(n) for k, n in classes[classes["targets"] == "all"].set_index("kind")["substitutes"].items() if n
    } == dict(by_class)


def test_the_worst_targets_are_the_lowest_per_target_f(scored, details, swords_test):
    table = score_analysis.worst_table(scored.analysis)
    assert list(table.columns) == score_analysis.WORST_COLUMNS and len(table) == score_analysis.WORST_TARGETS
    targets = {r["id"]: r for r in details if r["kind"] == "target" and r["acceptable"]}
    lowest = sorted(round(r["lenient_a_f"], 1) for r in targets.values())[: len(table)]
    assert list(table["lenient F@10"]) == lowest
    rows = {row["id"]: row for row in swords_test}
    for _, line in table.iterrows():
        full = benchmarks.full_id("swords", "test", line["id"])  # shown short: "t:65b44b55…"
        record, row = targets[full], rows[full]
        assert (line["target"], line["POS"]) == (row["target"], row["pos"])
        proposed, missed = (words(line[column]) for column in ("proposed (its top 10)", "acceptable, missed"))
        assert proposed.isdisjoint(missed) and proposed <= set(record["top"])  # nothing proposed is missed
        assert missed <= set(record["acceptable_missed"])
        if record["lenient_a_f"] == 0:  # an F of 0 missed every acceptable substitute
            assert len(record["acceptable_missed"]) == record["acceptable"]


def words(cell: str) -> set[str]:
    """The words a table cell lists (not its "… (N more)" or "(none)")."""
    return {word for word in cell.split(score_analysis.SEPARATOR) if not word.startswith(("…", "(none)"))}


def test_a_worst_target_opens_in_the_substitute_tab(scored, swords_test):
    table = score_analysis.worst_table(scored.analysis)
    row = table.iloc[0].tolist()  # as the table's select event hands it over (SelectData.row_value)
    context, target, occurrence, pos, key, status = score_analysis.open_target("swords test", row)
    assert row[-1] == benchmarks.short_id(key["id"]) == key["id"][:10] + "…"  # shown short, opened whole
    example = next(r for r in swords_test if r["id"] == key["id"])
    assert (target, pos, key["id"]) == (example["target"], example["pos"], example["id"])
    assert status == f"**{target}** is filled in: press **Suggest substitutes** to see its substitutes."
    assert free_text.locate(context, target, occurrence)[0] == example["offset"]
    for bad in (None, [], [1, 2], "t:x", [None]):
        with pytest.raises(SpaceError, match="Select a row"):
            score_analysis.open_target("swords test", bad)
    with pytest.raises(SpaceError, match="No example"):
        score_analysis.open_target("swords test", ["x", "t:not-a-target"])


def test_the_file_is_read_once_for_every_figure(monkeypatch):
    reads = []
    original = Scorer.read
    monkeypatch.setattr(Scorer, "read", lambda self, path, **kw: reads.append(path) or original(self, path, **kw))
    result = score_predictions(str(COINCO_ORACLE), None, "swords test", bootstrap=0)
    assert len(reads) == 1 and result.analysis["all"]["targets"] == 762 and len(result.curve)


@pytest.mark.slow  # 4 s on two cores
def test_published_rows_of_the_split_stand_beside_the_run(scored, tmp_path):
    table = scored.published_table().data  # a Styler: the run's row highlighted
    published = published_systems("swords", "test")
    assert len(table) == 1 + len(published) and table.iloc[0]["source"] == "this run, measured here"
    assert table.iloc[0]["system"] == "coinco-oracle.s…"  # the file's name, short (the summary has it whole)
    assert table.iloc[0]["F@10 A"] == round(scored.result["lenient_a_f@10"], 2)
    assert list(table["source"][1:]) == [row.source for row in published]
    # The columns its published rows report, no other (LexSubGen's are SemEval-2007's and CoInCo's); the setting a
    # short label, its variant numbered in the note below the table.
    assert list(table.columns) == ["system", "source", "F@10 A", "F@10 C", "strict F@10 A", "strict F@10 C"] + [
        "GAP-rat",
        "best",
        "best-m",
        "oot",
        "oot-m",
        "P@1",
        "setting",
    ]
    assert table.iloc[1]["setting"] == "generative [1]" and table.iloc[0]["setting"] == "generative"
    variant = next(row.variant for row in published if row.label == table.iloc[1]["system"])
    assert f"[1] {variant}." in notes("swords", "test")
    assert {"Lee et al. 2021, Tables 4, 7, 8", "Wada et al. 2022, Table 1"} <= set(table["source"])
    assert "GPT-3 † (reranked by BERT)" in set(table["system"])
    # CoInCo test, answered by its own gold (an oracle): Seneviratne et al.'s quoted rows stand beside it.
    oracle = tmp_path / "coinco-gold.jsonl"
    oracle.write_text(
        "".join(
            json.dumps({"id": row["id"], "substitutes": [s["substitute"] for s in row["substitutes"]]}) + "\n"
            for row in benchmarks.load_rows("coinco", "test")
        )
    )
    alone = score_predictions(str(oracle), None, "coinco test", bootstrap=0).published_table().data
    assert len(alone) == 1 + 3 == 1 + len(published_systems("coinco", "test"))
    assert list(alone.columns)[2:-1] == ["GAP", "best", "best-m", "oot", "oot-m", "LSG P@1", "LSG P@3"]
    assert set(alone["source"][1:]) == {
        "Seneviratne et al. 2022, Table 2, unverified",
        "Seneviratne et al. 2022, Table 3, unverified",
    }


@pytest.mark.parametrize(("config", "split"), [("swords", "test"), ("swords", "dev"), ("coinco", "test")])
def test_a_short_id_stands_for_one_target_of_its_split(config, split):
    ids = [row["id"] for row in benchmarks.load_rows(config, split)]
    shorts = [benchmarks.short_id(row_id) for row_id in ids]
    assert len(set(shorts)) == len(ids) and max(map(len, shorts)) <= 14
    assert [benchmarks.full_id(config, split, short) for short in shorts] == ids
