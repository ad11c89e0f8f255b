"""The Space's Hugging Face repository (`swords hub export` writes it): a thin `app.py` starting the installed app,
the card (this package's README.md, whose header's `sdk_version` is the one place naming the Space's Gradio), and a
`requirements.txt` pinning the same Gradio and installing the release, from the wheel beside it until PyPI has it."""

from __future__ import annotations

from pathlib import Path

from swords_lexsub.errors import SwordsError
from swords_lexsub.files import atomic_write
from swords_lexsub.hub.repos import HubRepo, Release
from swords_lexsub.hub.wheel import check_wheel, ship_wheel
from swords_space import SPACE_DIR

DISTRIBUTION = "swords-lexsub"
EXTRAS = "space,baselines"
# On Spaces' CPU hardware PyPI's torch is the CUDA build (several GB a CPU cannot use); with PyTorch's CPU index
# also searched, pip takes the same version's `+cpu` build (a local version label sorts above the plain one).
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"

APP = '''"""The SWORDS lexical substitution demo on Hugging Face Spaces: the app of the installed `swords_space`
(requirements.txt installs it), started as `swords demo` starts it. Spaces runs `python app.py` and sets
GRADIO_SERVER_NAME=0.0.0.0 and GRADIO_SERVER_PORT=7860; elsewhere it listens on 127.0.0.1 (`--host`, `--port`)."""

import os
import sys

from swords_space.app import main

if __name__ == "__main__":
    if os.environ.get("SYSTEM") == "spaces":  # Hugging Face's runtime: serve every interface, even unset
        os.environ.setdefault("GRADIO_SERVER_NAME", "0.0.0.0")
    sys.exit(main())
'''


def card_text() -> str:
    """The Space's card as shipped (the Spaces YAML header and the body)."""
    return (SPACE_DIR / "README.md").read_text(encoding="utf-8")


def gradio_version() -> str:
    """The Gradio version the Space runs: its card's `sdk_version`."""
    from huggingface_hub import SpaceCard

    version = SpaceCard(card_text()).data.sdk_version
    if not version:
        raise SwordsError(f"{SPACE_DIR / 'README.md'}: the card's header has no sdk_version")
    return str(version)


def requirements(release: Release) -> str:
    """requirements.txt: the release with the Space's extras and the card's Gradio; with a wheel, `--find-links .`."""
    lines = ["# Installed by Hugging Face Spaces (pip install -r requirements.txt) before it runs `python app.py`."]
    if release.wheel is not None:
        lines.append("# The release's wheel ships beside this file until PyPI has it:")
        lines.append("--find-links .")
    lines.append("# torch's CPU build (PyPI's is the CUDA one, several GB a CPU Space cannot use):")
    lines.append(f"--extra-index-url {TORCH_CPU_INDEX}")
    lines.append(f"{DISTRIBUTION}[{EXTRAS}]=={release.version}")
    lines.append(f"gradio=={gradio_version()}")
    return "\n".join(lines) + "\n"


def write(folder: Path, release: Release) -> None:
    """Write the Space repository into `folder` (new or empty; a file there is refused), the wheel if given."""
    folder = Path(folder)
    check_wheel(release)  # one of this distribution and release, by its name and its metadata
    wheel = Path(release.wheel) if release.wheel is not None else None
    files = {
        "app.py": APP.encode(),
        "README.md": card_text().encode(),
        "requirements.txt": requirements(release).encode(),
    }
    names = [*files, *([wheel.name] if wheel else [])]
    for name in names:
        if (folder / name).exists() or (folder / name).is_symlink():
            raise SwordsError(f"{folder / name}: already exists; the Space is written into a new or empty folder")
    for name, content in files.items():
        atomic_write(folder / name, content)
    ship_wheel(release, folder)


SPACE_REPO = HubRepo(folder="space", repo_type="space", name="swords-demo", write=write, space_sdk="gradio")
