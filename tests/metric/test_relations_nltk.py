"""The details' WordNet relations (swords_metric/wordnet/relations.py) agree with nltk's WordNet 3.0 API, the
definitions written in nltk's terms, on (target, substitute) pairs drawn with a fixed seed from real systems'
predictions on SWORDS test (each system's top 10 a target, as the metric counts them)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from swords_metric import RELATIONS, UD_TO_WORDNET, Scorer
from swords_metric.wordnet.lemmatizer import wordnet_candidates
from swords_metric.wordnet.relations import target_relations

from .nltk_wordnet import run_nltk, wordnet_root

SAMPLE = 3000
PER_RELATION = 150  # the rarer relations (antonyms, derivations) are drawn up to this many first

# The definitions of swords_metric/wordnet/relations.py, in nltk's API (nltk's synsets() applies morphy itself).
RELATION_SCRIPT = """
def forms(word, pos):
    return set(wn._morphy(word, "a" if pos == "s" else pos))

def up(synsets):
    return {h for s in synsets for h in s.hypernyms() + s.instance_hypernyms()}

def relation(target, substitute, letters):
    T = {s for p in letters for s in wn.synsets(target, p)}
    S = {s for p in letters for s in wn.synsets(substitute, p)}
    if T & S:
        return "synonym"
    if up(T) & S:
        return "hypernym"
    if up(S) & T:
        return "hyponym"
    if up(S) & up(T):
        return "co-hyponym"
    senses = [l for s in T for l in s.lemmas() if l.name().lower() in forms(target, s.pos())]
    if any(a.name().lower() in forms(substitute, a.synset().pos()) for l in senses for a in l.antonyms()):
        return "antonym"
    if any(d.name().lower() in forms(substitute, d.synset().pos())
           for l in senses for d in l.derivationally_related_forms()):
        return "derivationally related"
    return "other" if T and S else "not in WordNet"

result = {
    "relations": [relation(t, s, letters) for t, s, letters in given],
    "morphy": [[[sorted(wn._morphy(w, p)) for p in "nvar"] for w in (t, s)] for t, s, _ in given],
}
"""


def _pairs(real_systems: dict) -> list[tuple[str, str, str]]:
    """Every distinct (target lemma, UD POS, substitute lemma) of the systems' strict top 10."""
    scorer = Scorer.from_dataset("swords", "test")
    pairs = set()
    for predictions in real_systems.values():
        prepared = scorer.read(predictions) if isinstance(predictions, Path) else scorer.prepare(predictions)
        for reference, ranked in zip(scorer.references, prepared.ranked, strict=True):
            if reference is not None and not isinstance(ranked, str) and ranked is not None:
                pairs.update((reference.target_lemma, reference.pos, lemma) for lemma in ranked.top[:10])
    return sorted(pairs)


@pytest.mark.slow  # 8 s on two cores
def test_relations_agree_with_nltks_wordnet(real_systems, debian_wordnet, tmp_path):
    pairs = _pairs(real_systems)
    ours = {pair: target_relations(pair[0], pair[1]).of(pair[2]) for pair in pairs}
    rng = random.Random(16)
    sample = []
    for relation in RELATIONS:  # every relation represented, then a plain random draw
        found = [pair for pair in pairs if ours[pair] == relation]
        sample += rng.sample(found, min(PER_RELATION, len(found)))
    rest = [pair for pair in pairs if pair not in set(sample)]
    sample += rng.sample(rest, SAMPLE - len(sample))
    letters = {pos: UD_TO_WORDNET.get(pos) or "nvar" for _, pos, _ in sample}
    given = [
        (target.replace(" ", "_"), substitute.replace(" ", "_"), letters[pos]) for target, pos, substitute in sample
    ]
    nltk = run_nltk(wordnet_root(debian_wordnet, tmp_path), RELATION_SCRIPT, given, tmp_path)
    # Recent nltk's morphy stops after one round of suffix rules where nltk 3.5's (the lemmatizer's, and so this
    # module's) goes on; a pair whose words they analyse differently is left out (none with nltk 3.5).
    compared, disagreements = 0, []
    for pair, (target, substitute, _), expected, morphy in zip(
        sample, given, nltk["relations"], nltk["morphy"], strict=True
    ):
        words = zip((target, substitute), morphy, strict=True)
        if any(
            sorted(wordnet_candidates(word, p)) != forms
            for word, by_pos in words
            for p, forms in zip("nvar", by_pos, strict=True)
        ):
            continue
        compared += 1
        if ours[pair] != expected:
            disagreements.append((pair, ours[pair], expected))
    assert compared >= 2000 and compared >= 0.97 * len(sample), (compared, len(sample), nltk["version"])
    assert not disagreements, disagreements[:10]
    counts = Counter(nltk["relations"])
    assert all(counts[relation] > 0 for relation in RELATIONS), counts
    print(f"nltk {nltk['version']}: {compared} of {len(sample)} pairs compared, all equal; {dict(counts)}")


def test_relations_on_words_whose_wordnet_entries_are_well_known():
    """WordNet 3.0 (`wn` on the command line shows each): bright/dull are antonyms (-antsa), decide/decision
    derivationally related (-derin), dog's direct hypernym is canine (-hypen), puppy a hyponym of dog (-hypon),
    wolf a sister under canine (-coorn)."""
    assert target_relations("bright", "ADJ").of("dull") == "antonym"
    assert target_relations("bright", "ADJ").of("brilliant") == "synonym"
    assert target_relations("decide", "VERB").of("decision") == "derivationally related"
    dog = target_relations("dog", "NOUN")
    assert [dog.of(word) for word in ("domestic dog", "canine", "puppy", "wolf", "dogs", "xyzzy", "")] == [
        "synonym",
        "hypernym",
        "hyponym",
        "co-hyponym",
        "synonym",
        "not in WordNet",
        "not in WordNet",
    ]
    assert target_relations("dog", "X").of("chase") == "synonym"  # any POS: dog is also a verb (to chase)
