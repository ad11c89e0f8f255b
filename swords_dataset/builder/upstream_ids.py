"""The upstream SWORDS library's identifiers, so that result files made with it key into our rows.

The upstream library (github.com/p-lambda/swords) names everything by content:

    context id    c:SHA1(json({"context": context}))
    target id     t:SHA1(json({"context_id", "target": target.lower(), "offset", "pos": UD name}))
    substitute id s:SHA1(json({"target_id", "substitute": substitute.lower()}))
    dataset id    d:SHA1 over all of them and every label (its `LexSubDataset.id()`)

(JSON with sorted keys, Python's default separators.) A target id is a fact about the exact context string
upstream built: ours for SWORDS and CoInCo; for SemEval-2007 upstream's own, from its asset (test, pinned) or by its
recipe with nltk 3.5's detokenizer (trial; a later nltk detokenizes quotes differently). `check_dataset_ids`
recomputes the dataset ids upstream pins, which covers every context, target, substitute and label at once.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii as _json_string
from pathlib import Path

from swords_dataset.builder.sources import NLTK35_ENV
from swords_lexsub.errors import SwordsError

# Dataset ids pinned in upstream's swords/datasets.py (DATASETS[...]["id"]), per (config, split) of ours.
# CoInCo's are of upstream's default build, which skips CoInCo's "problematic" targets.
PINNED_DATASET_IDS: dict[tuple[str, str], str] = {
    ("swords", "dev"): "d:651209c901f26925691f9a8ceb2c8da1054cded8",  # swords-v1.1_dev
    ("swords", "test"): "d:76d1aba7700f7d9f9a7ddffe73b8f0e1cb2925fa",  # swords-v1.1_test
    ("swords_test_subset", "test"): "d:4df7c9ce25c4abb0d3d42c0ecc70e6e3a96f3932",  # swords-v1.1_test-subset
    ("swords_reannotated", "test"): "d:acf8b87a1046f6fe7ec7eae30f129ccbd2c1cc1f",  # …_test-subset_reannotated
    ("coinco", "dev"): "d:9e02efb6109b85f2e4e905061a1372d47cfa8076",  # coinco_dev
    ("coinco", "test"): "d:55717224b4846b9e6b1eda575a0e9debce14df26",  # coinco_test
    ("semeval07", "trial"): "d:f1a6ea8db97a827b9c339da41bcbc8ce685457c4",  # semeval07_trial
    ("semeval07", "test"): "d:40909f5bd227b2ea81fe4ba0a089de02465abd98",  # semeval07_test
}


class UpstreamIdError(SwordsError):
    """Upstream's ids cannot be reproduced (a missing tool, or data that disagree with upstream's pins)."""


def checksum(value: object) -> str:
    return hashlib.sha1(json.dumps(value, sort_keys=True).encode("utf-8")).hexdigest()


def context_id(context: str) -> str:
    return "c:" + checksum({"context": context})


def target_id(context: str, target: str, offset: int, pos: str | None) -> str:
    return "t:" + checksum({"context_id": context_id(context), "target": target.lower(), "offset": offset, "pos": pos})


def substitute_id(target_id_: str, substitute: str) -> str:
    # checksum({"target_id": …, "substitute": …}) spelled out: the build computes ~800,000 of these.
    text = f'{{"substitute": {_json_string(substitute.lower())}, "target_id": {_json_string(target_id_)}}}'
    return "s:" + hashlib.sha1(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class UpstreamTarget:
    """A target as upstream's library holds it: what its target id is computed from."""

    context: str
    target: str
    offset: int
    pos: str

    @property
    def id(self) -> str:
        return target_id(self.context, self.target, self.offset, self.pos)


def substitute_labels(row: dict) -> dict[str, list[str]]:
    """Substitute (lower case) -> upstream's labels for one of our rows: SWORDS's raw labels; for CoInCo and SemEval
    a TRUE_IMPLICIT per annotator giving it, FALSE_IMPLICIT for a pool candidate nobody gave (targets with gold)."""
    labels: dict[str, list[str]] = {}
    for substitute in row["substitutes"]:
        given = substitute["labels"] or ["TRUE_IMPLICIT"] * substitute["votes_positive"]
        labels.setdefault(substitute["substitute"].lower(), []).extend(given)
    if any(not substitute["labels"] for substitute in row["substitutes"]):
        for candidate in row["candidates"]:
            labels.setdefault(candidate.lower(), ["FALSE_IMPLICIT"])
    return labels


def dataset_id(rows: Sequence[dict], targets: Sequence[UpstreamTarget], counted: Sequence[bool]) -> str:
    """Upstream's `LexSubDataset.id()` of a split given as our rows, their upstream targets, and which rows it keeps
    as targets (every row's context counts: upstream adds it before skipping its targets)."""
    contexts, target_ids, labels = set(), set(), {}
    for row, target, keep in zip(rows, targets, counted, strict=True):
        contexts.add(context_id(target.context))
        if not keep:
            continue
        tid = target.id
        target_ids.add(tid)
        for substitute, substitute_labels_ in substitute_labels(row).items():
            labels[substitute_id(tid, substitute)] = substitute_labels_
    generation = "gt:" + checksum({"contexts": sorted(contexts), "targets": sorted(target_ids)})
    ranking = "rt:" + checksum(
        {"generation_task_id": generation, "substitutes": sorted(labels), "substitutes_lemmatized": True}
    )
    return "d:" + checksum({"ranking_task_id": ranking, "substitute_labels": sorted(labels.items())})


def check_dataset_ids(config: str, split: str, rows: Sequence[dict], targets: Sequence[UpstreamTarget]) -> None:
    """Raise UpstreamIdError unless the split reproduces upstream's pinned dataset id."""
    counted = [not row["provenance"]["coinco_problematic"] for row in rows]
    expected = PINNED_DATASET_IDS[(config, split)]
    actual = dataset_id(rows, targets, counted)
    if actual != expected:
        raise UpstreamIdError(
            f"{config} {split}: the rows and upstream ids give dataset id {actual}, but upstream pins {expected}; "
            "the upstream ids would not match upstream's result files"
        )


# --- SemEval-2007: upstream's context strings ---------------------------------------------------------

# Upstream's "good faith" repairs of its copy of the XML, in its order, before dropping non-ASCII.
_SEMEVAL_REPAIRS = (
    ("Â\x92", "'"),
    ("’", "'"),
    ("‘", "'"),
    ("Â\x94", '"'),
    ("“", '"'),
    ("”", '"'),
    ("–", "-"),
)
_HEAD = re.compile(r"<head>(.*?)</head>")


def _token_offsets(text: str, tokens: Sequence[str]) -> list[int]:
    """Each token's offset, found left to right (as upstream's tokens_offsets)."""
    offsets, cursor = [], 0
    for token in tokens:
        found = text.index(token, cursor)
        offsets.append(found)
        cursor = found + len(token)
    return offsets


# Where upstream put a SemEval-2007 target: (its context string, the head word, the head's offset).
Placement = tuple[str, str, int]


def semeval_placements_by_recipe(
    instances: dict[int, str], detokenize: Callable[[list[list[str]]], list[str]]
) -> dict[int, Placement]:
    """instance id -> upstream's placement of the target, from the raw tokenized instance text (with
    <head>), by upstream's recipe (swords/datasets.py, semeval07()). `detokenize` must be nltk 3.5's."""
    prepared = {}
    for instance_id, raw in instances.items():
        text = html.unescape(raw.strip())
        for broken, fixed in _SEMEVAL_REPAIRS:
            text = text.replace(broken, fixed)
        prepared[instance_id] = (text.encode("utf-8").decode("ascii", "ignore").split(), raw)
    sentences = detokenize([tokens for tokens, _ in prepared.values()])
    placements = {}
    for (instance_id, (_, raw)), sentence in zip(prepared.items(), sentences, strict=True):
        heads = _HEAD.findall(raw)
        tokens = " ".join(sentence.split()).split()
        sentence = " ".join(tokens)
        marked = [i for i, token in enumerate(tokens) if "<head>" in token and "</head>" in token]
        if len(heads) != 1 or not marked:
            raise UpstreamIdError(f"SemEval-2007 instance {instance_id}: no single <head> to locate the target")
        index = marked[0]
        offset = _token_offsets(sentence, tokens)[index] + tokens[index].index("<head>")
        context = sentence.replace("<head>", "").replace("</head>", "")
        if context[offset : offset + len(heads[0])] != heads[0]:
            raise UpstreamIdError(f"SemEval-2007 instance {instance_id}: head not at its offset in upstream's context")
        placements[instance_id] = (context, heads[0], offset)
    return placements


def semeval_placements_from_asset(path: Path) -> dict[int, Placement]:
    """instance id -> upstream's placement of the target, from upstream's own SemEval-2007 test asset (its
    older format: per sentence `id` and context `s`, per target `w` and `off`)."""
    import gzip

    with gzip.open(path, "rt", encoding="utf-8") as f:
        asset = json.load(f)
    return {
        int(sentence["id"]): (sentence["s"], word["w"], int(word["off"]))
        for sentence in asset["ss"]
        for word in sentence["ws"]
    }


_DETOKENIZE_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
import nltk
if nltk.__version__ != "3.5":
    sys.exit(f"{sys.argv[1]} holds nltk {nltk.__version__}, not 3.5")
from nltk.tokenize.treebank import TreebankWordDetokenizer
detokenizer = TreebankWordDetokenizer()
json.dump([detokenizer.detokenize(tokens) for tokens in json.load(sys.stdin)], sys.stdout)
"""


def nltk35_detokenizer(path: str | os.PathLike | None) -> Callable[[list[list[str]]], list[str]]:
    """nltk 3.5's TreebankWordDetokenizer, run from `path` (`pip install --no-deps --target DIR nltk==3.5`) in a
    separate interpreter, never mixing with the installed nltk."""
    install = "pip install --no-deps --target DIR nltk==3.5"
    if not path:
        raise UpstreamIdError(
            "upstream's SemEval-2007 trial ids need nltk 3.5's detokenizer (upstream built its contexts with it): "
            f"{install}, then pass --nltk35 DIR or set {NLTK35_ENV}=DIR"
        )
    if not (Path(path) / "nltk" / "__init__.py").is_file():
        raise UpstreamIdError(f"no nltk in {path} ({NLTK35_ENV} / --nltk35): {install}")
    # nltk's own record of its version (nltk/__init__.py reads __version__ from it): checked now, before the
    # build's work, not when the detokenizer first runs.
    try:
        version = (Path(path) / "nltk" / "VERSION").read_text(encoding="utf-8", errors="replace")[:40].strip()
    except OSError:
        version = "an unknown version"
    if version != "3.5":
        raise UpstreamIdError(f"{path} holds nltk {version}, not 3.5 ({NLTK35_ENV} / --nltk35): {install}")

    def detokenize(batch: list[list[str]]) -> list[str]:
        try:
            done = subprocess.run(
                [sys.executable, "-I", "-c", _DETOKENIZE_SCRIPT, str(path)],
                input=json.dumps(batch),
                capture_output=True,
                text=True,
                timeout=300,
            )
        except subprocess.TimeoutExpired:
            raise UpstreamIdError(f"nltk 3.5 from {path} did not finish detokenizing within 300 s") from None
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise UpstreamIdError(f"nltk 3.5 from {path} failed: {last}")
        return json.loads(done.stdout)

    return detokenize


def upstream_targets(rows: Iterable[dict]) -> list[UpstreamTarget]:
    """Upstream targets of rows whose context is upstream's (SWORDS, CoInCo)."""
    return [UpstreamTarget(row["context"], row["target"], row["offset"], row["pos"]) for row in rows]
