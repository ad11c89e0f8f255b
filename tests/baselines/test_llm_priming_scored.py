"""The prompted LLM never primes from the split being scored (issue 30). `--priming auto` on `tsar2022_en --split
trial` and `prolex --split dev` used to prime from that very split, so every prompt carried the gold answers of the
split's other targets, and `.metrics.json` said only "auto"; an explicit `--priming` of the scored split was taken
without a word. `swords run` against an OpenAI-compatible server on 127.0.0.1: the prompts it receives, and what the
run records. The SWORDS paper's convention (SWORDS dev primes the test sets) is kept."""

from __future__ import annotations

import json

import pytest

import swords_dataset
from swords_baselines.llm.config import LLMConfig
from swords_baselines.llm.prompt import QUESTION, mark_target
from swords_baselines.run.files import output_paths
from swords_lexsub.errors import SwordsError

from ..conftest import run_swords
from ..llm_server import LLMServer

TARGETS = 3


def marked(row: dict) -> str:
    return mark_target(row["context"], row["target"], row["offset"]) + "\n" + QUESTION.format(target=row["target"])


def swords_run(server: LLMServer, tmp_path, dataset: str, split: str, *options: str):
    output = tmp_path / f"{dataset}.{split}.jsonl"
    done = run_swords(
        "run",
        "--system",
        "llm",
        "--base-url",
        server.base_url,
        "--model",
        "davinci-002",
        "--dataset",
        dataset,
        "--split",
        split,
        "--limit",
        str(TARGETS),
        "--budget",
        "1024",
        "--max-tokens",
        "32",
        "--output",
        str(output),
        "--cache-dir",
        "off",
        "--no-progress",
        "--bootstrap",
        "0",
        *options,
        env={"OPENAI_API_KEY": ""},
    )
    return done, output


@pytest.mark.parametrize(
    ("dataset", "split", "primed_from"),
    [
        ("tsar2022_en", "trial", ("tsar2022_en", "test")),  # the issue's: trial is TSAR-2022's own priming split
        ("prolex", "dev", ("prolex", "test")),  # the issue's: dev is ProLex's
        ("swords", "dev", ("swords", "test")),
        ("swords", "test", ("swords", "dev")),  # the SWORDS paper's convention, kept
    ],
)
@pytest.mark.slow  # 17 s on two cores
def test_a_run_never_primes_from_the_split_it_scores_and_records_where_it_primed(tmp_path, dataset, split, primed_from):
    with LLMServer() as server:
        done, output = swords_run(server, tmp_path, dataset, split)
        prompts = [request["body"]["prompt"] for request in server.requests if request["path"].endswith("/completions")]
    assert done.returncode == 0, done.stderr[-2000:]
    scored = swords_dataset.rows(dataset, split)
    scored_questions = {marked(row) for row in scored}
    example_questions = {marked(row) for row in swords_dataset.rows(*primed_from)}
    assert len(prompts) == TARGETS
    for prompt in prompts:
        *shots, query = prompt.split("\n\n")
        assert shots and query.endswith("\nA:") and query[: -len("\nA:")] in scored_questions
        # No priming example is a scored target: every one is a target of the split it was primed from.
        questions = [shot.split("\nA: ")[0] for shot in shots]
        assert not scored_questions & set(questions) and set(questions) <= example_questions
    metrics = json.loads(output_paths(output)["metrics"].read_text())
    assert metrics["run"]["options"]["priming"] == ":".join(primed_from)
    assert json.loads(output.read_text().splitlines()[0])["id"] == scored[0]["id"]


def test_an_explicit_priming_of_the_scored_split_is_one_line_before_any_request(tmp_path):
    with LLMServer() as server:
        done, output = swords_run(server, tmp_path, "tsar2022_en", "trial", "--priming", "tsar2022_en:trial")
        assert server.requests == []
    assert done.returncode == 2 and done.stderr.strip() == (
        "swords: error: llm: --priming tsar2022_en:trial is the split being scored (tsar2022_en trial): every prompt "
        "would carry the other targets' gold answers; choose another (e.g. tsar2022_en:test)"
    )
    assert list(tmp_path.iterdir()) == []  # nothing written
    # A split holding the same targets under another config: SWORDS dev's are CoInCo dev's.
    with LLMServer() as server:
        done, _ = swords_run(server, tmp_path, "coinco", "dev", "--priming", "swords:dev")
        assert server.requests == []
    assert done.returncode == 2 and done.stderr.strip() == (
        "swords: error: llm: --priming swords:dev holds the targets of the split being scored (coinco dev): every "
        "prompt would carry the other targets' gold answers; choose another (e.g. swords:test)"
    )


@pytest.mark.parametrize(
    ("benchmark", "split"),
    [("prolex", "dev+test"), ("tsar2022_pt", "trial+test"), ("swords", "dev+test"), ("coinco", "dev+test")],
)
def test_auto_refuses_where_every_split_is_scored(benchmark, split):
    """A pooled split (LexSubGen's dev+test) counts as both: no split of the priming benchmark is left."""
    config = "swords" if benchmark in ("swords", "coinco") else benchmark
    with pytest.raises(SwordsError) as error:
        LLMConfig.of().priming_split(benchmark, split)
    assert str(error.value).startswith(
        f"--priming auto: every split of {config} holds targets being scored ({benchmark} {split}) and priming never "
        f"comes from them; choose another benchmark's split as --priming CONFIG:SPLIT (e.g. "
    )
    with pytest.raises(SwordsError, match="is part of the split being scored|holds the targets of the split"):
        LLMConfig.of(priming=f"{config}:{swords_dataset.CONFIGS[config][0]}").priming_split(benchmark, split)


def test_the_paper_convention_and_the_benchmarks_own_splits_where_they_are_not_scored():
    for benchmark, split in (
        ("swords", "test"),
        ("coinco", "test"),
        ("semeval07", "test"),
        ("semeval07", "trial"),
        ("semeval07", "trial+test"),
        ("swords_test_subset", "test"),
        ("swords_reannotated", "test"),
    ):
        assert LLMConfig.of().priming_split(benchmark, split) == ("swords", "dev"), (benchmark, split)
    for benchmark in ("tsar2022_en", "tsar2022_es", "tsar2022_pt"):
        assert LLMConfig.of().priming_split(benchmark, "test") == (benchmark, "trial")
    assert LLMConfig.of().priming_split("prolex", "test") == ("prolex", "dev")
    # The SWORDS test subsets are SWORDS test targets: priming from SWORDS test to score them is refused.
    with pytest.raises(SwordsError, match="holds the targets of the split being scored"):
        LLMConfig.of(priming="swords:test").priming_split("swords_test_subset", "test")


@pytest.mark.slow  # 4 s on two cores
def test_the_splits_taken_to_share_targets_do_share_them_in_the_data():
    """What SAME_TARGETS says, found in the data: SWORDS dev targets are CoInCo dev tokens and SWORDS test targets
    CoInCo test tokens (by CoInCo token id), never the other split's; the 89-target subsets are SWORDS test ids."""
    from swords_baselines.llm.priming import SAME_TARGETS

    def tokens(config: str, split: str) -> set[tuple[str, ...]]:
        return {tuple(row["provenance"]["coinco_token_ids"] or ()) for row in swords_dataset.rows(config, split)} - {()}

    coinco = {split: tokens("coinco", split) for split in ("dev", "test")}
    for split, other in (("dev", "test"), ("test", "dev")):
        swords = tokens("swords", split)
        assert len(swords & coinco[split]) > 0.9 * len(swords) and not swords & coinco[other]
    test_ids = {row["id"] for row in swords_dataset.rows("swords", "test")}
    for subset in ("swords_test_subset", "swords_reannotated"):
        assert {row["id"] for row in swords_dataset.rows(subset, "test")} <= test_ids
    assert set(SAME_TARGETS) == {
        frozenset({("swords", "dev"), ("coinco", "dev")}),
        frozenset(
            {("swords", "test"), ("coinco", "test"), ("swords_test_subset", "test"), ("swords_reannotated", "test")}
        ),
    }
