"""TSAR-2022's and ProLex's files line by line: a bad item of a JSON lines file named by file and line, a sentence
that differs from the gold file's named with where and which characters, a TSV of part of the split scored with
--given-only as tsar_eval.py scores it (and refused without, saying so), a file that answers no target. The figures
are checked against the official scorers run beside ours (family_sources.py)."""

from __future__ import annotations

import json
import os
import random

import pytest

import swords_dataset
from swords_metric import MetricInputError, Scorer

from ..baselines.run_helpers import one_line, swords
from .family_sources import tsar_gold_file, tsar_gold_lines, tsar_official_printed, write_tsar_predictions


def test_bad_items_of_a_tsar_or_prolex_jsonl_file_are_named_with_file_and_line(tmp_path):
    for config in ("tsar2022_en", "prolex"):
        scorer = Scorer.from_dataset(config, "test")
        first, second = (row["id"] for row in scorer.rows[:2])
        for item, told in (
            ('[["a", NaN]]', "item 0 ('a'): score is NaN"),
            ('[["a", null]]', "score is null"),
            ('[["a", ' + "9" * 5000 + "]]", "score is an integer of 5,000 digits"),
            ('{"a": 1}', "predictions must be a list of substitutes, got dict"),
            ('"abc"', "predictions must be a list of substitutes, got str"),
        ):
            path = tmp_path / f"{config}.jsonl"
            path.write_text(
                f'{{"id": "{first}", "substitutes": ["x"]}}\n{{"id": "{second}", "substitutes": {item}}}\n',
                encoding="utf-8",
            )
            with pytest.raises(MetricInputError) as caught:
                scorer.read(path)
            assert str(caught.value).startswith(f"{path}:2: target {second}: ") and told in str(caught.value)
    line = one_line(swords("evaluate", "--dataset", "prolex", "--split", "test", "--predictions", str(path)))
    assert line.endswith(f"prolex.jsonl:2: target {second}: predictions must be a list of substitutes, got str"), line


@pytest.mark.parametrize(
    ("language", "number", "change", "told"),
    [
        ("es", 228, lambda s: s.replace("\xa0", " ", 1), "where the line has U+0020 ' ' and the gold U+00A0 '\\xa0'"),
        (
            "en",
            5,
            lambda s: s[:10] + "\0" + s[11:],
            "at offset 10, where the line has U+0000 '\\x00' and the gold U+0074",
        ),
        (
            "en",
            5,
            lambda s: s.replace("a", "\u0430", 1),
            "offset 4, where the line has U+0430 'а' and the gold U+0061 'a'",
        ),
        ("en", 5, lambda s: s + " ", "where the line has U+0020 ' ' and the gold nothing (the sentence ends)"),
    ],
)
@pytest.mark.slow  # 4 s on two cores
def test_a_sentence_that_differs_is_named_with_where_and_which_characters(language, number, change, told, tmp_path):
    lines = tsar_gold_lines(language, "test")
    sentence, target, annotations = lines[number - 1]
    lines[number - 1] = (change(sentence), target, annotations)
    path = write_tsar_predictions(tmp_path / "changed.tsv", lines)
    line = one_line(
        swords("evaluate", "--dataset", f"tsar2022_{language}", "--split", "test", "--predictions", str(path))
    )
    row = swords_dataset.rows(f"tsar2022_{language}", "test")[number - 1]
    assert (
        f"changed.tsv:{number}: the sentence is not that of {row['id']} (complex word {target!r}): it differs " in line
        and told in line
        and line.endswith("it must be the gold file's, character for character")
    ), line


@pytest.mark.slow  # 5 s on two cores
def test_a_partial_tsv_is_scored_with_given_only_as_tsar_eval_scores_it(tmp_path):
    """tsar_eval.py scores the lines its file holds, in any order; so does --given-only. Without it the file is
    refused, saying so."""
    lines = [(s, t, a[::-1][:4]) for s, t, a in tsar_gold_lines("en", "test")]
    chosen = random.Random(1).sample(lines, 40)
    path = write_tsar_predictions(tmp_path / "part.tsv", chosen)
    done = swords(
        "evaluate", "--dataset", "tsar2022_en", "--split", "test", "--predictions", str(path), "--given-only", "--json"
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["official"] == tsar_official_printed(tsar_gold_file("en", "test"), path, tmp_path)
    assert result["targets_scored"] == 40 and result["targets_in_split"] == 373
    line = one_line(swords("evaluate", "--dataset", "tsar2022_en", "--split", "test", "--predictions", str(path)))
    assert "the lines must follow the split's order (a file of part of it: --given-only" in line, line
    first = write_tsar_predictions(tmp_path / "first.tsv", lines[:40])
    line = one_line(swords("evaluate", "--dataset", "tsar2022_en", "--split", "test", "--predictions", str(first)))
    assert line.endswith(
        "first.tsv: 40 lines for the 373 instances of the split (TSAR's format: one line per "
        "instance, in the gold file's order); for a run over part of the split, the lines given are "
        "scored alone, as tsar_eval.py scores them, with `swords evaluate --predictions FILE --given-only` (in "
        "Python: read(path, partial=True)); `swords evaluate --compare` reads such a file as it is; JSONL keyed by "
        "id can carry such a run too"
    ), line
    twice = write_tsar_predictions(tmp_path / "twice.tsv", [lines[3], lines[7], lines[3]])
    line = one_line(
        swords("evaluate", "--dataset", "tsar2022_en", "--split", "test", "--predictions", str(twice), "--given-only")
    )
    assert line.endswith("twice.tsv:3: the same instance as line 1 (tsar2022_en:test:0004); give each instance once")


def test_given_only_on_a_file_that_answers_nothing_says_so(tmp_path):
    nothing = tmp_path / "nothing.json"
    nothing.write_text('{"substitutes_lemmatized": false, "substitutes": {}}', encoding="utf-8")
    for config, targets in (("tsar2022_en", 373), ("prolex", 680), ("swords", 762)):
        line = one_line(
            swords(
                "evaluate",
                "--dataset",
                config,
                "--split",
                "test",
                "--predictions",
                str(nothing),
                "--given-only",
                "--bootstrap",
                "0",
            )
        )
        assert f"nothing.json answers no target of {config} test ({targets} targets)" in line, line
    assert os.path.exists(nothing)
