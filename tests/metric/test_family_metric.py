"""The metric family is chosen by the benchmark: TSAR-2022 and ProLex rows (built from the raw files in the shared
schema) get their official metrics from the Scorer, from `compute()` (the evaluate module) in every prediction
form, and from `swords evaluate`; the SWORDS metrics refuse them in one line; TSAR-2022's published rows are the
shared task's official results files, every team and run, and show beside a run as the scorer prints it."""

from __future__ import annotations

import csv
import json

import datasets
import pytest

import swords_dataset
import swords_metric
from swords_metric import MetricInputError, Scorer, published_results, scorer_for
from swords_metric.published import PUBLISHED_METRICS, format_published

from ..baselines.run_helpers import one_line, swords
from .family_sources import TSAR_DATA, need, parals_answers, prolex_rows, tsar_gold_lines, tsar_rows


def ranked_gold(row: dict) -> list[str]:
    return [s["substitute"] for s in row["substitutes"]]


@pytest.fixture(scope="module")
def metric():
    return swords_metric.load()


@pytest.mark.parametrize("language", ["en", "es"])
def test_compute_and_the_scorer_give_the_tsar_metrics_in_every_form(language, metric, tmp_path):
    rows = tsar_rows(language, "test")
    scorer = scorer_for(rows)
    assert type(scorer).__name__ == "FamilyScorer" and scorer.family.name == "tsar2022"
    answers = [ranked_gold(row)[::-1][:4] for row in rows]
    expected = scorer.score(answers)
    assert expected["signature"] == (
        f"tsar2022-metric:1.0|bench:tsar2022_{language}|split:test|family:tsar2022|"
        "scorer:tsar_eval.py@089c266|match:exact|scale:fraction|targets:"
        f"{len(rows)}"
    )
    keyed = {row["id"]: given for row, given in zip(rows, answers, strict=True)}
    scored = [[[word, float(-i)] for i, word in enumerate(given)] for given in answers]  # [substitute, score]
    for predictions, references in ((answers, rows), (keyed, rows), (scored, datasets.Dataset.from_list(rows))):
        assert metric.compute(predictions=predictions, references=references) == expected
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text("".join(json.dumps({"id": k, "substitutes": v}) + "\n" for k, v in keyed.items()))
    assert scorer.score(scorer.read(jsonl)) == expected
    assert 0 < expected["map@10"] < expected["potential@10"] <= 1


def test_compute_and_the_scorer_give_the_prolex_metrics(metric):
    rows = prolex_rows("test")
    answers = parals_answers("test", "oot")
    expected = scorer_for(rows).score(answers)
    assert metric.compute(predictions=answers, references=rows) == expected
    assert scorer_for(rows, k=5).score(answers)["acc_p@5"] > expected["acc_p@10"]  # k reaches the family
    assert set(expected) >= {"acc_p@10", "acc_r@10", "acc_f@10", "prof_p@10", "prof_r@10", "prof_f@10"}


def test_the_swords_metrics_refuse_tsar_and_prolex_rows_in_one_line(metric):
    """Scorer(rows) is the SWORDS metrics only, whatever the rows come as: scorer_for (named in the line) gives the
    scorer of TSAR-2022's and ProLex's rows, an iterator's too (its first row looked at, none lost)."""
    spanish = tsar_rows("es", "test")
    for rows in (spanish, iter(spanish)):
        with pytest.raises(
            MetricInputError,
            match=r"^reference tsar2022_es:test:0000: a tsar2022 row; the SWORDS metrics "
            r"do not score it: its rows have no POS.*English WordNet: meaningless "
            r"for Spanish and Portuguese.*\(swords_metric.scorer_for\(rows\) gives its tsar2022 scorer\)$",
        ):
            Scorer(rows)
    for rows in (prolex_rows("dev"), iter(prolex_rows("dev"))):
        with pytest.raises(MetricInputError, match=r"^reference prolex:dev:0000: a prolex row; the SWORDS metrics"):
            Scorer(rows)
    from_iterator = scorer_for(iter(spanish))
    assert type(from_iterator).__name__ == "FamilyScorer" and len(from_iterator.rows) == len(spanish)
    assert from_iterator.signature() == scorer_for(spanish).signature()
    with pytest.raises(MetricInputError, match="setting 'ranking': the tsar2022 metrics score a system's ranked"):
        scorer_for(spanish, setting="ranking")
    with pytest.raises(MetricInputError, match="include_problematic: only CoInCo flags problematic targets"):
        scorer_for(prolex_rows("dev"), include_problematic=True)


def test_bootstrap_intervals_leave_the_official_figures_as_they_are(metric):
    rows = tsar_rows("pt", "test")
    answers = [ranked_gold(row)[:1] if i % 2 else [] for i, row in enumerate(rows)]  # half answered, one word each
    plain = scorer_for(rows).score(answers)
    resampled = metric.compute(predictions=answers, references=rows, bootstrap=200, seed=3)
    assert {key: resampled[key] for key in plain if key != "signature"} == {
        key: value for key, value in plain.items() if key != "signature"
    }
    assert resampled["signature"] == plain["signature"] + "|bootstrap:200,seed:3"
    for key, (low, high) in resampled["confidence_intervals"].items():
        assert low <= plain[key] <= high and high - low < 0.2, key
    assert 0.35 < resampled["confidence_intervals"]["acc@1"][0] < 0.5 < resampled["confidence_intervals"]["acc@1"][1]
    assert resampled == metric.compute(predictions=answers, references=rows, bootstrap=200, seed=3)
    prolex = prolex_rows("test")
    result = scorer_for(prolex).score(parals_answers("test", "oot"), bootstrap=200)
    low, high = result["confidence_intervals"]["prof_f@10"]
    assert low < result["prof_f@10"] < high and set(result["confidence_intervals"]) == {
        f"{aspect}_{m}@10" for aspect in ("acc", "prof") for m in "prf"
    }


def test_tsar_published_rows_are_the_official_results_files():
    for language in ("en", "es", "pt"):
        path = need(TSAR_DATA / "results" / "official" / f"TSAR2022_test_results_{language}.csv")
        with open(path, encoding="utf-8", newline="") as f:
            official = [
                {column: value for column, value in record.items() if column not in ("Team", "Lang", "Run")}
                for record in csv.DictReader(f)
            ]
        rows = published_results(f"tsar2022_{language}", "test")
        assert len(rows) == len(official) and {row.paper for row in rows} == {"saggion2022"}
        for row, record in zip(rows, official, strict=True):
            assert {PUBLISHED_METRICS[key]: value for key, value in row.metrics.items()} == {
                column: float(value) for column, value in record.items()
            }, row.system
    assert {len(published_results(f"tsar2022_{language}")) for language in ("en", "es", "pt")} == {33, 17, 16}


def test_a_tsar_run_beside_the_published_rows():
    rows = tsar_rows("en", "test")
    result = scorer_for(rows).score([ranked_gold(row)[1:2] for row in rows])
    text = format_published(result, "tsar2022_en", "test", "second-most-given.tsv")
    run_line = next(line for line in text.splitlines() if line.startswith("this run"))
    assert str(result["official"]["MAP@1/Potential@1/Precision@1"]) in run_line.split()  # floored, as printed
    assert "published: UniHD run 2" in text and "Saggion et al. 2022, official results" in text
    assert text.count("published: ") == 33 and "figures in fractions" in text and "MAP@k, mean average" in text


# --- swords evaluate: once the configs are built (issue 26's datasets), the same command scores them -----------


def need_config(config: str) -> None:
    if config not in swords_dataset.CONFIGS:
        pytest.skip(f"the {config} config is not in this build of swords_dataset (issue 26's datasets)")


def test_swords_evaluate_scores_tsar_from_its_official_file(tmp_path):
    need_config("tsar2022_en")
    lines = tsar_gold_lines("en", "test")
    path = tmp_path / "run.tsv"
    path.write_text("".join("\t".join([s, t, *a[:3]]) + "\n" for s, t, a in lines), encoding="utf-8")
    done = swords(
        "evaluate", "--dataset", "tsar2022_en", "--split", "test", "--predictions", str(path), "--json", "--published"
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["family"] == "tsar2022" and len(result["published"]["published"]) == 33
    assert result["published"]["this_run"]["acc@1"] == result["acc@1"]
    line = one_line(
        swords("evaluate", "--dataset", "tsar2022_en", "--split", "test", "--predictions", str(path), "--worst", "3")
    )
    assert line.endswith(
        "--worst belongs to the SWORDS metrics; tsar2022_en is scored with the tsar2022 metrics, "
        "as its official scorer scores it (no per-substitute details, no summary)"
    )


def test_swords_evaluate_scores_prolex_from_its_official_file():
    need_config("prolex")
    from .family_sources import PROLEX_DATA

    example = need(PROLEX_DATA / "example_predictions.csv")
    done = swords("evaluate", "--dataset", "prolex", "--split", "test", "--predictions", str(example), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    # The shipped rows give evaluate.py's gold lists (test_prolex_parity checks these rows' figures against it).
    scorer = scorer_for(prolex_rows("test"))
    expected = scorer.score(scorer.read(example))
    assert {key: result[key] for key in expected if key != "signature"} == {
        key: value for key, value in expected.items() if key != "signature"
    }
