"""`swords run --limit N` for every system (the runner's, baselines/run/extent.py): the split's first N targets, a
run that says it is limited (printed title, metrics header), that a wider run completes without asking its
answers again, and that no run narrows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import swords_dataset
from swords_baselines.run.files import output_paths

from ..llm_server import LLMServer
from .run_helpers import llm_args, one_line, swords


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def run_args(system: str, dataset: str, output: Path, *extra: str) -> list[str]:
    return ["run", "--system", system, "--dataset", dataset, "--split", "test", "--output", str(output), *extra]


@pytest.mark.slow  # 18 s on two cores (five runs: limited, full, narrowed, and two limits that reach every target)
@pytest.mark.parametrize(
    ("system", "dataset", "split_targets"), [("wordnet", "swords", 762), ("humans", "swords_test_subset", 89)]
)
def test_a_limited_run_answers_the_first_targets_says_so_and_a_full_run_completes_it(
    tmp_path, system, dataset, split_targets
):
    output = tmp_path / "run.jsonl"
    first = swords(*run_args(system, dataset, output, "--limit", "3", "--bootstrap", "0", "--no-progress"))
    assert first.returncode == 0, first.stderr
    assert f"({3} of the split's {split_targets} targets: --limit 3, scored on those only)" in first.stdout
    split_ids = [row["id"] for row in swords_dataset.rows(dataset, "test")]
    limited = lines(output)
    assert [answer["id"] for answer in limited] == split_ids[:3]
    metrics = json.loads(output_paths(output)["metrics"].read_text())
    assert metrics["targets_scored"] == 3
    assert {key: metrics["run"][key] for key in ("targets", "split_targets", "limit")} == {
        "targets": 3,
        "split_targets": split_targets,
        "limit": 3,
    }

    full = swords(*run_args(system, dataset, output, "--bootstrap", "0", "--no-progress"))
    assert full.returncode == 0, full.stderr
    assert f"({split_targets} targets)" in full.stdout and "--limit" not in full.stdout
    answers = lines(output)
    assert [answer["id"] for answer in answers] == split_ids and answers[:3] == limited
    run = json.loads(output_paths(output)["metrics"].read_text())["run"]
    assert run["targets"] == split_targets and "limit" not in run and "split_targets" not in run
    assert not output_paths(output)["journal"].exists()

    before = output.read_bytes()
    narrowed = one_line(swords(*run_args(system, dataset, output, "--limit", "3", "--no-progress")))
    assert (
        f"a finished run of {split_targets} targets, made with every target (no --limit); a run with --limit 3 "
        "would drop answers" in narrowed
    )
    assert output.read_bytes() == before
    # A limit of as many targets as the full run answered, or more, drops nothing: the finished run is scored again
    # (issue 47: --limit 762 after a full run of SWORDS test said it "would drop answers").
    for limit in (split_targets, split_targets + 1):
        again = swords(*run_args(system, dataset, output, "--limit", str(limit), "--bootstrap", "0", "--no-progress"))
        assert again.returncode == 0, again.stderr
        assert "a finished run with these settings; its stored predictions are scored" in again.stderr
        assert f"({split_targets} targets)" in again.stdout and output.read_bytes() == before


@pytest.mark.slow  # four runs against a server on 127.0.0.1
def test_a_wider_limit_asks_only_the_targets_it_lacks_and_a_narrower_one_is_refused(tmp_path, key):
    output = tmp_path / "llm.jsonl"
    with LLMServer(varied=True) as server:
        assert swords(*llm_args(server.base_url, output, limit=3), env=key).returncode == 0
        assert len(server.requests) == 3
        first = lines(output)
        # The metrics say it is a limited run; the LLM has no --limit of its own any more (it is the runner's).
        assert json.loads(output_paths(output)["metrics"].read_text())["run"]["limit"] == 3
        assert "limit" not in json.loads(output_paths(output)["metrics"].read_text())["run"]["options"]

        wider = swords(*llm_args(server.base_url, output, limit=6), env=key)
        assert wider.returncode == 0, wider.stderr
        assert len(server.requests) == 6  # the three it had were kept, not asked again
        assert lines(output)[:3] == first and len(lines(output)) == 6
        assert "6 of the split's 370 targets: --limit 6" in wider.stdout

        again = swords(*llm_args(server.base_url, output, limit=6), env=key)
        assert again.returncode == 0 and len(server.requests) == 6  # the same run: its stored result
        assert "a finished run with these settings" in again.stderr

        narrowed = one_line(swords(*llm_args(server.base_url, output, limit=2), env=key))
        assert narrowed == (
            f"swords: error: {output} holds a finished run of 6 targets, made with --limit 6; a run with --limit 2 "
            "would drop answers: rerun with --limit 6 or more (or none), choose another --output, or pass --force"
        )
        assert len(server.requests) == 6 and len(lines(output)) == 6
