"""`swords judge validate` against a real OpenAI-compatible server on 127.0.0.1 answering as an oracle of SWORDS's own
scores, and the human ceiling (SWORDS's second annotator pool against the main annotation), each figure worked out
here from the dataset's rows with scikit-learn and SciPy, not by the code under test."""

from __future__ import annotations

import json

import pytest

import swords_dataset
from swords_lexsub.cli import main as swords_main
from swords_metric import Task

from ..llm_server import Canned, LLMServer
from .judge_helpers import user_message


def hand_figures(judged: list[float], human: list[float]) -> dict:
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
def oracle(dev) -> dict[str, tuple[str, float]]:
    """The judge's user message for every SWORDS dev substitute -> (its label by SWORDS's score, the score)."""
    answers = {}
    for row in dev:
        task = Task("", row["id"], row["context"], row["target"], row["offset"], [])
        for substitute in row["substitutes"]:
            label = "accept" if substitute["score"] > 0.5 else "reject"
            answers[user_message(task, substitute["substitute"])] = (label, substitute["score"])
    return answers


def validate(capsys, server: LLMServer, output, *extra: str) -> tuple[int, str, str]:
    args = ["judge", "validate", "--dataset", "swords", "--split", "dev", "--base-url", server.base_url]
    args += ["--model", "oracle", "--cache-dir", "off", "--output", str(output), "--backoff", "0.01", *extra]
    capsys.readouterr()
    status = swords_main(args)
    out, err = capsys.readouterr()
    return status, out, err


def test_an_oracle_judge_and_the_human_ceiling_worked_out_by_hand(oracle, tmp_path, capsys):
    with LLMServer(generic="abstain") as server:  # the controls: the target abstained on (wrong), the random word right
        server.canned = {message: Canned(label) for message, (label, _) in oracle.items()}
        status, out, _ = validate(capsys, server, tmp_path / "v.json", "--sample", "60")
        asked = [server.query_of(r["path"], r["body"]) for r in server.requests]
    assert status == 0
    ((judge, entry),) = json.loads((tmp_path / "v.json").read_text()).items()
    scores = [oracle[message][1] for message in asked if message in oracle]
    assert len(scores) == entry["candidates"] == 60 and entry["failed"] == 0
    tasks = (len(asked) - 60) // 2
    assert entry["controls"] == {"right": tasks, "judged": 2 * tasks}
    rates = [1.0 if score > 0.5 else 0.0 for score in scores]
    for name, value in hand_figures(rates, scores).items():
        assert entry[name] == pytest.approx(value, abs=1e-4), name
    assert entry["accuracy_acceptable"] == 1.0 and entry["kappa_acceptable"] == 1.0

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
    assert judge in out and "humans" in out


def test_a_judge_that_never_answers_a_label_has_no_figures_only_failed_items(tmp_path, capsys):
    with LLMServer(generic="Accept.") as server:
        status, out, _ = validate(capsys, server, tmp_path / "v.json", "--sample", "12")
        requests = len(server.requests)
    entry = next(iter(json.loads((tmp_path / "v.json").read_text()).values()))
    assert status == 0 and entry["failed"] == requests and entry["candidates"] == 0
    assert entry["accuracy_acceptable"] is None and entry["spearman"] is None and "n/a" in out


def test_the_output_keeps_other_judges_and_refuses_a_user_s_file(tmp_path, capsys):
    output = tmp_path / "v.json"
    output.write_text(json.dumps({"llm:other:12345678": {"written_by": "swords judge validate", "spearman": 0.5}}))
    with LLMServer(generic="reject") as server:
        assert validate(capsys, server, output, "--sample", "5")[0] == 0
        kept = json.loads(output.read_text())
        assert len(kept) == 2 and kept["llm:other:12345678"]["spearman"] == 0.5
        mine = tmp_path / "mine.json"
        mine.write_text('{"notes": 1}')
        status, _, err = validate(capsys, server, mine, "--sample", "5")
        assert status == 2 and str(mine) in err and len(err.strip().splitlines()) == 1
        assert mine.read_text() == '{"notes": 1}'


def test_a_benchmark_without_human_scores_is_refused_in_one_line(tmp_path, capsys):
    status = swords_main(
        ["judge", "validate", "--dataset", "coinco", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    )
    err = capsys.readouterr().err
    assert status == 2 and "--dataset coinco" in err and len(err.strip().splitlines()) == 1


def test_a_sample_larger_than_the_split_is_one_line(tmp_path, capsys):
    with LLMServer(generic="reject") as server:
        status, _, err = validate(capsys, server, tmp_path / "v.json", "--sample", "22979")  # dev holds 22,978
        assert status == 2 and "--sample 22979" in err and "22,978" in err and not server.requests
