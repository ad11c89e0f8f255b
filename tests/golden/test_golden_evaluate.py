"""Golden test of `swords evaluate`: every family, config and option combination (cases_evaluate.py), each
command's stdout, stderr, exit status and the files it writes, against its recording in
tests/golden/recorded/evaluate/, byte for byte (a mismatch fails with a unified diff).

The command runs in this process, through the console command's own `main` (the same parser, checks and printing
as the installed command, without a fresh interpreter's 0.2 s a case; argparse's refusals are its SystemExit, and a
library's Python warning, which pytest takes, is not in the recorded stderr). What differs from run to run is
written as a placeholder: the folder of the test-made files `<inputs>` (the cases run in it, and name its files
relative to it), the judgments' `<judged>`, a case's output folder `<out>`, the clone `<repo>`. Every case runs on
one BLAS thread (conftest.py: the bootstrap's intervals are recorded to the bit).

Record again after a change meant to change an output (the recordings of every surface; files of cases no longer in
a table are removed), then review the recordings' diff before committing it:

    SWORDS_GOLDEN_RECORD=1 pytest tests/golden
"""

from __future__ import annotations

import shlex

import pytest

from .cases_evaluate import CASES, SLOW
from .conftest import command_text, placed, swords_in_process
from .recording import check, check_recorded_set, sections, written_files

SURFACE = "evaluate"
PARAMS = [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name for name in CASES]


@pytest.mark.parametrize("case", PARAMS)
def test_evaluate(case, in_inputs, out, volatile, request):
    commands, folders = placed(CASES[case], request)
    normalise = volatile.with_folders({"<out>": out, **folders})
    texts = []
    for command in commands.split(" ;; "):
        ran = swords_in_process(["evaluate", *shlex.split(command.replace("{out}", str(out)))])
        texts.append(normalise(command_text(ran)))
    check(SURFACE, case, "\n".join(texts) + sections(written_files(out, normalise, whole=None)))


def test_every_case_is_recorded():
    check_recorded_set(SURFACE, CASES)
