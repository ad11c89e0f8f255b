"""The exported metric repository (`swords hub export DIR`, DIR/metric) as the Hub runs it: the module file through
`evaluate.load` gives exactly what `swords evaluate` gives, it refuses a missing or other release in one line,
and its Gradio widget starts and scores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import evaluate
import pytest

import swords_dataset
from swords_dataset.hub import Release
from swords_metric import read_predictions
from swords_metric.hub_repo import METRIC_REPO

from ..conftest import REPO_ROOT, run_swords
from ..space_server import free_port, stop_process, wait_until_up

ORACLE = REPO_ROOT / "space" / "results" / "coinco-oracle.swords.test.jsonl"  # a real system's recorded output


@pytest.fixture(scope="module")
def cli_result() -> dict:
    result = run_swords("evaluate", "--dataset", "swords", "--split", "test", "--predictions", str(ORACLE),
                        "--json", "--bootstrap", "0")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_evaluate_load_of_the_exported_module_gives_what_swords_evaluate_gives(hub_export, cli_result, tmp_path):
    metric = evaluate.load(str(hub_export / "metric" / "swords_metric.py"), cache_dir=str(tmp_path))
    predictions, _ = read_predictions(ORACLE)
    result = metric.compute(predictions=predictions, references=swords_dataset.load("swords", split="test"))
    # Every metric, count, note and the signature; `id_scheme` is the file's, which evaluate's input (aligned
    # predictions) does not carry (None), as test_metric_files.py also leaves it out.
    assert {name: value for name, value in result.items() if name != "id_scheme"} == {
        name: value for name, value in cli_result.items() if name not in ("analysis", "id_scheme")}
    assert round(result["lenient_a_f@10"], 2) == 33.88  # the CoInCo-oracle row, as swords evaluate prints it


def test_another_release_is_refused_with_the_install_line(tmp_path):
    folder = tmp_path / "swords_metric"
    folder.mkdir()
    METRIC_REPO.write(folder, Release("9.9.9"))
    assert (folder / "requirements.txt").read_text() == "swords-lexsub==9.9.9\n"
    with pytest.raises(ImportError) as error:
        evaluate.load(str(folder / "swords_metric.py"), cache_dir=str(tmp_path / "cache"))
    assert str(error.value) == (f"this SWORDS metric is swords-lexsub 9.9.9's, and {swords_dataset.__version__} is "
                                "installed: pip install swords-lexsub==9.9.9")


def test_without_the_package_evaluate_load_says_what_to_install(hub_export, tmp_path):
    """As on a machine without swords-lexsub: every swords_* import fails."""
    script = (
        "import sys\n"
        "class NoSwords:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0].startswith('swords'):\n"
        "            raise ImportError(f'No module named {name!r}')\n"
        "sys.meta_path.insert(0, NoSwords())\n"
        "import evaluate\n"
        "try:\n"
        "    evaluate.load(sys.argv[1])\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run([sys.executable, "-c", script, str(hub_export / "metric" / "swords_metric.py")],
                            cwd=tmp_path, env={**os.environ, "HF_HOME": str(tmp_path / "hf")},
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines() == [
        f"the SWORDS metric needs its package: pip install swords-lexsub=={swords_dataset.__version__} "
        "(No module named 'swords_metric')"]


def test_the_widget_starts_beside_its_module_and_scores_as_swords_evaluate(hub_export, cli_result, tmp_path):
    """`python app.py` in the repository's folder, as a Space runs it: the module file beside it shares the
    package's name, so this also proves the package, not that file, is what gets imported."""
    from gradio_client import Client

    port = free_port()
    env = {**os.environ, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port), "HF_HOME": str(tmp_path),
           "GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1", "GRADIO_TEMP_DIR": str(tmp_path / "gradio")}
    log_path = tmp_path / "app.log"
    with open(log_path, "wb") as log:
        app = subprocess.Popen([sys.executable, "app.py"], cwd=hub_export / "metric", env=env, stdout=log,
                               stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}/"
        try:
            wait_until_up(url, app, timeout=120)
        except (RuntimeError, TimeoutError):
            raise AssertionError(Path(log_path).read_text(errors="replace")[-3000:]) from None
        client = Client(url, verbose=False)
        headline, everything = client.predict(ORACLE.read_text(), "swords / test", api_name="/score")
        assert headline["lenient_a_f@10"] == cli_result["lenient_a_f@10"]
        assert headline["signature"] == cli_result["signature"]
        assert {name: everything[name] for name in ("gap", "strict_c_f@10", "best_p", "oot_mode_r")} == {
            name: cli_result[name] for name in ("gap", "strict_c_f@10", "best_p", "oot_mode_r")}
        with pytest.raises(Exception) as refused:
            client.predict('{"id": "t:nope", "substitutes": ["a"]}', "swords / test", api_name="/score")
        assert "t:nope" in str(refused.value)
    finally:
        stop_process(app)
