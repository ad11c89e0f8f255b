"""What the Space's tests share: the repository's paths, the Space imported even before `pip install -e .` maps
it, and the stored predictions they score."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SPACE_DIR = REPO_ROOT / "space"
RESULTS = SPACE_DIR / "results"
COINCO_ORACLE = RESULTS / "coinco-oracle.swords.test.jsonl"


def import_space():
    """swords_space as installed, or (before `pip install -e .` maps it) the space/ folder under that name."""
    if "swords_space" not in sys.modules:
        try:
            importlib.import_module("swords_space")
        except ImportError:
            spec = importlib.util.spec_from_file_location(
                "swords_space", SPACE_DIR / "__init__.py", submodule_search_locations=[str(SPACE_DIR)]
            )
            module = importlib.util.module_from_spec(spec)
            sys.modules["swords_space"] = module
            spec.loader.exec_module(module)
    return sys.modules["swords_space"]


def write(path: Path, content: bytes) -> str:
    path.write_bytes(content)
    return str(path)


LONG_SYSTEM = "longname" * 625  # a system named in 5,000 characters
HOSTILE_NAMES = ("<img src=x onerror=alert(1)>.metrics.json", "**bold** _it_ [a](x).metrics.json")


def hostile_results(folder: Path) -> Path:
    """A results folder a careless or hostile user may give `swords demo --results` (issue 47), on SWORDS test: a
    full run ("mine", lenient F@10 30), a `--limit 5` run whose figure would top the board ("quick", 80), a run whose
    system is named in 5,000 characters, and two files named as Markdown and HTML that are not metrics files."""
    import json

    base = json.loads((RESULTS / "thesaurus-oracle.swords.test.metrics.json").read_text())
    runs = {
        "mine": ({"system": "mine"}, 30.0, 762),
        "quick": ({"system": "quick", "targets": 5, "split_targets": 762, "limit": 5}, 80.0, 5),
        "long": ({"system": LONG_SYSTEM}, 20.0, 762),
    }
    for name, (run, figure, targets) in runs.items():
        metrics = {**base, "lenient_a_f@10": figure, "targets_scored": targets, "run": {**base["run"], **run}}
        (folder / f"{name}.swords.test.metrics.json").write_text(json.dumps(metrics))
    for name in HOSTILE_NAMES:
        (folder / name).write_text("{not json")
    return folder


def importable(name: str) -> bool:
    """Whether a system is registered and its extra's modules import (its tests skip otherwise)."""
    import_space()
    from swords_lexsub.errors import SwordsError
    from swords_space import offered_systems

    try:
        offered_systems.registry().get(name)
        return True
    except (SwordsError, ImportError):
        return False
