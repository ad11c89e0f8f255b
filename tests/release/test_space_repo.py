"""The Space's Hugging Face repository as `swords hub export` writes it (swords_space/hub_repo.py): its files, the
card's Spaces header, the requirements that install the release, and a folder that is not its own left alone.
That pip installs those requirements and the app runs from them is test_installed_space.py's part."""

from __future__ import annotations

import os
import sys
from importlib.metadata import version

import pytest
import yaml

from swords_dataset import __version__
from swords_lexsub.errors import SwordsError
from swords_lexsub.hub.repos import Release, hub_repos
from swords_space.hub_repo import SPACE_REPO, TORCH_CPU_INDEX

from ..conftest import REPO_ROOT, free_port
from .processes import start, stop, wait_for_http


def header_and_body(card: str) -> tuple[dict, str]:
    _, header, body = card.split("---\n", 2)
    return yaml.safe_load(header), body


def test_the_space_repository_is_registered_for_swords_hub():
    assert SPACE_REPO in hub_repos()
    assert (SPACE_REPO.folder, SPACE_REPO.repo_type, SPACE_REPO.name, SPACE_REPO.space_sdk) == (
        "space",
        "space",
        "swords-demo",
        "gradio",
    )


def test_the_space_repository_holds_the_launcher_the_card_the_requirements_and_the_wheel(space_repo, dist):
    assert sorted(path.name for path in space_repo.iterdir()) == sorted(
        ["app.py", "README.md", "requirements.txt", dist["wheel"].name]
    )
    assert (space_repo / dist["wheel"].name).read_bytes() == dist["wheel"].read_bytes()
    compile((space_repo / "app.py").read_text(), "app.py", "exec")
    assert "from swords_space.app import main" in (space_repo / "app.py").read_text()


def test_the_card_has_the_spaces_header_with_the_gradio_the_tests_run(space_repo):
    header, body = header_and_body((space_repo / "README.md").read_text(encoding="utf-8"))
    assert header["sdk"] == "gradio" and header["app_file"] == "app.py"
    assert header["sdk_version"] == version("gradio")  # the Gradio this test suite runs the app with
    assert header["python_version"] == "3.11"  # setup.cfg's python_requires floor
    assert header["license"] == "mit"
    assert header["title"] and header["emoji"] and header["colorFrom"] and header["colorTo"]
    assert 0 < len(header["short_description"]) <= 60  # the Hub refuses a longer one (a configuration error)
    assert body == header_and_body((REPO_ROOT / "space" / "README.md").read_text(encoding="utf-8"))[1]
    assert "download.pytorch.org/whl/cpu" in body  # the card says why torch comes from PyTorch's CPU index


def test_the_requirements_install_this_release_from_the_wheel_beside_them(space_repo):
    lines = [
        line for line in (space_repo / "requirements.txt").read_text().splitlines() if line and not line.startswith("#")
    ]
    assert lines == [
        "--find-links .",
        f"--extra-index-url {TORCH_CPU_INDEX}",
        f"swords-lexsub[space,baselines]=={__version__}",
        f"gradio=={version('gradio')}",
    ]


def test_without_a_wheel_the_requirements_install_from_the_indexes_only(tmp_path):
    SPACE_REPO.write(tmp_path, Release(__version__))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["README.md", "app.py", "requirements.txt"]
    requirements = (tmp_path / "requirements.txt").read_text()
    assert "--find-links" not in requirements and f"swords-lexsub[space,baselines]=={__version__}\n" in requirements


def test_a_file_already_in_the_folder_is_refused_and_left_as_it_was(tmp_path, dist):
    mine = tmp_path / "requirements.txt"
    mine.write_text("my own\n")
    with pytest.raises(SwordsError) as refused:
        SPACE_REPO.write(tmp_path, Release(__version__, dist["wheel"]))
    assert str(refused.value) == (f"{mine}: already exists; the Space is written into a new or empty folder")
    assert mine.read_text() == "my own\n" and [path.name for path in tmp_path.iterdir()] == ["requirements.txt"]


def test_a_wheel_of_another_release_is_refused_naming_it(tmp_path, dist):
    with pytest.raises(SwordsError) as refused:
        SPACE_REPO.write(tmp_path / "space", Release("9.9.9", dist["wheel"]))
    assert str(refused.value) == (
        f"--wheel {dist['wheel']}: a wheel of swords-lexsub {__version__}, not of swords-lexsub 9.9.9"
    )
    assert not (tmp_path / "space").exists()


def listening_on_every_interface(port: int) -> bool:
    """Whether a socket listens on 0.0.0.0:port (/proc/net/tcp: local address in hex, state 0A is LISTEN)."""
    rows = [line.split() for line in open("/proc/net/tcp").read().splitlines()[1:]]
    return any(row[1] == f"00000000:{port:04X}" and row[3] == "0A" for row in rows)


def test_app_py_under_the_spaces_runtime_serves_every_interface_on_the_given_port(space_repo, tmp_path):
    """`python app.py` as Spaces runs it: SYSTEM=spaces and the port in $GRADIO_SERVER_PORT (Spaces also sets
    GRADIO_SERVER_NAME=0.0.0.0; the launcher does when it is missing). Here with the development install's Python;
    test_installed_space.py runs it from the installed wheel."""
    port = free_port()
    env = {
        **os.environ,
        "SYSTEM": "spaces",
        "GRADIO_SERVER_PORT": str(port),
        "GRADIO_TEMP_DIR": str(tmp_path),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("GRADIO_SERVER_NAME", None)
    log = tmp_path / "app.log"
    app = start([sys.executable, "app.py"], space_repo, env, log)
    try:
        wait_for_http(f"http://127.0.0.1:{port}/", app, log)
        assert listening_on_every_interface(port)
    finally:
        stop(app)
    assert "Traceback" not in log.read_text(errors="replace")
