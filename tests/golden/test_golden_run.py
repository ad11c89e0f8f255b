"""Golden test of `swords run` (cases_run.py): for each case, each command's stdout, stderr and exit status, and
every file the run wrote (predictions, upstream JSON, metrics), against its recording in
tests/golden/recorded/run/, byte for byte. The command runs in this process, through the console command's own
`main`, in a fresh folder of the case's own (`<out>` in what it prints). A run's files hold no time: nothing else
is normalised.

Record again: SWORDS_GOLDEN_RECORD=1 pytest tests/golden (see test_golden_evaluate.py)."""

from __future__ import annotations

import shlex

import pytest

from .cases_run import CASES, SLOW, USER_FILES
from .conftest import command_text, swords_in_process
from .recording import check, check_recorded_set, sections, written_files

SURFACE = "run"


@pytest.mark.parametrize("case", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in CASES])
def test_run(case, out, monkeypatch, volatile):
    monkeypatch.chdir(out)
    monkeypatch.setenv("COLUMNS", "100")
    for name, text in USER_FILES.get(case, {}).items():
        (out / name).write_text(text, encoding="utf-8")
    normalise = volatile.with_folders({"<out>": out})
    texts = []
    for command in CASES[case].split(" ;; "):
        ran = swords_in_process(["run", *shlex.split(command), "--no-progress"])
        texts.append(normalise(command_text(ran)))
    check(SURFACE, case, "\n".join(texts) + sections(written_files(out, normalise)))


def test_every_case_is_recorded():
    check_recorded_set(SURFACE, CASES)
