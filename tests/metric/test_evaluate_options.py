"""Options and arguments that used to be ignored or to end in numpy's traceback: a bad bootstrap seed (from the
command line and from Python, `compute()` included), options that do nothing in the command given, and
`--given-only --published` beside full-split published rows."""

from __future__ import annotations

import json

import pytest

import swords_dataset
from swords_metric import MetricInputError, Scorer

from ..baselines.run_helpers import one_line, swords
from .real_systems import COINCO_ORACLE


def evaluate(*extra: str, predictions=COINCO_ORACLE):
    return swords("evaluate", "--predictions", str(predictions), "--bootstrap", "0", *extra)


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        ("-5", "-5 is out of range (at least 0)"),
        ("abc", "'abc' is not a whole number"),
        ("1.5", "'1.5' is not a whole number"),
    ],
)
def test_a_bad_seed_on_the_command_line_is_one_line(seed, message):
    done = swords("evaluate", "--predictions", str(COINCO_ORACLE), "--seed", seed)
    assert "Traceback" not in done.stderr and done.returncode == 2
    assert f"argument --seed: {message}" in done.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("seed", ["abc", -1, 1.5, True, None])
def test_a_bad_seed_from_python_is_a_metric_input_error(seed):
    scorer = Scorer.from_dataset("swords", "test")
    prepared = scorer.read(COINCO_ORACLE)
    message = f"seed must be a whole number of at least 0, got {seed!r}"
    with pytest.raises(MetricInputError) as raised:
        scorer.score(prepared, bootstrap=10, seed=seed)
    assert str(raised.value) == message
    with pytest.raises(MetricInputError, match="seed must be a whole number"):
        scorer.compare(prepared, prepared, bootstrap=100, seed=seed)
    with pytest.raises(MetricInputError, match="seed must be a whole number"):
        scorer.score(prepared, bootstrap=0, seed=seed)  # recorded in no signature, but still not a seed


@pytest.mark.slow  # 4.3 s: imports evaluate (transformers, torch)
def test_a_bad_seed_through_compute_is_a_metric_input_error():
    import swords_metric

    rows = swords_dataset.rows("swords", "test")[:20]
    metric = swords_metric.load()
    with pytest.raises(MetricInputError, match="seed must be a whole number of at least 0, got -1"):
        metric.compute(predictions=[["word"]] * len(rows), references=rows, bootstrap=10, seed=-1)


def test_a_large_seed_is_a_seed():
    scorer = Scorer.from_dataset("swords", "test")
    result = scorer.score(scorer.read(COINCO_ORACLE), bootstrap=20, seed=2**70)
    assert result["signature"].endswith(f"bootstrap:20,seed:{2**70}")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--differences", "3"), "--differences goes with --compare"),
        (("--include-problematic",), "--include-problematic: swords test has no problematic targets"),
        (
            ("--no-analysis", "--worst", "2"),
            "--worst sets the summary of what the system proposed; it does not go with --no-analysis",
        ),
        (("--no-analysis", "--relations"), "--relations sets the summary"),
        (("--published", "--k", "5"), "--published shows F@10 as the papers report it; it goes with --k 10, not --k 5"),
    ],
)
def test_an_option_that_would_be_ignored_is_one_line(extra, message):
    assert message in one_line(evaluate(*extra))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--relations",), "--relations sets the summary of what the system proposed; it does not go with --compare"),
        (("--worst", "1"), "--worst sets the summary"),
        (("--no-analysis",), "--no-analysis goes with --predictions"),
    ],
)
def test_an_option_that_compare_would_ignore_is_one_line(extra, message):
    done = swords("evaluate", "--compare", str(COINCO_ORACLE), str(COINCO_ORACLE), *extra)
    assert message in one_line(done)


def test_include_problematic_still_works_where_there_are_problematic_targets(tmp_path):
    coinco = swords_dataset.rows("coinco", "test")
    path = tmp_path / "coinco.jsonl"
    path.write_text(
        "".join(json.dumps({"id": row["id"], "substitutes": [row["target"] + "s"]}) + "\n" for row in coinco[:50])
    )
    done = swords(
        "evaluate",
        "--dataset",
        "coinco",
        "--predictions",
        str(path),
        "--bootstrap",
        "0",
        "--json",
        "--include-problematic",
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["targets_scored"] == 5450


def test_given_only_beside_published_rows_says_how_many_targets_it_covers(tmp_path):
    three = tmp_path / "three.jsonl"
    three.write_text("".join(COINCO_ORACLE.read_text().splitlines(keepends=True)[:3]))
    done = evaluate("--given-only", "--published", "--no-analysis", predictions=three)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    run_row = next(line for line in lines if line.startswith("this run"))
    assert run_row.startswith("this run: 3 of 762 targets")
    assert (
        "Not comparable: this run scores only the 3 targets its file answers (--given-only), the published "
        "rows all 762 targets of swords test."
    ) in lines
    as_json = json.loads(evaluate("--given-only", "--published", "--no-analysis", "--json", predictions=three).stdout)
    assert as_json["targets_in_split"] == 762 and as_json["targets_scored"] == 3
    assert as_json["published"]["comparable"] is False and as_json["published"]["this_run_targets"] == 3
    assert as_json["published"]["split_targets"] == 762


def test_a_whole_split_beside_published_rows_is_comparable():
    done = evaluate("--given-only", "--published", "--no-analysis")  # the oracle answers all 762
    assert done.returncode == 0, done.stderr
    assert "Not comparable" not in done.stdout
    assert any(line.startswith("this run ") and "of 762" not in line for line in done.stdout.splitlines())
