"""Every figure explained where it appears (issue 50): lenient, strict, A and C defined below the SWORDS table and in
`swords evaluate --help`; SemEval-2007's best said to divide by the answers, below the table that shows it; the
note on duplicates after lemmatization says what they are; a count of one judge is "1 judge"; a difference that
rounds to zero prints as +0.00, never -0.00."""

from __future__ import annotations

import json

from swords_metric import Scorer, extended_scores, format_comparison
from swords_metric.judgments.extended import format_extended

from ..conftest import run_swords
from .judgment_cases import make_case

LENIENT = "lenient: substitutes the benchmark never judged are left out; strict: they count as wrong."
A_AND_C = "A: acceptable (score > 50%: most annotators accepted it); C: conceivable (>= 10%: one or more did)."
BEST = (
    "SemEval-2007's best divides a target's credit by the number of answers in its whole list (its",
    "systems gave one or a few), so a long list scores low; oot credits the first 10 answers.",
)


def test_the_report_defines_its_words_below_the_tables_that_use_them(swords_test_rows, tmp_path):
    """A user's first `swords evaluate`: two lines under the F@10 table, two under the table showing best; the same
    definitions in --help. The file is a real target's list with two forms of one lemma ("houses", "house")."""
    noun = next(row for row in swords_test_rows if row["pos"] == "NOUN" and row["target"] not in ("house", "home"))
    predictions = tmp_path / "forms.jsonl"
    predictions.write_text(json.dumps({"id": noun["id"], "substitutes": ["houses", "house", "home"]}) + "\n")
    done = run_swords("evaluate", "--predictions", str(predictions), "--bootstrap", "0", "--no-analysis")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    strict_row = next(i for i, line in enumerate(lines) if line.startswith("strict "))
    assert lines[strict_row + 1 : strict_row + 3] == [LENIENT, A_AND_C]
    best_header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("best_p"))
    assert lines[best_header + 4 : best_header + 6] == list(BEST)  # below both rows of the second table
    # "houses" and "house" are one lemma: one duplicate, said as one, and what it means.
    assert (
        '1 duplicate after lemmatization (forms of one lemma in a target\'s list, as "runs" and "ran": counted once, '
        "at the best-ranked one's place)" in done.stderr
    )
    helped = " ".join(run_swords("evaluate", "--help").stdout.split())
    assert f"{LENIENT} {A_AND_C}" in helped


def test_a_count_of_one_judge_is_singular(tmp_path_factory):
    """One judge's file (bob's records of the hand-made case) extends the gold "by 1 judge", not "by 1 judges"."""
    case = make_case(tmp_path_factory.mktemp("judgments"))
    scorer = Scorer.from_dataset("swords", "test")
    records = [json.loads(line) for line in case.files[1].read_text().splitlines()]
    bob = tmp_path_factory.mktemp("one") / "bob.jsonl"
    bob.write_text("".join(json.dumps(r) + "\n" for r in records if r["judge"] == "bob"))
    result = extended_scores(scorer, case.run, [case.tasks, bob])
    assert result["judgments"]["judges"] == 1
    text = format_extended(result)
    assert ", by 1 judge (" in text and "1 judges" not in text


def test_a_difference_that_rounds_to_zero_is_never_negative_zero():
    """A - B of -0.001 (two runs within a rounding of each other) and an interval reaching -0.004 print as +0.00."""
    comparison = {
        "a": "a.jsonl",
        "b": "b.jsonl",
        "metrics": {
            "lenient_a_f@10": {"a": 30.0, "b": 30.001, "difference": -0.001, "interval": [-0.004, 0.5], "p_value": 0.9}
        },  # fmt: skip
        "signature": "sig",
    }
    row = next(line for line in format_comparison(comparison).splitlines() if line.startswith("lenient_a_f@10"))
    assert row.split()[3:6] == ["+0.00", "[+0.00,", "+0.50]"]
    assert "-0.00" not in row
