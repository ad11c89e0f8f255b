"""The toolkit as a user installs it: the built wheel, installed by the Space repository's requirements.txt into
a fresh virtual environment, run from a folder outside the clone. Its packages import from the environment's
site-packages, and its commands and its metric answer as the development install does, opening no file of the
clone (every open(2) is traced with strace where the machine has it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ..conftest import REPO_ROOT
from .installed import (
    COINCO_ORACLE,
    COMMAND_TIMEOUT,
    RESULTS,
    assert_nothing_opened_in_the_clone,
    run_installed,
    site_packages,
)


def test_the_packages_are_imported_from_the_fresh_environment(installed, tmp_path):
    log = tmp_path / "opened.txt"
    script = (
        "import json, swords_dataset, swords_metric, swords_baselines, swords_space; "
        "from importlib.metadata import version; "
        "print(json.dumps({m.__name__: m.__file__ for m in (swords_dataset, swords_metric, swords_baselines, "
        "swords_space)} | {'version': version('swords-lexsub')}))"
    )
    done = run_installed(installed, "python", "-c", script, log=log)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    from swords_dataset import __version__

    assert found.pop("version") == __version__
    packages = site_packages(installed)
    for module, file in found.items():
        assert Path(file).is_relative_to(packages), (module, file)
        assert not Path(file).resolve().is_relative_to(REPO_ROOT), (module, file)
    assert_nothing_opened_in_the_clone(log)
    print(f"pip install -r requirements.txt into a fresh venv: {installed['seconds']:.0f} s")


def test_swords_data_verify_from_the_installed_wheel(installed, tmp_path):
    log = tmp_path / "opened.txt"
    done = run_installed(installed, "swords", "data", "verify", log=log)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "35 figures match, 5 differ as explained, 0 mismatch"
    assert_nothing_opened_in_the_clone(log)


def test_swords_evaluate_on_a_shipped_result_file_gives_the_recorded_metrics(installed, tmp_path):
    """The CoInCo oracle's predictions shipped in the wheel, scored by the installed `swords evaluate`: equal to
    the metrics `swords run` recorded beside them and to the development install's Scorer."""
    log = tmp_path / "opened.txt"
    predictions = site_packages(installed) / RESULTS / COINCO_ORACLE
    done = run_installed(
        installed,
        "swords",
        "evaluate",
        "--dataset",
        "swords",
        "--split",
        "test",
        "--predictions",
        str(predictions),
        "--json",
        "--no-analysis",
        log=log,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    scored = json.loads(done.stdout)
    recorded = json.loads((REPO_ROOT / "space" / "results" / "coinco-oracle.swords.test.metrics.json").read_text())
    from swords_metric import Scorer, read_predictions

    here = Scorer.from_dataset("swords", "test").score(
        read_predictions(REPO_ROOT / "space" / "results" / COINCO_ORACLE)[0]
    )
    numbers = [key for key, value in scored.items() if isinstance(value, (int, float))]
    assert {"lenient_a_f@10", "strict_c_f@10", "gap", "best_p", "oot_mode_r", "lexsubgen_p@1"} <= set(numbers)
    for key in numbers:
        assert scored[key] == recorded[key] == here[key], key
    assert scored["signature"] == recorded["signature"]
    assert_nothing_opened_in_the_clone(log)


def test_swords_run_wordnet_from_the_installed_wheel_equals_the_development_install(installed, tmp_path):
    """`swords run --system wordnet` on SWORDS test (762 targets, a few seconds; the command has no --limit):
    the installed wheel's predictions and metrics are the development install's, byte for byte."""
    log = tmp_path / "opened.txt"
    command = ["run", "--system", "wordnet", "--dataset", "swords", "--split", "test", "--no-progress", "--json"]
    done = run_installed(installed, "swords", *command, "--output", str(tmp_path / "wheel" / "w.jsonl"), log=log)
    assert done.returncode == 0, done.stderr[-3000:]
    here = subprocess.run(
        [sys.executable, "-m", "swords_lexsub.cli", *command, "--output", str(tmp_path / "dev" / "w.jsonl")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
    )
    assert here.returncode == 0, here.stderr[-3000:]
    assert json.loads(done.stdout) == json.loads(here.stdout)
    assert json.loads(done.stdout)["lenient_a_f@10"] > 0
    assert (tmp_path / "wheel" / "w.jsonl").read_bytes() == (tmp_path / "dev" / "w.jsonl").read_bytes()
    assert_nothing_opened_in_the_clone(log)


def test_swords_lm_eval_path_without_the_extra_names_it_and_the_tasks_ship(installed, tmp_path):
    """The Space installs [space,baselines], not lm-eval: `swords lm-eval path` says which extra in one line;
    the task files it would print are in the installed package."""
    done = run_installed(installed, "swords", "lm-eval", "path", log=tmp_path / "opened.txt")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "swords: error: the lm-eval tasks need lm-eval: pip install 'swords-lexsub[lm-eval]'"
    ]
    tasks = site_packages(installed) / "swords_baselines" / "harness" / "tasks"
    assert {path.name for path in tasks.glob("*.yaml")} == {
        path.name for path in (REPO_ROOT / "baselines" / "harness" / "tasks").glob("*.yaml")
    }


def test_the_metric_module_in_the_installed_wheel_computes_the_development_figures(installed, tmp_path):
    log = tmp_path / "opened.txt"
    script = (
        "import json, swords_dataset, swords_metric\n"
        "from swords_metric import read_predictions\n"
        "import swords_space\n"
        "test = swords_dataset.load('swords', split='test')\n"
        f"predictions = read_predictions(swords_space.SPACE_DIR / 'results' / {COINCO_ORACLE!r})[0]\n"
        "results = swords_metric.load().compute(predictions=predictions, references=test)\n"
        "print(json.dumps({k: v for k, v in results.items() if isinstance(v, (int, float, str))}))\n"
    )
    done = run_installed(installed, "python", "-c", script, log=log)
    assert done.returncode == 0, done.stderr[-3000:]
    import swords_dataset
    import swords_metric
    from swords_metric import read_predictions

    predictions = read_predictions(REPO_ROOT / "space" / "results" / COINCO_ORACLE)[0]
    here = swords_metric.load().compute(predictions=predictions, references=swords_dataset.load("swords", split="test"))
    there = json.loads(done.stdout)
    assert there["lenient_a_f@10"] > 0 and len(there) > 20
    assert there == {key: here[key] for key in there}
    assert_nothing_opened_in_the_clone(log)
