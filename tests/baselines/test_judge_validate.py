"""`swords judge validate` against a real OpenAI-compatible server on 127.0.0.1 answering as an oracle of SWORDS's own
scores, one person (a held-out label against the rest) and the human ceiling (SWORDS's second annotator pool against
the main annotation), each figure worked out here from the dataset's rows with scikit-learn and SciPy, not by the
code under test; and the validations that are no measurement (a constant judge where kappa is undefined, too few
labelled candidates), which are shown but never recorded."""

from __future__ import annotations

import json
import math
import random

import pytest

import swords_dataset
from swords_lexsub.cli import main as swords_main
from swords_metric import Task

from ..llm_server import Canned, LLMServer
from .judge_helpers import user_message


def hand_figures(judged: list[float], human: list[float]) -> dict:  # every figure defined here
    # scipy's and scikit-learn's, imported here: seconds of every pytest worker's collection otherwise
    from scipy.stats import spearmanr
    from sklearn.metrics import accuracy_score, cohen_kappa_score

    figures = {}
    for level, above in (("acceptable", 0.5), ("conceivable", 0.0)):
        a, b = [x > above for x in judged], [x > above for x in human]
        figures[f"accuracy_{level}"] = accuracy_score(b, a)
        figures[f"kappa_{level}"] = cohen_kappa_score(a, b)
    figures["spearman"] = spearmanr(judged, human).statistic
    return figures


@pytest.fixture(scope="module")
def oracle(dev) -> dict[str, tuple[str, float, str, list[str]]]:
    """The judge's user message for every SWORDS dev substitute -> (its label by SWORDS's score, the score, the
    candidate's `<target id> <substitute>`, its ten or three human labels)."""
    answers = {}
    for row in dev:
        task = Task("", row["id"], row["context"], row["target"], row["offset"], [])
        for substitute in row["substitutes"]:
            label = "accept" if substitute["score"] > 0.5 else "reject"
            key = f"{row['id']} {substitute['substitute']}"
            answers[user_message(task, substitute["substitute"])] = (
                label,
                substitute["score"],
                key,
                substitute["labels"],
            )
    return answers


def sure_of(label: str, score: float) -> dict:
    """Log-probabilities of a judge that chose `label` and gives accept the probability `score` (kept off 0 and 1)."""
    p = min(max(score, 0.01), 0.99)
    top = [{"token": "accept", "logprob": math.log(p)}, {"token": "reject", "logprob": math.log(1 - p)}]
    chosen = top[0] if label == "accept" else top[1]
    return {"content": [{**chosen, "top_logprobs": top}]}


def validate(capsys, server: LLMServer, output, *extra: str) -> tuple[int, str, str]:
    args = ["judge", "validate", "--dataset", "swords", "--split", "dev", "--base-url", server.base_url]
    args += ["--model", "oracle", "--cache-dir", "off", "--backoff", "0.01", *extra]
    args += ["--output", str(output)] if output is not None else []
    capsys.readouterr()
    status = swords_main(args)
    out, err = capsys.readouterr()
    return status, out, err


def test_an_oracle_judge_one_person_and_the_human_ceiling_worked_out_by_hand(oracle, tmp_path, capsys):
    # a vLLM server (guided choice, log-probabilities); the controls: the target abstained on (wrong), the random
    # word right
    with LLMServer(generic="abstain", models_owned_by="vllm") as server:
        server.canned = {m: Canned(label, logprobs=sure_of(label, score)) for m, (label, score, *_) in oracle.items()}
        status, out, _ = validate(capsys, server, tmp_path / "v.json", "--sample", "60", "--seed", "3")
        asked = [server.query_of(r["path"], r["body"]) for r in server.requests]
    assert status == 0
    ((judge, entry),) = json.loads((tmp_path / "v.json").read_text()).items()
    scores = [oracle[message][1] for message in asked if message in oracle]
    assert len(scores) == entry["candidates"] == 60 and entry["failed"] == 0
    tasks = (len(asked) - 60) // 2
    assert entry["controls"] == {"right": tasks, "judged": 2 * tasks} and entry["constraint"] == "guided_choice"
    rates = [1.0 if score > 0.5 else 0.0 for score in scores]
    for name, value in hand_figures(rates, scores).items():
        assert entry[name] == pytest.approx(value, abs=1e-4), name
    assert entry["accuracy_acceptable"] == 1.0 and entry["kappa_acceptable"] == 1.0
    # ranked by its probability of accept (the score, kept off 0 and 1), not only thresholded
    probabilities = [min(max(score, 0.01), 0.99) for score in scores]
    assert entry["p_accept"]["candidates"] == 60
    assert entry["p_accept"]["spearman"] == pytest.approx(hand_figures(probabilities, scores)["spearman"], abs=1e-4)

    # one person: of each candidate's labels, the one drawn with the seed and the candidate, against the others
    person, rest = [], []
    for message in asked:
        if message in oracle:
            _, _, key, labels = oracle[message]
            held = random.Random(f"3 {key}").randrange(len(labels))
            others = labels[:held] + labels[held + 1 :]
            person.append(1.0 if labels[held] == "TRUE" else 0.0)
            rest.append(others.count("TRUE") / len(others))
    assert entry["one_person"]["candidates"] == 60
    for name, value in hand_figures(person, rest).items():
        assert entry["one_person"][name] == pytest.approx(value, abs=1e-4), name

    main = {
        row["id"]: {s["substitute"]: s["score"] for s in row["substitutes"]}
        for row in swords_dataset.rows("swords_test_subset", "test")
    }
    second, first = [], []
    for row in swords_dataset.rows("swords_reannotated", "test"):
        for substitute in row["substitutes"]:
            if substitute["substitute"] in main[row["id"]]:
                # the second pool's score from its raw labels: TRUE over all, UNSURE counting as no (as SWORDS does)
                labels = substitute["labels"]
                second.append(labels.count("TRUE") / len(labels))
                first.append(main[row["id"]][substitute["substitute"]])
    ceiling = entry["human_ceiling"]
    assert ceiling["candidates"] == len(first) > 5000
    for name, value in hand_figures(second, first).items():
        assert ceiling[name] == pytest.approx(value, abs=1e-4), name
    assert judge in out and "one person (60)" in out and "humans: two pools" in out


def test_a_constant_judge_on_a_sample_without_an_acceptable_substitute_has_an_undefined_kappa(tmp_path, capsys):
    # --sample 10 --seed 4 holds no substitute above 50%: an always-reject judge agrees on all ten, by chance alone
    with LLMServer(generic="reject") as server:
        status, out, err = validate(capsys, server, None, "--sample", "10", "--seed", "4")
    judge_row = next(line for line in out.splitlines() if line.startswith("LLM judge"))
    assert status == 0 and judge_row.split()[2:4] == ["1.000", "undefined"], judge_row
    assert "not a measurement: 10 labelled candidates (a measurement needs 50)" in err
    assert not list(tmp_path.iterdir())


@pytest.mark.slow  # 4 s on two busy cores (load 4-6)
def test_labelled_candidates_without_an_acceptable_one_are_no_measurement(oracle, tmp_path, capsys):
    # the judge fails on every acceptable candidate (a reply that is no label) and rejects the rest: its kappa at
    # acceptable would be undefined, its accuracy perfect
    with LLMServer(generic="reject") as server:
        server.canned = {m: Canned("Perhaps." if label == "accept" else "reject") for m, (label, *_) in oracle.items()}
        status, out, err = validate(capsys, server, tmp_path / "v.json", "--sample", "100")
    assert status == 1 and not (tmp_path / "v.json").exists()
    judge_row = next(line for line in out.splitlines() if line.startswith("LLM judge"))
    assert judge_row.split()[2:4] == ["1.000", "undefined"], judge_row
    assert "not a measurement: no acceptable substitutes among the" in err


def test_a_validation_too_small_is_refused_before_any_request_when_it_would_be_recorded(tmp_path, capsys):
    with LLMServer(generic="reject") as server:
        status, _, err = validate(capsys, server, tmp_path / "v.json", "--sample", "10", "--seed", "4")
        assert status == 2 and "--sample 10" in err and "50" in err and not server.requests
    assert not (tmp_path / "v.json").exists()


def test_a_judge_that_never_answers_a_label_is_shown_not_recorded(tmp_path, capsys):
    output = tmp_path / "v.json"
    other = {"llm:other:12345678": {"written_by": "swords judge validate", "spearman": 0.5}}
    output.write_text(json.dumps(other))
    with LLMServer(generic="Perhaps.") as server:
        status, out, err = validate(capsys, server, output, "--sample", "50")
        requests = len(server.requests)
    assert status == 1 and f"{requests} failed items" in out and "undefined" in out
    assert "not a measurement: 0 labelled candidates" in err and f"nothing recorded in {output}" in err
    assert json.loads(output.read_text()) == other  # no entry with null figures for --agreement to sign


def test_the_output_keeps_other_judges_and_refuses_a_user_s_file(tmp_path, capsys):
    output = tmp_path / "v.json"
    output.write_text(json.dumps({"llm:other:12345678": {"written_by": "swords judge validate", "spearman": 0.5}}))
    with LLMServer(generic="reject") as server:  # 50 candidates, 15 of them acceptable: kappa 0, a measurement
        assert validate(capsys, server, output, "--sample", "50")[0] == 0
        kept = json.loads(output.read_text())
        assert len(kept) == 2 and kept["llm:other:12345678"]["spearman"] == 0.5
        mine = tmp_path / "mine.json"
        mine.write_text('{"notes": 1}')
        status, _, err = validate(capsys, server, mine, "--sample", "50")
        assert status == 2 and str(mine) in err and len(err.strip().splitlines()) == 1
        assert mine.read_text() == '{"notes": 1}'


def test_a_benchmark_without_human_scores_is_refused_in_one_line(tmp_path, capsys):
    status = swords_main(
        ["judge", "validate", "--dataset", "coinco", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    )
    err = capsys.readouterr().err
    assert status == 2 and "--dataset coinco" in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow  # 4 s on two busy cores (load 4-6)
def test_a_sample_larger_than_the_split_is_one_line(tmp_path, capsys):
    with LLMServer(generic="reject") as server:
        status, _, err = validate(capsys, server, tmp_path / "v.json", "--sample", "22979")  # dev holds 22,978
        assert status == 2 and "--sample 22979" in err and "22,978" in err and not server.requests
