"""TSAR-2022's ten official metrics against the shared task's own scorer, tsar_eval.py, run beside ours on the real
gold of every language and split: its printed (floored) figures equal ours floored, and its evaluator's figures
before flooring equal ours to the bit. The teams' outputs are not shipped, so the systems are built from the gold
itself (ranked by count, shuffled, reversed, one word) and from edge cases the scorer treats in its own way:
empty answers, repeats, case variants, the complex word itself, multiword answers, more than 10 answers, white
space around answers, an empty field. Our side reads the rows (in the shared schema, built from the raw files by
family_sources.py) and the system's file in TSAR's official format, as `swords evaluate` does."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

from swords_metric import MetricInputError, scorer_for

from ..baselines.run_helpers import swords
from .family_sources import (
    tsar_gold_file,
    tsar_gold_lines,
    tsar_official_printed,
    tsar_official_unfloored,
    tsar_rows,
    write_tsar_predictions,
)
from .test_family_metric import need_config

pytestmark = pytest.mark.parity  # tsar_eval.py on every language's gold

SPLITS = [(language, split) for language in ("en", "es", "pt") for split in ("trial", "test")]
DISTRACTORS = ["zzz", "qqq", "www", "xxx", "yyy", "vvv", "uuu", "ttt", "sss", "rrr", "ppp", "ooo"]


def by_count(annotations: list[str]) -> list[str]:
    return [word for word, _ in Counter(annotations).most_common()]


def edge_answers(number: int, target: str, annotations: list[str]) -> list[str]:
    """One of the edge cases, by line: each appears on many lines of every split."""
    gold = by_count(annotations)
    case = number % 9
    if case == 0:
        return []  # no answer
    if case == 1:
        return [gold[-1], gold[-1], gold[0], gold[-1]]  # repeats: the later ones dropped
    if case == 2:
        return [gold[0].upper(), gold[0].capitalize(), gold[0]]  # case variants: distinct, matched exactly
    if case == 3:
        return [target, target.upper(), *gold[:2]]  # the complex word itself: dropped (exact case only)
    if case == 4:
        return [" ".join(gold[:2]), f"{gold[0]} {target}", *gold[2:3]]  # multiword answers
    if case == 5:
        return [*DISTRACTORS, *gold]  # more than 10 answers, the gold after the 10th
    if case == 6:
        return [f"  {gold[0]} ", f"\u00a0{gold[-1]}"]  # white space stripped (str.strip: no-break space too)
    if case == 7:
        return ["", gold[0]]  # an empty field (two tabs in a row): an answer that matches nothing
    return gold[::-1] + DISTRACTORS[:3]


def systems(language: str, split: str) -> dict[str, list[tuple[str, str, list[str]]]]:
    lines = tsar_gold_lines(language, split)
    shuffle = random.Random(f"{language}{split}")
    return {
        "gold by count": [(s, t, by_count(a)) for s, t, a in lines],
        "gold shuffled": [(s, t, shuffle.sample(by_count(a), len(by_count(a)))) for s, t, a in lines],
        "gold reversed": [(s, t, by_count(a)[::-1]) for s, t, a in lines],
        "one word": [(s, t, by_count(a)[-1:]) for s, t, a in lines],
        "edge cases": [(s, t, edge_answers(i, t, a)) for i, (s, t, a) in enumerate(lines)],
    }


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("tsar")


@pytest.mark.parametrize(("language", "split"), SPLITS)
def test_every_metric_equals_tsar_eval(language, split, folder):
    rows = tsar_rows(language, split)
    scorer = scorer_for(rows)
    gold = tsar_gold_file(language, split)
    for name, lines in systems(language, split).items():
        path = write_tsar_predictions(folder / f"{language}-{split}-{name.replace(' ', '-')}.tsv", lines)
        ours = scorer.score(scorer.read(path))
        assert ours["official"] == tsar_official_printed(gold, path, folder), (language, split, name)
        official = tsar_official_unfloored(gold, path)
        assert {key: ours[key] for key in official} == official, (language, split, name)
        # The same system keyed by id, as JSONL (after the tab-separated file's own reading: strip, split on tabs).
        keyed = folder / f"{language}-{split}-{name.replace(' ', '-')}.jsonl"
        keyed.write_text(
            "".join(
                json.dumps({"id": row["id"], "substitutes": answers}) + "\n"
                for row, (_, _, answers) in zip(rows, lines, strict=True)
            ),
            encoding="utf-8",
        )
        assert {key: value for key, value in scorer.score(scorer.read(keyed)).items() if key in official} == official


def test_the_edge_cases_move_the_figures(folder):
    """The edge cases are not a no-op: on English test they score below the gold ranked by count, and repeats, the
    complex word and case variants are dropped or kept as the scorer keeps them."""
    scorer = scorer_for(tsar_rows("en", "test"))
    made = systems("en", "test")
    edge = scorer.score(scorer.read(write_tsar_predictions(folder / "edge.tsv", made["edge cases"])))
    gold = scorer.score(scorer.read(write_tsar_predictions(folder / "gold.tsv", made["gold by count"])))
    assert gold["acc@1"] == gold["potential@10"] == 1.0 and edge["acc@1"] < 0.9
    assert edge["targets_without_predictions"] == len([i for i in range(373) if i % 9 == 0])
    assert edge["input_notes"]["complex_word_or_repeat_dropped"] > 0


def test_a_file_for_another_split_or_order_is_one_line(folder):
    rows = tsar_rows("en", "test")
    scorer = scorer_for(rows)
    lines = systems("en", "test")["one word"]
    swapped = write_tsar_predictions(folder / "swapped.tsv", [lines[1], lines[0], *lines[2:]])
    with pytest.raises(
        MetricInputError,
        match=r"swapped\.tsv:1: sentence and complex word .* not those of "
        r"tsar2022_en:test:0000",
    ):
        scorer.read(swapped)
    short = write_tsar_predictions(folder / "short.tsv", lines[:-1])
    with pytest.raises(MetricInputError, match=r"short\.tsv: 372 lines for the 373 instances"):
        scorer.read(short)
    spanish = write_tsar_predictions(folder / "spanish.tsv", systems("es", "test")["one word"])
    with pytest.raises(
        MetricInputError,
        match=r"spanish\.tsv:1: sentence and complex word 'labrarse' are not those "
        r"of tsar2022_en:test:0000 \(target 'prototype'\)",
    ):
        scorer.read(spanish)  # read as a stream: its first line is refused before the rest is read


# Our metric key -> the name tsar_eval.py prints its figure under (its print lines, read off tsar_eval.py).
PRINTED_NAMES = {
    "acc@1": "MAP@1/Potential@1/Precision@1",
    "map@3": "MAP@3",
    "map@5": "MAP@5",
    "map@10": "MAP@10",
    "potential@3": "Potential@3",
    "potential@5": "Potential@5",
    "potential@10": "Potential@10",
    "acc@1@top1": "Accuracy@1@top_gold_1",
    "acc@2@top1": "Accuracy@2@top_gold_1",
    "acc@3@top1": "Accuracy@3@top_gold_1",
}


def test_compare_prints_each_file_s_figures_as_tsar_eval_prints_them(folder):
    """`swords evaluate --compare` printed each file's figures rounded (MAP@5 0.9877) where tsar_eval.py,
    `--predictions` and the Score tab floor them (0.9876; issue 47). Two systems on English test, whose figures round
    and floor apart: the A and B columns are tsar_eval.py's printed figures, run beside it, and so is the JSON's
    `official`."""
    need_config("tsar2022_en")
    gold = tsar_gold_file("en", "test")
    made = systems("en", "test")
    paths = [write_tsar_predictions(folder / f"compare-{n}.tsv", made[n]) for n in ("gold shuffled", "edge cases")]
    printed = [tsar_official_printed(gold, path, folder) for path in paths]
    unfloored = [tsar_official_unfloored(gold, path) for path in paths]
    rounded_up = [key for figures in unfloored for key, v in figures.items() if round(v, 4) > math.floor(v * 1e4) / 1e4]
    assert rounded_up  # the figures that printed one way here and another there
    base = ["evaluate", "--dataset", "tsar2022_en", "--split", "test", "--compare", *map(str, paths)]
    done = swords(*base, "--bootstrap", "100")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("figures: fractions floored to 4 decimals, as tsar_eval.py prints them")  # its unit
    header = next(i for i, line in enumerate(lines) if line.startswith("metric "))
    rows = {line.split()[0]: line.split()[1:3] for line in lines[header + 1 : header + 11]}
    assert rows == {key: [str(figures[name]) for figures in printed] for key, name in PRINTED_NAMES.items()}
    done = swords(*base, "--bootstrap", "100", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["official"] == {"a": printed[0], "b": printed[1]}
