"""The Python API given what it must refuse, each in one MetricInputError of ours saying what was wrong and what is
expected: `add`/`add_batch`/`compute` misused (evaluate's own lines named its internals), a prediction nested
100,000 lists deep (a RecursionError), `k` for TSAR-2022, `include_problematic="yes"`, rows of two TSAR-2022
configs (signed as the first's), and `read(max_bytes=…)` on the official formats (ignored; "larger than 0 MB").
A refused call leaves the metric as it was: the next compute gives what a fresh one gives."""

from __future__ import annotations

import csv
import json

import pytest

import swords_dataset
import swords_metric
from swords_metric import MetricInputError, Scorer, scorer_for


@pytest.fixture(scope="module")
def metric():
    pytest.importorskip("evaluate")
    return swords_metric.load()


def gold_first(rows: list[dict]) -> list[list[str]]:
    """Each target's own gold substitutes, best first: a system that is right wherever it answers."""
    return [[s["substitute"] for s in row["substitutes"]][:10] for row in rows]


def deep_list(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def test_a_prediction_nested_100000_lists_deep_is_one_line(metric, swords_test):
    deep = deep_list(100_000)
    target = swords_test[3]["id"]
    in_order = gold_first(swords_test)
    in_order[3] = deep
    for predictions in (in_order, {target: deep}, {target: [deep]}):
        with pytest.raises(MetricInputError) as refused:
            metric.compute(predictions=predictions, references=swords_test)
        assert str(refused.value).startswith(f"target {target}: item 0")
        assert "[[[[" in str(refused.value) and len(str(refused.value)) < 200
    with pytest.raises(MetricInputError, match=f"target {target}: item 0: substitute .* is not a string"):
        Scorer(swords_test).score({target: [[deep, 1.0]]})


MISUSES = [
    (lambda m, rows: m.add(), "add: nothing given; add(prediction=…, reference=…)"),
    (lambda m, rows: m.add(prediction=["a"]), "add: prediction=… without reference=…"),
    (lambda m, rows: m.add(reference=rows[0]), "add: reference=… without prediction=…"),
    (lambda m, rows: m.add(predictions=["a"], references=rows[0]), "add: no argument 'predictions'; add(prediction="),
    (lambda m, rows: m.add(["a"], rows[0]), "add: give the arguments by name: add(prediction=…, reference=…)"),
    (
        lambda m, rows: m.add(prediction=["a"], reference=rows[0], k=5),
        "add: no argument 'k'; add(prediction=…, reference=…): one target's substitutes and its benchmark row; options "
        "such as k go to compute()",
    ),
    (lambda m, rows: m.add_batch(), "add_batch: nothing given; add_batch(predictions=…, references=…)"),
    (lambda m, rows: m.add_batch(predictions=[["a"]]), "add_batch: predictions=… without references=…"),
    (lambda m, rows: m.add_batch(prediction=["a"], reference=rows[0]), "add_batch: no argument 'prediction'"),
    (lambda m, rows: m.add_batch([["a"]], rows[:1]), "add_batch: give the arguments by name"),
    (lambda m, rows: m.add_batch(predictions=[["a"]], references=rows[:1], k=5), "add_batch: no argument 'k'"),
    (lambda m, rows: m.compute([["a"]], rows[:1]), "compute: give the arguments by name"),
    (
        lambda m, rows: m.compute(predictions=[["a"]], references=rows[:1], kk=5),
        "compute: no option 'kk'; its options are k, bootstrap, seed, split, include_problematic, setting",
    ),
    (lambda m, rows: m.compute(predictions=[["a"]], references=rows[:1], split=5), "split must be a split's name"),
    (
        lambda m, rows: m.compute(predictions=[["a"]], references=rows[:1], setting="x"),
        "setting must be one of generative, ranking, got 'x'",
    ),
]


@pytest.mark.parametrize("misuse, message", MISUSES)
def test_add_add_batch_and_compute_misuse_is_our_own_line(metric, swords_test, misuse, message):
    with pytest.raises(MetricInputError) as refused:
        misuse(metric, swords_test)
    assert str(refused.value).startswith(message), str(refused.value)
    assert "\n" not in str(refused.value) and "Evaluation module" not in str(refused.value)


@pytest.mark.slow  # 7 s on two cores
def test_a_refused_call_leaves_nothing_stored(metric, swords_test, coinco_test):
    """A bad prediction in the second chunk of 1,000 (evaluate had stored the first: the next compute failed with
    'reference ids are not unique'), and an option refused after add(): the next compute is a fresh one's."""
    expected = Scorer(coinco_test).score(gold_first(coinco_test))["lenient_a_f@10"]
    bad = gold_first(coinco_test)
    bad[1500] = 5
    with pytest.raises(MetricInputError, match=f"target {coinco_test[1500]['id']}: predictions must be a list"):
        metric.compute(predictions=bad, references=coinco_test)
    assert metric.compute(predictions=gold_first(coinco_test), references=coinco_test)["lenient_a_f@10"] == expected
    metric.add_batch(predictions=gold_first(coinco_test), references=coinco_test)
    for options in ({"k": 0}, {"include_problematic": "yes"}, {"bootstrap": -1}):
        with pytest.raises(MetricInputError):
            metric.compute(**options)
    assert metric.compute()["lenient_a_f@10"] == expected  # what add_batch stored, once
    assert expected > 90  # the gold itself: the figure is a real one


@pytest.mark.parametrize("value", ["yes", "no", 1, None])
@pytest.mark.slow  # 5 s on two cores
def test_include_problematic_is_true_or_false(metric, coinco_test, value):
    message = f"include_problematic must be True or False, got {value!r}"
    with pytest.raises(MetricInputError, match=message):
        Scorer(coinco_test, include_problematic=value)
    with pytest.raises(MetricInputError, match=message):
        Scorer.from_dataset("coinco", "test", include_problematic=value)
    with pytest.raises(MetricInputError, match=message):
        metric.compute(predictions=gold_first(coinco_test), references=coinco_test, include_problematic=value)
    assert Scorer(coinco_test, include_problematic=True).signature().endswith("problematic:included")


def test_k_is_refused_for_tsar_2022_as_the_cli_refuses_it(metric):
    rows = swords_dataset.rows("tsar2022_en", "test")
    message = r"k=5: TSAR-2022's metrics have their own cut-offs .*; leave k out"
    for make in (
        lambda: scorer_for(rows, k=5),
        lambda: Scorer.from_dataset("tsar2022_en", "test", k=5),
        lambda: metric.compute(predictions=gold_first(rows), references=rows, k=5),
    ):
        with pytest.raises(MetricInputError, match=message):
            make()
    assert "|k:5|" in Scorer.from_dataset("prolex", "test", k=5).signature()  # ProLex's metrics are at k


def test_rows_of_two_tsar_configs_are_refused_naming_the_first_of_the_second(metric):
    spanish, english = swords_dataset.rows("tsar2022_es", "test"), swords_dataset.rows("tsar2022_en", "test")
    mixed = spanish[:5] + english[:5]
    message = (
        r"reference 'tsar2022_en:test:0001' \(item 5\) is a row of tsar2022_en, the rows before it of "
        "tsar2022_es; score one benchmark at a time"
    )
    with pytest.raises(MetricInputError, match=message):
        scorer_for(mixed)
    with pytest.raises(MetricInputError, match=message):
        metric.compute(predictions=gold_first(mixed), references=mixed)
    # Two splits of one config, one after the other: signed as the joined split, as from_dataset signs it.
    joined = swords_dataset.rows("tsar2022_en", "trial") + english
    assert "|split:trial+test|" in scorer_for(joined).signature()
    assert scorer_for(joined).signature() == Scorer.from_dataset("tsar2022_en", "trial+test").signature()


def write_tsar_tsv(path, rows) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(f"{row['context'].strip()}\t{row['target']}\t{row['substitutes'][0]['substitute']}\n")


def write_prolex_csv(path, rows) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["target word", "Sentence", "Substitutes"])
        for row in rows:
            writer.writerow([row["target"], row["context"], ", ".join(s["substitute"] for s in row["substitutes"])])


@pytest.mark.parametrize(
    "config, suffix, write", [("tsar2022_en", ".tsv", write_tsar_tsv), ("prolex", ".csv", write_prolex_csv)]
)
def test_read_keeps_to_max_bytes_in_the_official_formats(tmp_path, config, suffix, write):
    scorer = Scorer.from_dataset(config, "test")
    path = tmp_path / f"run{suffix}"
    write(path, scorer.rows)
    size = path.stat().st_size
    assert 20_000 < size < 2**20  # a whole split's answers: tens of kilobytes
    for limit, shown in ((1000, "1,000 bytes"), (10_000, "9.8 KB"), (size - 1, f"{(size - 1) / 1024:.0f} KB")):
        with pytest.raises(MetricInputError, match=f"larger than {shown}; not a predictions file"):
            scorer.read(path, max_bytes=limit)
    assert scorer.read(path, max_bytes=size).given == len(scorer.rows)
    jsonl = tmp_path / "run.jsonl"
    jsonl.write_text("".join(json.dumps({"id": row["id"], "substitutes": ["a"]}) + "\n" for row in scorer.rows))
    with pytest.raises(MetricInputError, match="larger than 1,000 bytes"):
        scorer.read(jsonl, max_bytes=1000)


def test_a_small_limit_is_said_in_bytes_or_kilobytes(tmp_path, swords_test):
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps({"id": swords_test[0]["id"], "substitutes": ["a"] * 500}) + "\n")  # 2.5 kB
    scorer = Scorer(swords_test)
    for limit, shown in ((1, "1 byte"), (512, "512 bytes"), (1536, "1.5 KB")):
        with pytest.raises(MetricInputError, match=f"larger than {shown}; not a predictions file"):
            scorer.read(path, max_bytes=limit)
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as f:
        f.truncate(65 << 20)  # sparse: its size is what is checked, before reading
    with pytest.raises(MetricInputError, match="larger than 64 MB; not a predictions file"):
        scorer.read(big, max_bytes=64 << 20)
