"""`swords hub export DIR`: the folders it writes, what it refuses, and the dataset repository loaded exactly as the
Hub loads it, by a Python that cannot import any of this toolkit's packages."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

import swords_dataset
from swords_lexsub.hub.export import MANIFEST

from ..conftest import REPO_ROOT, run_swords
from ..input_names import WAYS, another_name, refusal

# A Python that has only what a Hub user has (datasets): every import of a swords_* package fails.
BLOCKED_LOADER = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path

    class NoSwords:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0].startswith("swords"):
                raise ImportError(f"blocked: {name}")
            return None

    sys.meta_path.insert(0, NoSwords())
    try:
        import swords_dataset
    except ImportError:
        pass
    else:
        raise SystemExit("the blocker let swords_dataset in")

    import datasets

    folder, out = Path(sys.argv[1]), Path(sys.argv[2])
    for config, splits in json.loads(sys.argv[3]).items():
        for split in splits:
            loaded = datasets.load_dataset(str(folder), config, split=split)
            assert not [m for m in sys.modules if m.startswith("swords")]
            (out / f"{config}.{split}.json").write_text(
                json.dumps({"features": loaded.features.to_dict(), "rows": loaded.to_list()}))
    """
)


@pytest.mark.slow  # 18 s on two cores
def test_every_config_and_split_loads_from_the_exported_folder_without_the_toolkit(hub_export, tmp_path):
    out = tmp_path / "loaded"
    out.mkdir()
    env = {**os.environ, "HF_HOME": str(tmp_path / "hf"), "HF_HUB_OFFLINE": "1", "PYTHONPATH": ""}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            BLOCKED_LOADER,
            str(hub_export / "dataset"),
            str(out),
            json.dumps(swords_dataset.CONFIGS),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    for config, splits in swords_dataset.CONFIGS.items():
        for split in splits:
            shipped = swords_dataset.load(config, split=split)
            loaded = json.loads((out / f"{config}.{split}.json").read_text())
            assert loaded["features"] == shipped.features.to_dict(), (config, split)
            assert loaded["rows"] == json.loads(json.dumps(shipped.to_list())), (config, split)


def test_the_exported_repositories_hold_exactly_their_files(hub_export):
    assert sorted(p.name for p in hub_export.iterdir()) == ["dataset", "metric", "space", MANIFEST]
    dataset_files = sorted(
        p.relative_to(hub_export / "dataset").as_posix() for p in (hub_export / "dataset").rglob("*") if p.is_file()
    )
    licensed = ("prolex", "tsar2022_en", "tsar2022_es", "tsar2022_pt")  # their license texts ship with the data
    assert dataset_files == sorted(
        [
            "README.md",
            *(f"data/{config}/LICENSE" for config in licensed),
            *(swords_dataset.parquet_path(c, s) for c, splits in swords_dataset.CONFIGS.items() for s in splits),
        ]
    )
    for relative in dataset_files:
        assert (hub_export / "dataset" / relative).read_bytes() == (swords_dataset.DATASET_DIR / relative).read_bytes()
    assert sorted(p.name for p in (hub_export / "metric").iterdir()) == [
        "README.md",
        "app.py",
        "requirements.txt",
        "swords_metric.py",
    ]
    assert (hub_export / "metric" / "requirements.txt").read_text() == f"swords-lexsub=={swords_dataset.__version__}\n"
    card = (hub_export / "metric" / "README.md").read_text()
    header = yaml.safe_load(card.split("---\n")[1])
    assert {key: header[key] for key in ("sdk", "app_file")} == {"sdk": "gradio", "app_file": "app.py"}
    assert header["sdk_version"].startswith("6.") and {"evaluate", "metric"} <= set(header["tags"])
    assert header["title"] and header["emoji"] and header["description"]


@pytest.mark.slow  # 6 s on two busy cores (load 4-6)
def test_an_export_replaces_its_own_folder_and_refuses_anything_else(hub_export, tmp_path):
    target = tmp_path / "again"
    shutil.copytree(hub_export, target)
    (target / "metric" / "app.py").write_text("stale")  # edited since: refused, naming it, nothing changed
    result = run_swords("hub", "export", str(target))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert f"{target / 'metric' / 'app.py'} was not written by `swords hub export`" in result.stderr
    assert (target / "metric" / "app.py").read_text() == "stale"

    shutil.copyfile(hub_export / "metric" / "app.py", target / "metric" / "app.py")
    result = run_swords("hub", "export", str(target))  # its own: replaced whole, no scratch left
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in target.iterdir()) == ["dataset", "metric", "space", MANIFEST]

    users = tmp_path / "users"
    users.mkdir()
    (users / "notes.txt").write_text("mine")
    result = run_swords("hub", "export", str(users))
    assert result.returncode == 2 and f"{users / 'notes.txt'} was not written by `swords hub export`" in result.stderr
    assert [p.name for p in users.iterdir()] == ["notes.txt"]


def test_a_wheel_of_another_release_is_refused_before_any_work(tmp_path):
    wheel = tmp_path / "swords_lexsub-9.9.9-py3-none-any.whl"
    wheel.write_bytes(b"")
    result = run_swords("hub", "export", str(tmp_path / "out"), "--wheel", str(wheel))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert f"not of swords-lexsub {swords_dataset.__version__}" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_repository_whose_package_cannot_be_imported_is_named_and_nothing_is_written(tmp_path):
    # swords_metric made unimportable (None in sys.modules makes `import swords_metric` raise ImportError).
    script = (
        "import sys\nsys.modules['swords_metric'] = None\nfrom swords_lexsub.cli import main\n"
        "sys.exit(main(['hub', 'export', sys.argv[1]]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "out")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "the Hub repository 'metric' (swords_metric.hub_repo:METRIC_REPO) cannot be made here" in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.fixture(scope="module")
def built_wheel(tmp_path_factory) -> Path:
    """This release's wheel, built from the worktree (about 3 s)."""
    folder = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(folder),
            str(REPO_ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = folder.glob("*.whl")
    return wheel


@pytest.mark.slow  # 5 s on two cores
def test_a_shipped_wheel_goes_beside_the_metric_and_its_requirements_install_from_it_alone(built_wheel, tmp_path):
    target = tmp_path / "out"
    result = run_swords("hub", "export", str(target), "--wheel", str(built_wheel))
    assert result.returncode == 0, result.stderr
    metric = target / "metric"
    assert (metric / built_wheel.name).read_bytes() == built_wheel.read_bytes()
    assert (metric / "requirements.txt").read_text() == (
        f"swords-lexsub=={swords_dataset.__version__}\n./{built_wheel.name}\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "--no-index", "-r", "requirements.txt"],
        cwd=metric,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]  # no index: the pin is met by the shipped wheel
    assert f"Would install swords-lexsub-{swords_dataset.__version__}" in done.stdout


def test_a_file_named_as_this_release_s_wheel_that_is_not_one_is_refused(tmp_path):
    fake = tmp_path / f"swords_lexsub-{swords_dataset.__version__}-py3-none-any.whl"
    fake.write_text("not a zip")
    result = run_swords("hub", "export", str(tmp_path / "out"), "--wheel", str(fake))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert f"not a wheel of swords-lexsub {swords_dataset.__version__}" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.slow  # 9 s on two cores (four exports refused, after one made)
def test_an_export_never_replaces_the_wheel_it_is_given(built_wheel, tmp_path):
    """A wheel an earlier export shipped, given again as --wheel (by its path, another spelling, a link or a hard
    link), is a file the export would replace: refused before any work, the folder left as it was (issue 47). The
    line names --wheel as the export reads it: the path resolved (a link followed: its target's name is the wheel's)."""
    target = tmp_path / "out"
    assert run_swords("hub", "export", str(target), "--wheel", str(built_wheel)).returncode == 0
    shipped = target / "metric" / built_wheel.name
    before = {path: path.read_bytes() for path in sorted(target.rglob("*")) if path.is_file()}
    for way in WAYS:
        given = another_name(shipped, way, folder=tmp_path)
        result = run_swords("hub", "export", str(target), "--wheel", str(given))
        read = "a hard link" if way == "a hard link" else "the same path"
        assert result.returncode == 2
        assert result.stderr.strip() == refusal(str(target), "--wheel", given.resolve(), read, shipped)
        assert {path: path.read_bytes() for path in sorted(target.rglob("*")) if path.is_file()} == before
