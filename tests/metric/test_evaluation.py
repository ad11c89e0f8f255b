"""The one evaluation (swords_metric/evaluation.py): every surface renders the same Evaluation, each family's
figures print one way everywhere (TSAR-2022's floored as tsar_eval.py prints them, in a comparison too), every
report and JSON says its unit, and a plain `swords evaluate` loads no judging module nor numpy."""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import swords_dataset
import swords_metric
from swords_metric import evaluate, family_of

from ..conftest import REPO_ROOT

PACKAGES = ("swords_lexsub", "swords_dataset", "swords_metric", "baselines", "space")


def _tsar_files(folder: Path) -> tuple[Path, Path]:
    """Two systems' files on TSAR-2022 English test, made from its gold: each target's substitutes shuffled (seeded),
    a target in seven left out of the first, the second in reverse gold order."""
    rng, rows = random.Random(0), swords_dataset.rows("tsar2022_en", "test")
    a, b = folder / "a.jsonl", folder / "b.jsonl"
    with a.open("w") as file_a, b.open("w") as file_b:
        for number, row in enumerate(rows):
            words = [s["substitute"] for s in row["substitutes"]]
            shuffled = rng.sample(words, len(words))
            if number % 7 != 3:
                file_a.write(json.dumps({"id": row["id"], "substitutes": [*shuffled[:8], "zzz"]}) + "\n")
            file_b.write(json.dumps({"id": row["id"], "substitutes": words[::-1][:5]}) + "\n")
    return a, b


@pytest.fixture(scope="module")
def tsar_files(tmp_path_factory) -> tuple[Path, Path]:
    return _tsar_files(tmp_path_factory.mktemp("tsar"))


def test_a_tsar_figure_prints_as_tsar_eval_py_prints_it_in_a_comparison_too(tsar_files):
    """The issue's case: a figure rounds up at 4 decimals (0.9877) where tsar_eval.py floors it (0.9876): the paired
    test's table shows the floored figure, the one `--predictions` reports as tsar_eval.py's."""
    a, b = map(str, tsar_files)
    single = evaluate(a, dataset="tsar2022_en", split="test", style="cli")
    compared = evaluate(dataset="tsar2022_en", split="test", compare=(a, b), bootstrap=100, style="cli")
    rows = {line.split()[0]: line.split()[1] for line in compared.text().splitlines()[2:] if line.strip()}
    differing = 0
    for key, value in single.result.items():
        if key not in compared.comparison["metrics"]:
            continue
        floored = math.floor(value * 1e4) / 1e4
        differing += f"{value:.4f}" != f"{floored:.4f}"
        assert rows[key] == f"{floored:.4f}", key  # floored, never rounded up
        printed = re.search(
            rf"^  {re.escape(key)} .*\((?:floored: |tsar_eval.py prints .* = )([0-9.]+)\)$", single.text(), re.M
        )
        assert float(printed.group(1)) == float(rows[key]), key  # the figure `--predictions` reports floored
    assert differing >= 1  # the files were made so that rounding and flooring differ for some figure


@pytest.mark.parametrize(
    ("config", "unit", "heading"),
    [
        ("swords", "percent", "figures: percentages, as the SWORDS paper reports them"),
        ("tsar2022_en", "fraction", "figures: fractions floored to 4 decimals, as tsar_eval.py prints them"),
        ("prolex", "fraction", "figures: fractions to 4 decimals"),
    ],
)
def test_every_report_and_json_says_its_unit(config, unit, heading):
    rows = swords_dataset.rows(config, "test")[:40]
    gold = {row["id"]: [s["substitute"] for s in row["substitutes"]][:3] for row in rows}
    evaluation = evaluate(gold, dataset=config, split="test", given_only=True, bootstrap=0)
    assert evaluation.result["unit"] == unit and evaluation.json()["unit"] == unit
    assert heading in evaluation.text()
    assert evaluation.family is family_of(config) and evaluation.unit == evaluation.family.reader.unit
    assert evaluation.limited and evaluation.targets[0] == 40  # 40 of the split's targets: a limited run
    metric = swords_metric.load()
    computed = metric.compute(predictions=[gold[row["id"]] for row in rows], references=rows)
    assert computed["unit"] == unit  # compute() says it too, as --json does


def test_a_plain_evaluate_loads_no_judging_module(tmp_path):
    """`swords evaluate --bootstrap 0` imports only what it runs: no judging module (nor the details writer), and
    not numpy (a fifth of its start): its sums are numpy's, to the bit, in plain Python."""
    predictions = REPO_ROOT / "space" / "results" / "coinco-oracle.swords.test.jsonl"
    code = (
        "import sys\nfrom swords_lexsub.cli import main\n"
        f"main(['evaluate', '--dataset', 'swords', '--split', 'test', '--predictions', {str(predictions)!r}, "
        "'--bootstrap', '0', '--no-analysis'])\n"
        "print(sorted(m for m in sys.modules if m.startswith(('swords_metric.judgments', 'swords_metric.details'))"
        " or m == 'numpy'),"
        " file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "[]", done.stderr


def test_a_family_is_decided_in_one_place():
    """Lines that branch on a family, by the issue's count (48): at most 12 over the five packages."""
    pattern = r"(family|\.family)\s*(==|!=|in|not in)\s|if .*family|FamilyScorer\)|isinstance\([^)]*FamilyScorer"
    done = subprocess.run(
        ["grep", "-rnE", pattern, *PACKAGES, "--include=*.py"], capture_output=True, text=True, cwd=REPO_ROOT
    )
    lines = done.stdout.splitlines()
    assert len(lines) <= 12, "\n".join(lines)
