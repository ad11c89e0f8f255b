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
