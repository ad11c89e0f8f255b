"""The metric's WordNet 3.0 graph (swords_metric/wordnet/wordnet-3.0-graph.zip, read by the details' relations and
by the `wordnet` baseline): regenerated identically from Debian's database, WordNet 3.0's published sizes, and equal to
nltk's WordNet API on the same database for thousands of synsets and lemmas (seeded samples)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from swords_dataset.builder import wordnet_graph
from swords_metric import WordNetGraph, load_wordnet_graph

from ..conftest import REPO_ROOT
from .nltk_wordnet import run_nltk, wordnet_root

SHIPPED = REPO_ROOT / "swords_metric" / "wordnet" / wordnet_graph.DATA_FILE


@pytest.mark.slow  # 12 s on two cores
def test_graph_regenerates_identically(debian_wordnet: Path, tmp_path: Path):
    output = tmp_path / wordnet_graph.DATA_FILE
    assert wordnet_graph.main(["--wordnet-dir", str(debian_wordnet), "--output", str(output)]) == 0
    assert output.read_bytes() == SHIPPED.read_bytes()


def test_graph_has_wordnet_30s_sizes():
    graph = load_wordnet_graph()
    assert graph.size == 117659  # WordNet 3.0's synsets
    # WordNet 3.0's 206,941 word-sense pairs count a word once per synset whatever its case; the data files
    # spell 37 of them twice ("ddC" and "DDC", "A" and "a"), and the graph keeps their words as spelled.
    assert sum(len(graph.senses(s)) for s in range(graph.size)) == 206978
    assert sum(len({w.lower() for w in graph.words(s)}) for s in range(graph.size)) == 206941
    assert {pos: sum(graph.pos(s) == pos for s in range(graph.size)) for pos in "nvar"} == {
        "n": 82115, "v": 13767, "a": 18156, "r": 3621}  # fmt: skip
    # bank's second sense (depository financial institution): "bank" tagged 20 times, its synonyms never.
    second = graph.synsets("bank", "n")[1]
    assert graph.words(second) == ["depository_financial_institution", "bank", "banking_concern", "banking_company"]
    assert graph.tag_counts(second) == [0, 20, 0, 0] and graph.offset(second) == 8420278
    good = graph.synsets("good", "a")[0]
    assert [graph.sense_word(a) for s in graph.senses(good) for a in graph.sense_related(s, "antonyms")] == ["bad"]
    assert graph.synsets("Bank", "n") == [] and graph.synsets("bank", "x") == []  # the index as it is, no morphy


def test_loading_is_lazy_and_fast():
    """Members are read when first used; a report's lookups (one POS's index, words, hypernyms, senses'
    pointers) load in a fraction of a second."""
    started = time.perf_counter()
    graph = WordNetGraph(SHIPPED.read_bytes())
    synset = graph.synsets("dog", "n")[0]
    graph.related(synset, "hypernyms"), graph.words(synset)
    graph.sense_related(graph.senses(synset)[0], "derivations")
    seconds = time.perf_counter() - started
    assert not any(name.startswith("index/v") or "similar" in name for name in graph._members)
    assert seconds < 1.0, seconds  # about 0.05 s on a quiet machine; nested JSON took over a second


STRUCTURE_SCRIPT = """
def pointers(synset):
    lexical = lambda name: sorted({(l2.synset().offset(), l2.name()) for l in synset.lemmas()
                                   for l2 in getattr(l, name)()}, key=str)
    by_lemma = lambda name: sorted({l2.synset().offset() for l in synset.lemmas() for l2 in getattr(l, name)()})
    return {
        "words": [l.name() for l in synset.lemmas()],
        "hypernyms": sorted(s.offset() for s in synset.hypernyms() + synset.instance_hypernyms()),
        "similar": sorted(s.offset() for s in synset.similar_tos()),
        "also": sorted({s.offset() for s in synset.also_sees()} | set(by_lemma("also_sees"))),
        "verb_group": sorted({s.offset() for s in synset.verb_groups()} | set(by_lemma("verb_groups"))),
        "antonyms": lexical("antonyms"),
        "derivations": lexical("derivationally_related_forms"),
    }

result = {
    "synsets": [pointers(wn.synset_from_pos_and_offset(pos, offset)) for pos, offset in given["synsets"]],
    "index": [[wn._lemma_pos_offset_map[lemma][pos] for lemma, pos in given["lemmas"]]],
}
"""


def _ours(graph: WordNetGraph, synset: int) -> dict:
    offsets = lambda synsets: sorted({graph.offset(s) for s in synsets})  # noqa: E731
    lexical = {
        name: sorted(
            {
                (graph.offset(graph.sense_synset(t)), graph.sense_word(t))
                for s in graph.senses(synset)
                for t in graph.sense_related(s, name)
            },
            key=str,
        )
        for name in ("antonyms", "derivations")
    }
    return {
        "words": graph.words(synset),
        **lexical,
        **{name: offsets(graph.related(synset, name)) for name in ("hypernyms", "similar", "also", "verb_group")},
    }


@pytest.mark.slow  # 4 s on two cores
def test_graph_equals_nltks_wordnet(debian_wordnet, tmp_path):
    """3,000 synsets (words, hypernyms incl. instance hypernyms, similar-to, also-see, verb groups, and the
    antonyms and derivations of their words) and 3,000 index entries, drawn with a fixed seed."""
    graph = load_wordnet_graph()
    rng = random.Random(16)
    synsets = rng.sample(range(graph.size), 3000)
    lemmas = [(lemma, pos) for pos in "nvar" for lemma in rng.sample(graph._member(f"index/{pos}/lemmas.txt"), 750)]
    given = {"synsets": [(graph.pos(s), graph.offset(s)) for s in synsets], "lemmas": lemmas}
    nltk = run_nltk(wordnet_root(debian_wordnet, tmp_path), STRUCTURE_SCRIPT, given, tmp_path)
    theirs = [
        {key: [tuple(x) if isinstance(x, list) else x for x in value] for key, value in entry.items()}
        for entry in nltk["synsets"]
    ]
    wrong = [(s, _ours(graph, s), entry) for s, entry in zip(synsets, theirs, strict=True) if _ours(graph, s) != entry]
    assert not wrong, wrong[:3]
    assert sum(bool(entry["antonyms"]) for entry in theirs) > 50 and sum(bool(e["derivations"]) for e in theirs) > 500
    ours = [[graph.offset(s) for s in graph.synsets(lemma, pos)] for lemma, pos in lemmas]
    assert ours == nltk["index"][0]
