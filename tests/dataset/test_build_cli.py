"""`swords data build|verify|publish` as a user runs them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import swords_dataset
from swords_dataset.builder.sources import BUILD_SOURCES

from ..conftest import REPO_ROOT, run_swords


def committed_files() -> list[str]:
    files = [
        "README.md",
        *(swords_dataset.parquet_path(c, s) for c, splits in swords_dataset.CONFIGS.items() for s in splits),
        *(swords_dataset.license_path(c) for c in swords_dataset.LICENSED_CONFIGS),
    ]
    assert all((swords_dataset.DATASET_DIR / f).is_file() for f in files)
    return files


def test_rebuild_is_byte_identical_to_the_committed_files(rebuilt):
    different = [
        f for f in committed_files() if (rebuilt / f).read_bytes() != (swords_dataset.DATASET_DIR / f).read_bytes()
    ]
    assert different == []
    assert sorted(p.name for p in rebuilt.iterdir()) == ["README.md", "data", "swords-build.json"]  # no scratch left


def assert_one_line_error_and_no_output(result, output: Path, *expected: str):
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for text in expected:
        assert text in lines[0]
    assert not output.exists() or list(output.iterdir()) == []


def test_missing_source_is_named_with_its_checksum_and_nothing_is_written(sources_copy, tmp_path):
    relative = "semeval07/lst_test.gold"
    (sources_copy / relative).unlink()
    output = tmp_path / "out"
    result = run_swords("data", "build", "--sources", str(sources_copy), "--output", str(output))
    assert_one_line_error_and_no_output(result, output, "missing source", relative, BUILD_SOURCES[relative])


def test_corrupted_source_is_named_with_its_checksum_and_nothing_is_written(sources_copy, tmp_path):
    relative = "coinco/coinco.no_problematic.candidates"
    with open(sources_copy / relative, "a") as f:
        f.write("tampered.N::x\n")
    output = tmp_path / "out"
    result = run_swords("data", "build", "--sources", str(sources_copy), "--output", str(output))
    assert_one_line_error_and_no_output(result, output, "corrupted source", relative, BUILD_SOURCES[relative])


def test_failed_build_leaves_an_existing_dataset_untouched(sources_copy, rebuilt, tmp_path):
    output = tmp_path / "existing"
    shutil.copytree(rebuilt, output)
    before = {p: p.read_bytes() for p in output.rglob("*") if p.is_file()}
    (sources_copy / "swords/swords-v1.1_dev.json.gz").write_bytes(b"not gzip")
    result = run_swords("data", "build", "--sources", str(sources_copy), "--output", str(output))
    assert result.returncode == 2 and "corrupted source" in result.stderr
    assert {p: p.read_bytes() for p in output.rglob("*") if p.is_file()} == before


@pytest.mark.slow  # 6 s on two busy cores (load 4-6)
def test_build_without_nltk35_says_how_to_get_it_and_writes_nothing(sources_dir, tmp_path):
    output = tmp_path / "out"
    result = run_swords(
        "data", "build", "--sources", str(sources_dir), "--output", str(output), env={"SWORDS_NLTK35_PATH": ""}
    )
    assert_one_line_error_and_no_output(result, output, "nltk 3.5", "pip install --no-deps --target DIR nltk==3.5")
    result = run_swords("data", "build", "--sources", str(sources_dir), "--output", str(output), "--nltk35", "/nope")
    assert_one_line_error_and_no_output(result, output, "no nltk in /nope")


@pytest.mark.slow  # 9 s on two busy cores (load 4-6)
def test_offline_load_from_the_repository_root(tmp_path):
    code = "from datasets import load_dataset; print(load_dataset('swords_dataset', 'coinco', split='test').num_rows)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_CACHE": str(tmp_path / "cache")},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "5450"


@pytest.mark.slow  # 8 s on two busy cores (load 4-6)
def test_package_loader_works_from_another_directory(tmp_path):
    code = "import swords_dataset; print(swords_dataset.load('semeval07', split='trial').num_rows)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_CACHE": str(tmp_path / "cache")},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "300"


@pytest.mark.slow  # 6 s on two cores
def test_verify_passes_and_prints_the_table():
    result = run_swords("data", "verify")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "coinco/dev" in result.stdout and "0 mismatch" in result.stdout
    assert "explained swords/dev+test inconceivable/target" in result.stdout


def test_verify_fails_naming_the_figure_when_data_is_off(rebuilt, tmp_path):
    import pyarrow.parquet as pq

    broken = tmp_path / "broken"
    shutil.copytree(rebuilt, broken)
    path = broken / swords_dataset.parquet_path("semeval07", "trial")
    table = pq.read_table(path)
    pq.write_table(table.slice(0, 299), path)
    result = run_swords("data", "verify", "--dataset-dir", str(broken))
    assert result.returncode == 1
    assert "MISMATCH  semeval07/trial targets: measured 299, published 300" in result.stdout


def test_publish_dry_run_lists_files_and_sizes():
    result = run_swords("data", "publish", "--repo-id", "someorg/lexsub", "--dry-run")
    assert result.returncode == 0, result.stderr
    listed = {line.split()[-1]: int(line.split()[0].replace(",", "")) for line in result.stdout.splitlines()[:-1]}
    assert listed == {f: (swords_dataset.DATASET_DIR / f).stat().st_size for f in committed_files()}
    assert "dry run, nothing uploaded" in result.stdout


def test_publish_without_a_token_is_a_clear_error():
    env = {"HF_TOKEN": "", "HUGGING_FACE_HUB_TOKEN": ""}
    result = run_swords("data", "publish", "--repo-id", "someorg/lexsub", env=env)
    assert result.returncode == 2 and "no Hugging Face token" in result.stderr and "Traceback" not in result.stderr


def test_publish_failure_never_prints_the_token():
    secret = "hf_" + "x" * 30
    env = {"HF_TOKEN": secret, "HF_ENDPOINT": "http://127.0.0.1:9", "HF_HUB_OFFLINE": "0"}
    result = run_swords("data", "publish", "--repo-id", "someorg/lexsub", env=env)
    assert result.returncode == 2 and "upload to someorg/lexsub at http://127.0.0.1:9 failed" in result.stderr
    assert secret not in result.stdout + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_publish_rejects_a_malformed_repo_id():
    result = run_swords("data", "publish", "--repo-id", "no-slash", env={"HF_TOKEN": "hf_dummy"})
    assert result.returncode == 2 and "ORG/NAME" in result.stderr
