"""The manual's commands that serve the embedded engine (`swords run --system llm --local`, `swords judge llm --local`),
run as written in a sandbox of their own, after the page's commands whose files they read. They run here, in the
engine's worker group (tests/conftest.py), rather than with the other snippets: two engines at once on two cores made
each request several times slower, and a judge's 60 s request timeout then only asked again (a docs command that
never finished in 900 s in CI). The sandbox's own cache means every answer comes from the engine."""

from __future__ import annotations

import pytest

from ..doc_commands import ENGINE, NOT_RUN, make_sandbox, not_run_reason, run_with_needs, shell_commands

# Those the docs snippets leave to this file (the manual's first local run is test_llm_local_runs.py's).
COMMANDS = [param for param in shell_commands() if not_run_reason(param.values[1]) == NOT_RUN[ENGINE]]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    return make_sandbox(tmp_path_factory.mktemp("engine-docs-sandbox"))


def test_the_manual_shows_engine_commands():
    assert len(COMMANDS) >= 2, [param.values[1] for param in COMMANDS]


@pytest.mark.slow  # the engine: 20-60 s a command on two cores
@pytest.mark.engine
@pytest.mark.parametrize(("where", "command", "needs"), COMMANDS)
def test_engine_command_runs(where, command, needs, sandbox):
    run_with_needs(where, command, needs, sandbox)
