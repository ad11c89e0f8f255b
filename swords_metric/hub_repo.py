"""The metric's Hub repository, a Gradio Space (`swords_metric`): the module file `evaluate.load("ORG/swords_metric")`
fetches (thin, over this package of the pinned release), its card, a widget `app.py` and `requirements.txt` pinning
the release. The files are in `hub/`."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from swords_lexsub.hub.repos import HubRepo, Release
from swords_lexsub.hub.wheel import ship_wheel

HUB_FILES = Path(__file__).resolve().parent / "hub"
CARD = Path(__file__).resolve().parent / "README.md"
GRADIO_SDK_VERSION = "6.31.0"  # the Space's gradio: the version the widget is tested with (space/requirements.txt)
_VERSION_LINE = re.compile(r'^SWORDS_LEXSUB_VERSION = "0\.0\.0"', re.MULTILINE)


def module_text(version: str) -> str:
    """The module file, pinned to `version` (the one place it is written)."""
    template = (HUB_FILES / "swords_metric.py").read_text(encoding="utf-8")
    text, count = _VERSION_LINE.subn(f'SWORDS_LEXSUB_VERSION = "{version}"', template)
    if count != 1:
        raise RuntimeError(f"{HUB_FILES / 'swords_metric.py'} lost its version line")
    return text


def card_text(version: str) -> str:
    """The package's card with the Space's gradio version in its YAML header, and the release it pins."""
    card = CARD.read_text(encoding="utf-8")
    card, count = re.subn(
        r"^sdk: gradio$", f"sdk: gradio\nsdk_version: {GRADIO_SDK_VERSION}", card, count=1, flags=re.MULTILINE
    )
    if count != 1:
        raise RuntimeError(f"{CARD} lost its `sdk: gradio` line")
    note = (
        f"\nThis repository is swords-lexsub {version}'s metric: its module file imports the metric from the "
        f"`swords-lexsub=={version}` package (`pip install swords-lexsub=={version}`), and the numbers are that "
        "release's.\n"
    )
    header_end = card.index("\n---\n", 4) + len("\n---\n")
    return card[:header_end] + note + card[header_end:]


def write(folder: Path, release: Release) -> None:
    ship_wheel(release, folder)  # first: checked, as its name goes into requirements.txt
    (folder / "swords_metric.py").write_text(module_text(release.version), encoding="utf-8")
    (folder / "README.md").write_text(card_text(release.version), encoding="utf-8")
    shutil.copyfile(HUB_FILES / "app.py", folder / "app.py")
    wheel = [f"./{release.wheel.name}"] if release.wheel is not None else []  # beside it until PyPI has the release
    (folder / "requirements.txt").write_text("\n".join([f"swords-lexsub=={release.version}", *wheel]) + "\n", "utf-8")


METRIC_REPO = HubRepo(folder="metric", repo_type="space", name="swords_metric", write=write, space_sdk="gradio")
