"""`swords demo` (and `python space/app.py`) with options that cannot work: a host that does not resolve or is
not this machine's, a taken port, a port out of range, a results folder that is missing or a file. Each is
refused at once, exit code 2, in one line naming the option (the parser's own line for a port
out of range), before the app starts. Run as the user runs them: real processes, real sockets."""

from __future__ import annotations

import ast
import importlib
import os
import socket
import subprocess
import sys
import time

import pytest

from ..space_server import APP, REPO_ROOT, free_port

# Loads the app the way each start does, builds it, and prints every loaded module whose file is app.py.
LOADED_AS = """
import runpy, sys
from pathlib import Path
app = Path(sys.argv[2]).resolve()
if sys.argv[1] == "script":  # python space/app.py
    namespace = runpy.run_path(str(app), run_name="started")
else:  # python -m swords_space.app
    namespace = runpy.run_module("swords_space.app", run_name="started")
namespace["build_demo"]()
print(sorted(name for name, module in list(sys.modules.items())
             if getattr(module, "__file__", None) and Path(module.__file__).resolve() == app))
"""

TIME_LIMIT = 30  # seconds; each is refused in about one (two for app.py, which imports gradio first)


def demo(*options: str, command: tuple[str, ...] = ("-m", "swords_lexsub.cli", "demo")) -> tuple[int, list[str]]:
    """(exit code, stderr lines) of the demo started with these options; it must stop by itself."""
    env = {**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1"}
    env.pop("GRADIO_SERVER_PORT", None)
    env.pop("GRADIO_SERVER_NAME", None)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, *command, *options], capture_output=True, text=True, timeout=TIME_LIMIT, cwd=REPO_ROOT, env=env
    )
    assert time.monotonic() - started < TIME_LIMIT
    return done.returncode, done.stderr.strip().splitlines()


def test_a_host_that_does_not_resolve_is_named_not_taken_for_a_busy_port():
    port = free_port()
    code, lines = demo("--host", "999.1.1.1", "--port", str(port))
    assert code == 2 and len(lines) == 1, lines
    assert "--host 999.1.1.1" in lines[0] and "not an address" in lines[0] and "in use" not in lines[0], lines


def test_an_address_that_is_not_this_machines_is_named():
    code, lines = demo("--host", "192.0.2.1", "--port", str(free_port()))  # TEST-NET-1: nobody's address
    assert code == 2 and len(lines) == 1 and "--host 192.0.2.1: not an address of this machine" in lines[0], lines


def test_an_ipv6_address_is_refused_before_gradio_fails_on_it():
    code, lines = demo("--host", "::1", "--port", str(free_port()))  # Gradio's own URL would be http://::1:PORT/
    assert code == 2 and len(lines) == 1 and lines[0].startswith("swords: error: --host ::1: an IPv6 address"), lines


def test_a_taken_port_is_named():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, lines = demo("--port", str(port))
    assert code == 2 and len(lines) == 1, lines
    assert lines[0] == f"swords: error: port {port} is in use; choose another with --port N", lines


@pytest.mark.parametrize("port", ["70000", "-1", "0", "http"])
def test_a_port_out_of_range_is_refused_by_the_parser(port):
    code, lines = demo("--port", port)
    assert code == 2 and len(lines) == 1 and lines[0].startswith("swords demo: error: argument --port:"), lines
    assert "out of range (1 to 65535)" in lines[0] or "not a port" in lines[0]


def test_a_missing_results_folder_or_a_file_is_refused(tmp_path):
    code, lines = demo("--results", str(tmp_path / "nonexistent"))
    assert code == 2 and lines == [f"swords: error: --results {tmp_path / 'nonexistent'}: no such folder"], lines
    (tmp_path / "file.json").write_text("{}")
    code, lines = demo("--results", str(tmp_path / "file.json"))
    assert code == 2 and lines == [f"swords: error: --results {tmp_path / 'file.json'}: a file, not a folder"], lines


@pytest.mark.slow  # 9 s on two cores
def test_app_py_checks_the_same_options():
    """`python space/app.py`, as a Hugging Face Space starts it, declares and checks the same options."""
    code, lines = demo("--host", "999.1.1.1", command=(str(APP),))
    assert code == 2 and lines == [
        "app.py: error: --host 999.1.1.1: not an address of this machine, nor a name that resolves to one"
    ], lines
    code, lines = demo("--port", "70000", command=(str(APP),))
    assert code == 2 and len(lines) == 2 and "argument --port: 70000 is out of range (1 to 65535)" in lines[1]


def test_swords_demo_is_a_subcommand(monkeypatch, tmp_path):
    pytest.importorskip("gradio")
    from swords_lexsub import cli

    app = importlib.import_module("swords_space.app")
    space_cli = importlib.import_module("swords_space.cli")
    seen = []
    monkeypatch.setattr(app, "serve", lambda args: seen.append(args) or 0)
    with socket.socket() as probe:  # a port that is free now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert cli.main(["demo", "--port", str(port), "--results", str(tmp_path)]) == 0
    assert (seen[0].port, seen[0].host, seen[0].results) == (port, None, str(tmp_path))
    assert cli.parser().parse_args(["demo"]).func is space_cli.run


def test_the_demos_options_are_declared_once():
    """Only options.add_arguments declares options; `swords demo` and app.py both call it."""
    declared = []
    for path in sorted((REPO_ROOT / "space").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add_argument":
                declared += [(path.name, arg.value) for arg in node.args if isinstance(arg, ast.Constant)]
    assert declared == [("options.py", "--port"), ("options.py", "--host"), ("options.py", "--results")]


@pytest.mark.parametrize("start", ["script", "module"])
@pytest.mark.slow  # 10 s on two cores
def test_the_app_is_loaded_under_one_name_only(start):
    """Started as a script (`python space/app.py`) or as a module, app.py runs once: no module of the package
    loads it again under another name."""
    pytest.importorskip("gradio")
    done = subprocess.run(
        [sys.executable, "-c", LOADED_AS, start, str(APP)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO_ROOT,
        env={**os.environ, "GRADIO_ANALYTICS_ENABLED": "False"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "[]", done.stdout
