"""Tasks in SWORDS's form (Appendix B): a target's candidates, shuffled and split into tasks of at most MAX_CANDIDATES
(sizes as numpy.array_split makes them), each with the two controls of B.3 (the target word itself; a random
single-word WordNet lemma under the target's POS, none of the target's, gold or candidate lemmas) shuffled in.

Every random choice is seeded per target, so a target's tasks do not depend on which others were sampled. A task's id
is "<target id>#<n>@<tasks_id>": `tasks_id` fingerprints the tasks and the settings, so two runs' tasks never share
an id.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import swords_dataset
from swords_dataset.judgements import NOT_IN_BENCHMARK
from swords_metric.details.explain import judge_target, substitute_records
from swords_metric.errors import MetricInputError, shown
from swords_metric.judgments.judged import JudgedSplit, check_judged, judged_split
from swords_metric.judgments.protocol import INSTRUCTIONS_VERSION, MAX_CANDIDATES, RANDOM_CONTROL, TARGET_CONTROL
from swords_metric.predictions.files import PredictionFile
from swords_metric.predictions.prepared import prepare_given, prepare_keyed
from swords_metric.references.split import ScoredTargets
from swords_metric.wordnet.graph import load_wordnet_graph
from swords_metric.wordnet.lemmatizer import wordnet_pos

TASKS_FORMAT, TASKS_VERSION = "swords-judge-tasks", 2
READ_VERSIONS = (1, 2)  # version 1: made before task ids carried the tasks' fingerprint


@dataclass(frozen=True)
class Candidate:
    """A substitute shown in a task: `control` None for a candidate, "target" or "random" for a control."""

    substitute: str
    control: str | None = None


@dataclass
class Task:
    """One task (a HIT): a target in its context (`offset`: where `target` starts in `context`) and its
    candidates with the two controls among them, in the order shown. `task`: "<target id>#<n>@<tasks_id>"."""

    task: str
    id: str
    context: str
    target: str
    offset: int
    candidates: list[Candidate]


@dataclass
class TaskSet:
    """The tasks of a run (or of given candidates) and the tasks file's header (its settings and counts)."""

    header: dict
    tasks: list[Task] = field(default_factory=list)


@functools.cache
def _dictionary(pos: str) -> tuple[str, ...]:
    """The random control's pool: WordNet's single-word, lower-case, ASCII lemmas under a POS letter."""
    return tuple(w for w in load_wordnet_graph().lemmas(pos) if w.isascii() and w.isalpha() and w.islower())


def _random_word(targets: ScoredTargets, position: int, taken: set[str], rng: random.Random) -> str:
    """A dictionary word whose lemma (as the metric lemmatizes it) is not in `taken`."""
    row = targets.rows[position]
    pool = _dictionary(wordnet_pos(row.get("pos") or ""))
    while True:
        word = rng.choice(pool)
        if judge_target(targets, row["id"], [word])[0].lemma not in taken:
            return word


def _split(items: list[str], size: int) -> list[list[str]]:
    """numpy.array_split's partition into the fewest parts of at most `size` (lengths differ by at most one)."""
    parts = -(-len(items) // size)
    return [[items[i] for i in chunk] for chunk in np.array_split(np.arange(len(items)), parts)] if parts else []


def _contexts(judged: JudgedSplit, positions: Iterable[int]) -> dict[str, tuple[str, int]]:
    """Target id -> (context, offset) of the targets at `positions`: from the Scorer's rows, else the split's."""
    rows = [judged.targets.rows[p] for p in positions]
    if all("context" in row for row in rows):
        return {row["id"]: (row["context"], int(row["offset"])) for row in rows}
    if not judged.config or not judged.split:
        raise MetricInputError("judgments: the Scorer's rows hold no contexts; make it from rows that have them")
    wanted = {row["id"] for row in rows}
    contexts = {}
    for part in swords_dataset.split_parts(judged.config, judged.split):
        for row in swords_dataset.rows(judged.config, part, columns=["id", "context", "offset"]):
            if row["id"] in wanted:
                contexts[row["id"]] = (row["context"], int(row["offset"]))
    return contexts


def _target_tasks(
    targets: ScoredTargets, position: int, candidates: list[str], seed: int, contexts: dict
) -> list[Task]:
    if not candidates:
        return []
    row = targets.rows[position]
    context, offset = contexts[row["id"]]
    rng = random.Random(f"{seed}:{row['id']}")
    reference = targets.split.references[position]
    taken = {judged.lemma for judged in judge_target(targets, row["id"], [row["target"], *candidates])}
    if reference is not None:
        taken |= {reference.target_lemma, *reference.lemmas}
    shuffled = list(dict.fromkeys(candidates))
    rng.shuffle(shuffled)
    tasks = []
    for n, chunk in enumerate(_split(shuffled, MAX_CANDIDATES), 1):
        shown_ = [Candidate(substitute) for substitute in chunk]
        for control in (
            Candidate(row["target"], TARGET_CONTROL),
            Candidate(_random_word(targets, position, taken, rng), RANDOM_CONTROL),
        ):
            shown_.insert(rng.randint(0, len(shown_)), control)
        tasks.append(Task(f"{row['id']}#{n}", row["id"], context, row["target"], offset, shown_))
    return tasks


def tasks_for(scorer, candidates: Mapping[str, Iterable[str]], *, seed: int = 0) -> list[Task]:
    """Tasks for the given candidates of each target (by either id), in the split's order (what `swords judge
    validate` uses). No candidates: no task; the target word is shown once, as its control."""
    check_judged(scorer)
    judged = judged_split(scorer)
    if not isinstance(candidates, Mapping):
        raise MetricInputError(f"candidates must map target ids to words, got {shown(candidates)}")
    positions = {}
    for target_id, items in candidates.items():
        position = judged.targets.find(str(target_id))
        if isinstance(items, str) or not isinstance(items, Iterable):
            raise MetricInputError(f"candidates of {shown(target_id)} must be a list of words, got {shown(items)}")
        items = list(items)
        for item in items:
            if not isinstance(item, str):
                raise MetricInputError(f"candidates of {shown(target_id)}: {shown(item)} is not a word (a string)")
        target = judged.targets.rows[position]["target"]
        positions[position] = [c for c in items if c.strip() and c != target]
    tasks, contexts = [], _contexts(judged, positions)
    for position in sorted(positions):
        tasks += _target_tasks(judged.targets, position, positions[position], seed, contexts)
    return _identified(tasks, {"seed": seed})


def tasks_id(tasks: list[Task], settings: Mapping) -> str:
    """The fingerprint of tasks (in order) and their settings: 12 hex digits of a sha256."""
    digest = hashlib.sha256(json.dumps(dict(settings), sort_keys=True, default=str).encode("utf-8"))
    for task in tasks:
        digest.update(b"\n" + task_json(task).encode("ascii"))
    return digest.hexdigest()[:12]


def task_json(task: Task) -> str:
    """A task as one line of ASCII JSON, as its digests read it."""
    shown_ = [[c.substitute, c.control] for c in task.candidates]
    return json.dumps([task.task, task.id, task.context, task.target, task.offset, shown_], ensure_ascii=True)


def _identified(tasks: list[Task], settings: Mapping) -> list[Task]:
    """The tasks with "@<tasks_id>" after each id: unique to these tasks."""
    fingerprint = tasks_id(tasks, settings)
    for task in tasks:
        task.task = f"{task.task}@{fingerprint}"
    return tasks


def _new_candidates(targets: ScoredTargets, k: int, found: dict[int, list[str]]):
    """An observer of the metric's preparation: per target, its strict top-k substitutes the reference lacks."""

    def observe(position: int, pairs: list, ranked) -> None:
        records = substitute_records(targets.rows[position], targets.references[position], pairs, k, None)
        found[position] = [
            r["substitute"]
            for r in records
            if r["in_strict_top_k"] and r["class"] == NOT_IN_BENCHMARK and not r["empty"]
        ]

    return observe


def _fingerprint(predictions) -> str:
    if isinstance(predictions, str | Path):
        from swords_lexsub.files import sha256_of

        return sha256_of(Path(predictions), "predictions file")
    text = json.dumps(predictions, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def make_tasks(scorer, predictions, *, k: int = 10, targets: int | None = None, seed: int = 0) -> TaskSet:
    """The tasks for a run's unjudged substitutes (`predictions`: a file or what Scorer.prepare takes): each scored
    target's strict top-k whose lemma the benchmark has no judgement for; `targets=N` samples N targets (seeded)."""
    check_judged(scorer)
    for name, value in (("k", k), ("targets", 1 if targets is None else targets)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise MetricInputError(f"{name} must be a positive whole number, got {shown(value)}")
    judged = judged_split(scorer)
    found: dict[int, list[str]] = {}
    observe = _new_candidates(judged.targets, k, found)
    references, index = judged.targets.references, judged.targets.index
    if isinstance(predictions, str | Path):
        file = PredictionFile(predictions)
        prepare_keyed(file, references, index, judged.depth, str(predictions), scorer, file.duplicate, observe)
    else:
        rows = judged.targets.rows
        prepare_given(predictions, rows, references, index, judged.depth, "predictions", scorer, observe)
    chosen = sorted(found)
    if targets is not None and targets < len(chosen):
        chosen = sorted(random.Random(seed).sample(chosen, targets))
    tasks, contexts = [], _contexts(judged, [p for p in chosen if found[p]])
    for position in chosen:
        tasks += _target_tasks(judged.targets, position, found[position], seed, contexts)
    with_tasks = len({task.id for task in tasks})
    settings = {
        "dataset": judged.dataset,
        "split": judged.split,
        "predictions_sha256": _fingerprint(predictions),
        "k": k,
        "seed": seed,
        "instructions_version": INSTRUCTIONS_VERSION,
    }
    tasks = _identified(tasks, settings)
    header = {
        "format": TASKS_FORMAT,
        "version": TASKS_VERSION,
        **settings,
        "tasks_id": tasks[0].task.rsplit("@", 1)[1] if tasks else tasks_id(tasks, settings),
        "targets": len(chosen),
        "targets_with_tasks": with_tasks,
        "targets_without_new": len(chosen) - with_tasks,
        "candidates": sum(len(found[p]) for p in chosen),
        "tasks": len(tasks),
    }
    return TaskSet(header, tasks)
