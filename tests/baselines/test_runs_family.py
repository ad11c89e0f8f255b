"""`swords run` on ProLex and TSAR-2022 (issue 26): the run is scored with the benchmark's own official metrics, and
the figures it writes are the official scorers' own on the predictions it wrote (tsar_eval.py and ProLex's
evaluate.py run beside it, from the shared data folder); the systems that cannot answer a benchmark say so in one
line before any work; WordNet on English without POS reads the target under every POS. About 15 s."""

from __future__ import annotations

import json

import pytest

import swords_dataset
from swords_baselines.classic.wordnet import load_wordnet, target_readings, wordnet_substitutes
from swords_baselines.cli import list_systems

from ..metric.family_sources import (
    prolex_official,
    prolex_rows,
    tsar_gold_file,
    tsar_gold_lines,
    tsar_official_printed,
    tsar_official_unfloored,
    write_tsar_predictions,
)
from .run_helpers import one_line, swords


def run_wordnet(dataset: str, tmp_path) -> tuple[dict, list[list[str]], str]:
    """`swords run --system wordnet` on the split's test, as a user runs it: (its metrics file, its answers per line
    of the benchmark's file (ids are 1-based line numbers), what it printed)."""
    output = tmp_path / "wordnet.jsonl"
    done = swords(
        "run",
        "--system",
        "wordnet",
        "--dataset",
        dataset,
        "--split",
        "test",
        "--output",
        str(output),
        "--bootstrap",
        "0",
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    answers: list[list[str] | None] = [None] * len(swords_dataset.rows(dataset, "test"))
    for line in output.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        answers[int(record["id"].rsplit(":", 1)[1]) - 1] = [substitute for substitute, _ in record["substitutes"]]
    assert None not in answers
    return json.loads(output.with_name("wordnet.metrics.json").read_text()), answers, done.stdout


@pytest.mark.slow  # 4 s on two cores
def test_wordnet_on_tsar2022_en_test_is_scored_as_tsar_eval_scores_the_run_file(tmp_path):
    metrics, answers, printed = run_wordnet("tsar2022_en", tmp_path)
    lines = tsar_gold_lines("en", "test")
    predictions = write_tsar_predictions(
        tmp_path / "wordnet.tsv",
        [(sentence, target, given) for (sentence, target, _), given in zip(lines, answers, strict=True)],
    )
    official = tsar_official_unfloored(tsar_gold_file("en", "test"), predictions)
    assert {key: metrics[key] for key in official} == official  # to the bit
    assert metrics["official"] == tsar_official_printed(tsar_gold_file("en", "test"), predictions, tmp_path)
    assert metrics["acc@1"] > 0.1 and metrics["potential@10"] > 0.3  # WordNet finds simpler words for some
    assert metrics["signature"].startswith("tsar2022-metric:1.0|bench:tsar2022_en|split:test|family:tsar2022|")
    assert metrics["run"]["targets"] == 373 and "split_targets" not in metrics["run"]
    assert "family:tsar2022" in printed and "acc@1@top1" in printed and "tsar_eval.py prints" in printed
    assert "lenient" not in printed  # not the SWORDS tables
    # A partial run's file (`--limit`, lm-eval's): `swords evaluate --given-only` scores its targets alone, as
    # tsar_eval.py scores a gold file of those lines alone.
    first = tmp_path / "first.jsonl"
    first.write_text("".join((tmp_path / "wordnet.jsonl").read_text().splitlines(keepends=True)[:40]))
    done = swords(
        "evaluate", "--dataset", "tsar2022_en", "--split", "test", "--predictions", str(first), "--given-only", "--json"
    )
    assert done.returncode == 0, done.stderr
    evaluated = json.loads(done.stdout)
    gold = tmp_path / "gold-40.tsv"
    gold.write_text(
        "".join(tsar_gold_file("en", "test").read_text(encoding="utf-8").splitlines(keepends=True)[:40]),
        encoding="utf-8",
    )
    official = tsar_official_unfloored(
        gold,
        write_tsar_predictions(
            tmp_path / "first.tsv",
            [(sentence, target, given) for (sentence, target, _), given in zip(lines[:40], answers, strict=False)],
        ),
    )
    assert {key: evaluated[key] for key in official} == official
    assert (evaluated["targets_scored"], evaluated["targets_in_split"]) == (40, 373)
    assert evaluated["signature"].endswith("|targets:40") and official["acc@1"] > 0


@pytest.mark.slow  # 8 s on two busy cores (load 4-6)
def test_wordnet_on_prolex_test_is_scored_as_evaluate_py_scores_the_run_file(tmp_path):
    """evaluate.py's CSV reading cannot take an empty answer (WordNet has nothing for 39 targets), so the run's
    answers go to its calculate_metrics, with the gold lists read from the raw CSV (test_prolex_parity.py does the
    same for empty answers)."""
    metrics, answers, printed = run_wordnet("prolex", tmp_path)
    gold_rows = prolex_rows("test")
    assert [row["target"] for row in gold_rows] == [row["target"] for row in swords_dataset.rows("prolex", "test")]
    gold = {
        aspect: [[s["substitute"] for s in row["substitutes"] if label in s["labels"]] for row in gold_rows]
        for aspect, label in (("acc", "acceptable"), ("prof", "proficiency_acceptable"))
    }
    official = prolex_official([{"lists": {**gold, "predictions": answers}, "ks": [10]}], tmp_path)[0]
    for aspect in ("acc", "prof"):
        assert [metrics[f"{aspect}_{m}@10"] for m in "prf"] == official[f"{aspect}@10"], aspect
    assert metrics["acc_p@10"] > 0.05 and metrics["targets_without_predictions"] == sum(not a for a in answers) > 0
    assert metrics["signature"].startswith("prolex-metric:1.0|bench:prolex|split:test|family:prolex|k:10|")
    assert "prof_f@10" in printed and "family:prolex" in printed


@pytest.mark.parametrize(
    ("system", "dataset", "expected"),
    [
        ("wordnet", "tsar2022_es", "wordnet is English-only (English WordNet or thesaurus); tsar2022_es is Spanish"),
        (
            "wordnet+embedding",
            "tsar2022_pt",
            "wordnet+embedding is English-only (English WordNet or thesaurus); tsar2022_pt is Portuguese",
        ),
        (
            "embedding-rank",
            "tsar2022_en",
            "embedding-rank ranks the benchmark's candidate pool, which tsar2022_en does not give",
        ),
        (
            "coinco-oracle",
            "prolex",
            "coinco-oracle answers with CoInCo's substitutes for the same token, which prolex's targets do not have",
        ),
        (
            "humans-acceptable",
            "tsar2022_en",
            "humans-acceptable: only the 89 doubly annotated SWORDS test targets have a second annotation",
        ),
        ("bert-k", "prolex", "bert-k needs the target's POS and lemma, which prolex does not give"),
    ],
)
def test_a_system_that_cannot_answer_a_benchmark_says_so_in_one_line_before_any_work(
    tmp_path, system, dataset, expected
):
    done = swords(
        "run",
        "--system",
        system,
        "--dataset",
        dataset,
        "--split",
        "test",
        "--output",
        str(tmp_path / "run" / "out.jsonl"),
        "--no-progress",
    )
    assert expected in one_line(done)
    assert list(tmp_path.iterdir()) == []  # not even the output folder


def test_wordnet_reads_an_untagged_english_target_under_every_pos_most_senses_first():
    # "voices" (no POS, no lemma, as ProLex and TSAR-2022 English give it): WordNet 3.0 has voice as a noun (11
    # senses) and as a verb (2); the noun's words come first, as tests/…wordnet's hand-checked noun list gives them.
    row = {"target": "voices", "target_lemma": None, "pos": None}
    assert target_readings(row) == [("voice", "n"), ("voice", "v")]
    words = [word for word, _ in wordnet_substitutes(row)]
    noun = load_wordnet().ranked("voice", "n")
    assert words[: len(noun)] == noun and set(load_wordnet().ranked("voice", "v")) <= set(words)
    assert len(words) == len(set(words))
    tagged = {"target": "voices", "target_lemma": "voice", "pos": "NOUN"}
    assert [word for word, _ in wordnet_substitutes(tagged)] == noun  # a tagged target: its POS only, as before
    assert "under every POS, the one with most senses first" in list_systems()
