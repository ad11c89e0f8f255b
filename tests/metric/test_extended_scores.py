"""The DONE criterion of judging: a judgments file made by hand for a few SWORDS test targets (judgment_cases.py)
gives extended figures equal, to 0.01, to those the upstream SWORDS library's own evaluation (upstream_eval.py, run
from the shared folder) computes on the extended gold, which this test writes itself in the upstream format: the
upstream test file with each judged substitute added, its labels those SWORDS's filter keeps (worked out by hand in
judgment_cases.py). The official figures stay the plain score's."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path

import pytest

from swords_metric import MetricInputError, Scorer, extended_scores

from ..conftest import run_swords
from .judgment_cases import Case, make_case
from .upstream_runs import _upstream_eval
from .upstream_systems import UPSTREAM_DATASETS, UPSTREAM_EVAL

TOLERANCE = 0.01


@pytest.fixture(scope="module")
def case(tmp_path_factory) -> Case:
    return make_case(tmp_path_factory.mktemp("judgments"))


def _substitute_id(target_id: str, substitute: str) -> str:
    """Upstream's substitute id (the sha1 of its target id and lower-cased text, as its library makes it)."""
    text = json.dumps({"target_id": target_id, "substitute": substitute.lower()}, sort_keys=True)
    return "s:" + hashlib.sha1(text.encode("utf-8")).hexdigest()


def extended_upstream_file(case: Case, folder: Path, only_judged: bool) -> Path:
    """The upstream SWORDS test file with the judged substitutes added (and, with only_judged, just their targets)."""
    with gzip.open(UPSTREAM_DATASETS["swords"], "rt", encoding="utf-8") as f:
        data = json.load(f)
    upstream_of = {row["id"]: row["upstream_id"] for row in case.rows}
    for (target_id, substitute), labels in case.expected.items():
        tid = upstream_of[target_id]
        sid = _substitute_id(tid, substitute)
        assert sid not in data["substitutes"]
        data["substitutes"][sid] = {"target_id": tid, "substitute": substitute, "extra": {"sources": ["judged"]}}
        data["substitute_labels"][sid] = labels
    if only_judged:
        keep = set(upstream_of.values())
        data["targets"] = {tid: target for tid, target in data["targets"].items() if tid in keep}
        contexts = {target["context_id"] for target in data["targets"].values()}
        data["contexts"] = {cid: context for cid, context in data["contexts"].items() if cid in contexts}
        sids = [sid for sid, s in data["substitutes"].items() if s["target_id"] in keep]
        data["substitutes"] = {sid: data["substitutes"][sid] for sid in sids}
        data["substitute_labels"] = {sid: data["substitute_labels"][sid] for sid in sids}
    path = folder / f"swords-test-extended{'-judged-targets' if only_judged else ''}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def result_file(case: Case, folder: Path, only_judged: bool) -> Path:
    """The run in the upstream result format (both sides read it)."""
    keep = {row["upstream_id"] for row in case.rows}
    substitutes = {tid: items for tid, items in case.run.items() if not only_judged or tid in keep}
    path = folder / f"wordnet{'-judged-targets' if only_judged else ''}.json"
    path.write_text(json.dumps({"substitutes_lemmatized": False, "substitutes": substitutes}), encoding="utf-8")
    return path


def _needs_upstream(nltk35_path) -> None:
    if not UPSTREAM_EVAL.is_file():
        pytest.skip(f"the upstream library is not in the shared folder ({UPSTREAM_EVAL})")


def _evaluate(result: Path, case: Case, *options: str) -> dict:
    done = run_swords(
        "evaluate", "--predictions", str(result), "--judgments", *map(str, case.inputs), "--bootstrap", "0", "--json",
        *options,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _assert_equal(ours: dict, upstream: dict) -> None:
    compared = [key for key in upstream if key in ours]
    assert len(compared) >= 20, compared
    for key in compared:
        assert ours[key] == pytest.approx(upstream[key], abs=TOLERANCE), key


@pytest.mark.slow  # 13 s on two cores
def test_extended_figures_equal_upstream_on_the_judged_targets(case, tmp_path, nltk35_path):
    """The six judged targets alone (--given-only; upstream given a file of just them): every figure upstream prints,
    on the extended gold, equals ours; on the benchmark's own gold, the official ones are upstream's too."""
    _needs_upstream(nltk35_path)
    result = _evaluate(result_file(case, tmp_path, True), case, "--given-only")
    upstream = _upstream_eval(
        extended_upstream_file(case, tmp_path, True), result_file(case, tmp_path, True), nltk35_path
    )
    _assert_equal(result["extended"], upstream)
    assert result["extended"]["targets_scored"] == len(case.rows) == 6
    # The gold grew, so the figures moved: an extension that changed nothing would pass the check above too.
    assert result["extended"]["lenient_a_p@10"] != result["lenient_a_p@10"]
    judged = result["judgments"]
    assert judged["unjudged_top_k"]["after"] < judged["unjudged_top_k"]["before"]
    counted = sum(label != "UNSURE" for labels in case.expected.values() for label in labels)
    assert judged["judgements"] == counted == 103 - judged["abstentions"] == 96  # abstentions are left out
    assert judged["substitutes"] == len(case.expected) == 36 and judged["abstained_only"] == 0


@pytest.mark.parity
def test_extended_figures_equal_upstream_on_the_whole_split(case, tmp_path, nltk35_path):
    """SWORDS test whole (762 scored targets), the run on every target: the extended figures are upstream's on the
    extended gold; the official figures are the plain score's, and their signature says nothing of judgments."""
    _needs_upstream(nltk35_path)
    result = _evaluate(result_file(case, tmp_path, False), case)
    upstream = _upstream_eval(
        extended_upstream_file(case, tmp_path, False), result_file(case, tmp_path, False), nltk35_path
    )
    _assert_equal(result["extended"], upstream)
    plain = Scorer.from_dataset("swords", "test").score(case.run)
    assert {key: result[key] for key in plain if key != "by_pos"} == {k: v for k, v in plain.items() if k != "by_pos"}
    assert "judgments" not in result["signature"]
    signature = result["extended"]["signature"]
    assert signature.startswith(plain["signature"] + "|judgments:")
    assert re.search(
        r"\|judgments:[0-9a-f]{12}\|tasks:[0-9a-f]{12}\|judgements:96\|substitutes:36\|judges:3$", signature
    )


@pytest.mark.slow  # 4 s on two cores
def test_compute_and_evaluate_agree(case):
    """extended_scores from Python gives the figures `swords evaluate --judgments` prints (the run as a mapping)."""
    scorer = Scorer.from_dataset("swords", "test")
    result = extended_scores(scorer, case.run, case.inputs)
    assert result["extended"]["signature"].endswith("|judgements:96|substitutes:36|judges:3")
    assert result["judgments"]["already_judged"] == 1
    assert result["lenient_a_f@10"] == scorer.score(case.run)["lenient_a_f@10"]


@pytest.mark.slow  # evaluate's own start (it imports transformers and torch)
def test_compute_takes_judgments(case):
    """The `evaluate` module's compute(..., judgments=[...]) adds the extended figures, equal to extended_scores'."""
    import swords_dataset
    import swords_metric

    rows = swords_dataset.rows("swords", "test")
    by_id = {row["upstream_id"]: row["id"] for row in rows}
    predictions = {by_id[tid]: [pair[0] for pair in items] for tid, items in case.run.items()}
    metric = swords_metric.load()
    result = metric.compute(predictions=predictions, references=rows, judgments=[str(p) for p in case.inputs])
    direct = extended_scores(Scorer.from_dataset("swords", "test"), predictions, case.inputs)
    assert result["extended"]["lenient_a_f@10"] == pytest.approx(direct["extended"]["lenient_a_f@10"], abs=1e-9)
    assert result["extended"]["signature"] == direct["extended"]["signature"]
    for config, reason in (("coinco", "coinco's gold was recalled"), ("prolex", "ProLex's gold is experts'")):
        other = swords_dataset.rows(config, "test")[:3]
        with pytest.raises(MetricInputError, match=f"^judgments: {reason}"):
            metric.compute(predictions=[["a"]] * 3, references=other, judgments=[str(case.files[0])])
    # refused before anything was stored: the next compute scores SWORDS test alone, as the first did
    assert metric.compute(predictions=predictions, references=rows)["lenient_a_f@10"] == result["lenient_a_f@10"]
    coinco = swords_dataset.rows("coinco", "test")[:3]
    metric.add_batch(predictions=[["a"]] * 3, references=coinco)  # stored first: refused at compute all the same
    with pytest.raises(MetricInputError, match="^judgments: coinco's gold was recalled"):
        metric.compute(judgments=[str(case.files[0])])


@pytest.mark.parametrize("config", ["coinco", "semeval07", "prolex", "tsar2022_en"])
def test_benchmarks_that_cannot_take_judgments_refuse_in_one_line(case, config):
    done = run_swords(
        "evaluate", "--dataset", config, "--predictions", str(case.files[0]), "--judgments", str(case.files[0])
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    reason = {"coinco": "recalled", "semeval07": "recalled", "prolex": "no score per substitute"}.get(
        config, "no acceptability score"
    )
    assert f"--judgments: {config}:" in done.stderr and reason in done.stderr


def test_python_refuses_coinco(case):
    with pytest.raises(MetricInputError, match="coinco's gold was recalled"):
        extended_scores(Scorer.from_dataset("coinco", "test"), {}, case.inputs)


@pytest.mark.parametrize(
    ("agreement", "shown"),
    [
        (None, "agreement:unmeasured"),
        (
            {"kappa_acceptable": 0.312, "kappa_conceivable": 0.1, "spearman": 0.25, "candidates": 200},
            "agreement:claimed:kappa_a=0.31,kappa_c=0.10,rho=0.25,n=200",
        ),
    ],
)
def test_an_llm_judges_agreement_is_in_the_signature(case, tmp_path, agreement, shown):
    """An LLM judge (id llm:<model>:<prompt hash>) merged: the extended signature carries the agreement its records
    claim, marked as claimed (the toolkit cannot redo the validation), or says it was never measured."""
    records = [json.loads(line) for line in case.files[0].read_text().splitlines()]
    llm = [
        {**r, "judge": "llm:smollm2:0123abcd"} | ({"agreement": agreement} if agreement else {})
        for r in records
        if r["judge"] == "ann"
    ]
    path = tmp_path / "llm.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in llm))
    result = extended_scores(Scorer.from_dataset("swords", "test"), case.run, [case.tasks, path])
    assert result["extended"]["signature"].endswith("|judges:1|" + shown)
    assert result["judgments"]["agreement"] == {"llm:smollm2:0123abcd": shown.removeprefix("agreement:")}


def test_judgments_with_compare_is_refused_before_any_work(case):
    done = run_swords("evaluate", "--compare", "a.json", "b.json", "--judgments", str(case.files[0]))
    assert (
        done.returncode == 2
        and done.stderr == "swords: error: --judgments goes with --predictions (one system), not --compare\n"
    )
