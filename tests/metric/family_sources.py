"""TSAR-2022 and ProLex for the parity tests: benchmark rows built from the raw files in the shared data folder
(in the shared schema, as the dataset configs give them, so that the scorers' row adapters are exercised without
the configs), and the official scorers run beside ours as subprocesses, from the shared data folder.

- tsar_eval.py is run twice: as the command the shared task published (its printed, floored figures), and its
  evaluator class imported from the shared folder (its unfloored figures, as JSON: every float to the bit).
- ProLex's evaluate.py needs torch, transformers and spaCy's en_core_web_sm at import (the last cannot be
  installed here), so its `Evaluator` class is taken from the file as it is (ast) and run on its own: its
  hard metrics, with its own reading of the gold CSV and of the predictions CSV. Its soft metrics need the spaCy
  model and are not run.
"""

from __future__ import annotations

import ast
import csv
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from swords_dataset.builder.sources import default_sources_dir

SHARED = default_sources_dir()
TSAR_DATA = SHARED / "tsar2022"
TSAR_SCORER = SHARED / "reference-scorers" / "tsar2022" / "tsar_eval.py"
PROLEX_DATA = SHARED / "prolex"
PROLEX_SCORER = SHARED / "reference-scorers" / "prolex" / "evaluate.py"
TIMEOUT = 120
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8", "PYTHONHASHSEED": "0"}


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path.name} not found at {path.parent} (the shared data folder; see the manual, Development)")
    return path


# --- TSAR-2022 ------------------------------------------------------------------------------------------------


def tsar_gold_file(language: str, split: str) -> Path:
    return need(TSAR_DATA / split / f"tsar2022_{language}_{split}_gold.tsv")


def tsar_gold_lines(language: str, split: str) -> list[tuple[str, str, list[str]]]:
    """(sentence, complex word, annotations) per gold line, as the file gives them."""
    lines = tsar_gold_file(language, split).read_text(encoding="utf-8").splitlines()
    return [(fields[0], fields[1], fields[2:]) for fields in (line.split("\t") for line in lines)]


def tsar_rows(language: str, split: str) -> list[dict]:
    """The shared schema's TSAR rows: each distinct annotation as given (the complex word too, when annotators
    gave it), by count then first appearance; score = votes_positive = its count, votes_total = annotations."""
    config = f"tsar2022_{language}"
    rows = []
    for number, (sentence, target, given) in enumerate(tsar_gold_lines(language, split)):
        counts = Counter(given)
        order = sorted(counts, key=lambda word: (-counts[word], given.index(word)))
        rows.append(
            {
                "id": f"{config}:{split}:{number:04d}",
                "upstream_id": None,
                "benchmark": config,
                "context_id": None,
                "context": sentence,
                "target": target,
                "offset": sentence.find(target),
                "pos": None,
                "target_lemma": None,
                "substitutes": [
                    {
                        "substitute": word,
                        "score": float(counts[word]),
                        "votes_positive": counts[word],
                        "votes_total": len(given),
                        "labels": [],
                        "sources": [],
                    }
                    for word in order
                ],
                "candidates": [],
                "provenance": {},
            }
        )
    return rows


def write_tsar_predictions(path: Path, lines: list[tuple[str, str, list[str]]]) -> Path:
    path.write_text(
        "".join("\t".join([sentence, target, *answers]) + "\n" for sentence, target, answers in lines), encoding="utf-8"
    )
    return path


def tsar_official_printed(gold: Path, predictions: Path, tmp_path: Path) -> dict[str, float]:
    """What tsar_eval.py prints: {its metric name: figure}."""
    need(TSAR_SCORER)
    done = subprocess.run(
        [
            sys.executable,
            str(TSAR_SCORER),
            "--gold_file",
            str(gold),
            "--predictions_file",
            str(predictions),
            "--output_file",
            str(tmp_path / "tsar-official.txt"),
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=ENV,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    printed = {}
    for line in done.stdout.splitlines():
        if " = " in line and not line.startswith(("GOLD", "PREDICTION", "OUTPUT")):
            name, value = line.split(" = ")
            printed[name] = float(value)
    assert len(printed) == 10, done.stdout
    return printed


_TSAR_CLASS = """
import json, sys
sys.path.insert(0, sys.argv[1])
from tsar_eval import TSAR2022_SharedTask_Evaluator
evaluator = TSAR2022_SharedTask_Evaluator("unused", False)
evaluator.read_files(sys.argv[2], sys.argv[3])
out = {"acc@1": evaluator.computePrecisionMetrics_at_K(1)[6]}
for k in (3, 5, 10):
    out[f"map@{k}"] = evaluator.computeMAP_at_K(k)
    out[f"potential@{k}"] = evaluator.computePrecisionMetrics_at_K(k)[6]
for n in (1, 2, 3):
    out[f"acc@{n}@top1"] = evaluator.computeAccuracy_at_N_at_top_gold_1(n)
print(json.dumps({key: float(value) for key, value in out.items()}))
"""


def tsar_official_unfloored(gold: Path, predictions: Path) -> dict[str, float]:
    """The official evaluator's figures before flooring, by our metric keys (JSON floats round-trip exactly)."""
    need(TSAR_SCORER)
    done = subprocess.run(
        [sys.executable, "-c", _TSAR_CLASS, str(TSAR_SCORER.parent), str(gold), str(predictions)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=ENV,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# --- ProLex ---------------------------------------------------------------------------------------------------


def prolex_gold_file(split: str) -> Path:
    return need(PROLEX_DATA / f"ProLex_v1.0_{split}.csv")


def prolex_rows(split: str) -> list[dict]:
    """The shared schema's ProLex rows: acc_subs then unacc_subs, labelled acceptable / unacceptable, plus
    proficiency_acceptable / proficiency_unacceptable where prof_acc_subs / prof_unacc_subs list them; a
    proficiency-oriented substitute that acc_subs does not list (4 test rows: '"peoples"', …) is kept with its
    proficiency label alone, so that the gold lists are evaluate.py's."""
    rows = []
    with open(prolex_gold_file(split), encoding="utf-8", newline="") as f:
        for number, record in enumerate(csv.DictReader(f)):
            lists = {
                name: ast.literal_eval(record[name])
                for name in ("acc_subs", "unacc_subs", "prof_acc_subs", "prof_unacc_subs")
            }
            substitutes = []
            for word in lists["acc_subs"] + lists["unacc_subs"]:
                labels = ["acceptable" if word in lists["acc_subs"] else "unacceptable"]
                labels += [
                    label
                    for name, label in (
                        ("prof_acc_subs", "proficiency_acceptable"),
                        ("prof_unacc_subs", "proficiency_unacceptable"),
                    )
                    if word in lists[name]
                ]
                substitutes.append(
                    {"substitute": word, "score": 1.0 if labels[0] == "acceptable" else 0.0, "labels": labels}
                )
            for word in lists["prof_acc_subs"]:
                if word not in lists["acc_subs"] + lists["unacc_subs"]:
                    substitutes.append({"substitute": word, "score": 1.0, "labels": ["proficiency_acceptable"]})
            sentence = record["Sentence"]
            rows.append(
                {
                    "id": f"prolex:{split}:{number:04d}",
                    "upstream_id": None,
                    "benchmark": "prolex",
                    "context": sentence.replace("**", ""),
                    "target": record["target word"],
                    "pos": None,
                    "target_lemma": None,
                    "candidates": [],
                    "provenance": {},
                    "substitutes": [
                        {**s, "votes_positive": None, "votes_total": None, "sources": []} for s in substitutes
                    ],
                }
            )
    return rows


def write_prolex_predictions(path: Path, split: str, answers: list[list[str]]) -> Path:
    """ProLex's predictions CSV (target word, Sentence, Substitutes joined by ', '), rows in the gold's order."""
    with open(prolex_gold_file(split), encoding="utf-8", newline="") as f:
        gold = list(csv.DictReader(f))
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["target word", "Sentence", "Substitutes"])
        for record, given in zip(gold, answers, strict=True):
            writer.writerow([record["target word"], record["Sentence"], ", ".join(given)])
    return path


_PROLEX_CLASS = """
import ast, json, sys
import pandas as pd
from typing import Tuple
from tqdm import tqdm
source = open(sys.argv[1], encoding="utf-8").read()
tree = ast.parse(source)
evaluator = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Evaluator")
namespace = {"pd": pd, "ast": ast, "tqdm": lambda iterable, **kwargs: iterable, "Tuple": Tuple}
exec(compile(ast.Module(body=[evaluator], type_ignores=[]), sys.argv[1], "exec"), namespace)
Evaluator = namespace["Evaluator"]

def run(request):
    out = {}
    for aspect in ("acc", "prof"):
        for k in request["ks"]:
            e = Evaluator(None, request.get("predictions", "unused.csv"), request.get("gold"), metrics="hard",
                          aspect=aspect, topk=k)
            try:
                if "lists" in request:
                    result = e.calculate_metrics(request["lists"][aspect], request["lists"]["predictions"])
                else:
                    result = e.evaluate()
            except ZeroDivisionError:
                result = "ZeroDivisionError"
            out[f"{aspect}@{k}"] = result
    return out
print(json.dumps([run(request) for request in json.load(open(sys.argv[2], encoding="utf-8"))]))
"""


def prolex_official(requests: list[dict], folder: Path) -> list[dict]:
    """evaluate.py's Evaluator, run on its own, once for all `requests` (pandas is imported once): per request,
    {"acc@K" / "prof@K": [precision, recall, f1] or "ZeroDivisionError"}. A request gives `gold` and `predictions`
    CSV paths (its whole hard evaluation: reading both files, then calculate_metrics), or `lists` ({"acc", "prof",
    "predictions"}: calculate_metrics alone), and `ks`."""
    need(PROLEX_SCORER)
    asked = folder / "prolex-requests.json"
    asked.write_text(json.dumps(requests), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", _PROLEX_CLASS, str(PROLEX_SCORER), str(asked)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=ENV,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def parals_answers(split: str, kind: str) -> list[list[str]]:
    """ParaLS's answers on ProLex, as its authors shipped them (SemEval-style `.best`/`.oot`: `target.P N ::: a;b`),
    as lists in the order given, per row in the gold's order: N is the row (the test files list rows out of order)."""
    path = need(PROLEX_DATA / "parals-outputs" / f"{split}_lspro.out.embed.0.02.{kind}")
    with open(prolex_gold_file(split), encoding="utf-8", newline="") as f:
        targets = [record["target word"] for record in csv.DictReader(f)]
    answers: list[list[str] | None] = [None] * len(targets)
    for line in path.read_text(encoding="utf-8").splitlines():
        head, _, rest = line.partition(" ::: " if kind == "oot" else " :: ")
        word, number = head.rsplit(" ", 1)
        assert word.rsplit(".", 1)[0] == targets[int(number)] and answers[int(number)] is None, line
        answers[int(number)] = [item for item in rest.split(";") if item]
    assert None not in answers
    return answers
