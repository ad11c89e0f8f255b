"""What each extra brings (swords_lexsub/extras.py) against what the packages import and what setup.cfg declares
(issue 40): every third-party module a package imports is declared, with a lower bound, by the extra that owns the
package or by install_requires, so a dependency that stops bringing a module along (openai 3 and huggingface_hub 2
stopped bringing httpx) is caught the day it happens; and a missing optional module is named, with its extra.

The environments that hold one extra each, running its feature: tests/release/test_extras_alone.py."""

from __future__ import annotations

import ast
import configparser
import subprocess
import sys
from functools import cache
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from swords_lexsub.extras import CORE, EXTRAS, OWNERS, import_failure, owner

from ..conftest import REPO_ROOT

FOLDERS = {
    "swords_lexsub": "swords_lexsub",
    "swords_dataset": "swords_dataset",
    "swords_metric": "swords_metric",
    "baselines": "swords_baselines",
    "space": "swords_space",
}
# Python files in the packages that are not the packages' own code: the metric's Hub Space app, which runs under the
# Hub's gradio SDK (its requirements.txt: swords_metric/hub_repo.py), and the data folder's build leftovers.
NOT_IMPORTED = ("swords_metric.hub",)


def package_modules() -> dict[str, Path]:
    """Every module of the packages: dotted name -> file."""
    found = {}
    for folder, package in FOLDERS.items():
        for path in sorted((REPO_ROOT / folder).rglob("*.py")):
            parts = [package, *path.relative_to(REPO_ROOT / folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            if not any(name == skip or name.startswith(skip + ".") for skip in NOT_IMPORTED):
                found[name] = path
    return found


def third_party_imports(path: Path) -> list[tuple[str, int]]:
    """(top-level module, line) of every import of a module that is neither the standard library's nor ours, at
    any depth (a function's lazy import counts: it runs when the feature does)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top not in sys.stdlib_module_names and top not in FOLDERS.values():
                found.append((top, node.lineno))
    return found


@cache
def declared() -> dict[str, dict[str, Requirement]]:
    """setup.cfg's requirements: {"install_requires": {dist: req}, extra: {dist: req}, …}, by canonical name."""
    setup = configparser.ConfigParser()
    setup.read(REPO_ROOT / "setup.cfg")

    def parsed(text: str) -> dict[str, Requirement]:
        lines = [line.split("#")[0].strip() for line in text.splitlines()]
        return {canonicalize_name(req.name): req for req in map(Requirement, filter(None, lines))}

    out = {"install_requires": parsed(setup["options"]["install_requires"])}
    out.update({extra: parsed(text) for extra, text in setup["options.extras_require"].items()})
    return out


@cache
def providers() -> dict[str, list[str]]:
    return packages_distributions()  # reads every installed distribution's file list: once


def distributions(module: str) -> set[str]:
    """The installed distributions that provide a top-level module (this environment holds every extra)."""
    return {canonicalize_name(name) for name in providers().get(module, [])}


def test_the_scan_sees_the_imports_it_checks():
    """Not vacuous: it finds the LLM client's httpx, the Space's gradio and the core's pyarrow where they are."""
    modules = package_modules()
    assert {"httpx", "openai"} <= {m for m, _ in third_party_imports(modules["swords_baselines.llm.client"])}
    assert "gradio" in {m for m, _ in third_party_imports(modules["swords_space.app"])}
    assert "pyarrow" in {m for m, _ in third_party_imports(modules["swords_dataset.schema"])}
    assert owner("swords_baselines.llm.client") == "llm" and owner("swords_baselines.llm.engine_host") == "local-llm"
    assert owner("swords_space.tabs.judge") == "space" and owner("swords_metric.scorer") is None


def test_every_third_party_import_is_in_the_table_of_the_extra_that_owns_its_package():
    wrong = []
    for name, path in package_modules().items():
        extra = owner(name)
        allowed = set(CORE) | set(EXTRAS[extra] if extra else ())
        for module, line in third_party_imports(path):
            if module not in allowed:
                where = f"{path.relative_to(REPO_ROOT)}:{line}"
                wrong.append(f"{where} imports {module}, which {extra or 'the core'} does not bring")
    assert not wrong, "\n".join(wrong)


def test_every_module_in_the_table_is_declared_by_its_extra_in_setup_cfg_with_a_lower_bound():
    wrong = []
    for extra, modules in [("install_requires", CORE), *EXTRAS.items()]:
        requirements = declared()["install_requires"] | declared()[extra]
        for module in modules:
            providers = distributions(module)
            assert providers, f"{module} is not installed here (the test extra installs every extra)"
            found = [requirements[dist] for dist in providers if dist in requirements]
            if not found:
                wrong.append(f"[{extra}] brings {module} without declaring it ({' or '.join(sorted(providers))})")
            elif not any(spec.operator in (">=", "==", "~=") for req in found for spec in req.specifier):
                wrong.append(f"[{extra}] declares {found[0]} with no lower bound")
    assert not wrong, "\n".join(wrong)


def test_the_extras_in_the_table_are_setup_cfgs_and_the_test_extra_holds_every_one():
    extras = set(declared()) - {"install_requires", "test"}
    assert extras == set(EXTRAS), (sorted(extras), sorted(EXTRAS))
    assert set(OWNERS.values()) <= set(EXTRAS)
    test = declared()["test"]
    for extra in EXTRAS:
        missing = [str(req) for dist, req in declared()[extra].items() if dist not in test]
        assert not missing, f"the test extra lacks [{extra}]'s {missing}"
    for requirement in declared()["install_requires"].values():
        assert any(spec.operator in (">=", "==") for spec in requirement.specifier), requirement


def blocked_run(*args: str, blocked: str, cwd: Path) -> subprocess.CompletedProcess:
    """`swords ARGS` in a fresh interpreter where `blocked` cannot be imported, as if its extra were not installed."""
    code = (
        f"import sys; sys.modules[{blocked!r}] = None; from swords_lexsub.cli import main; "
        f"sys.exit(main({list(args)!r}))"
    )
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("blocked", ["httpx", "openai"])
def test_judge_llm_without_a_module_of_its_extra_names_that_module_before_any_file(tmp_path, blocked):
    """Before issue 40 `swords judge llm` without httpx said "needs openai" (installed) after its journal said to
    rerun; now one line names the module, and nothing is written."""
    done = blocked_run(
        *("judge", "llm", "--tasks", str(tmp_path / "t.jsonl"), "--base-url", "http://127.0.0.1:9/v1"),
        *("--model", "m", "--output", str(tmp_path / "j.jsonl")),
        blocked=blocked,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"swords: error: judge llm needs {blocked}: pip install 'swords-lexsub[llm]'"
    ]
    assert list(tmp_path.iterdir()) == []


def test_an_installed_module_that_fails_to_import_is_not_called_missing():
    """An ImportError raised inside an installed package (a broken install) names it as installed, with the error."""
    error = ImportError("cannot import name 'AsyncOpenAI' from 'openai'", name="openai")
    line = import_failure("the LLM client", error, "llm").for_cli()
    assert "needs openai" not in line
    assert line.startswith("the LLM client could not import openai, which is installed (cannot import name")
    assert "pip install --force-reinstall 'swords-lexsub[llm]'" in line
    missing = ModuleNotFoundError("No module named 'swords_absent'", name="swords_absent")
    line = import_failure("the LLM client", missing, "llm").for_cli()
    assert line == "the LLM client needs swords_absent: pip install 'swords-lexsub[llm]'"
