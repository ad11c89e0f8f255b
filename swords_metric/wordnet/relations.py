"""A substitute's relation to its target in WordNet 3.0, as the details and the report's summary give it.

In nltk's terms (``wn`` on WordNet 3.0; the tests run nltk beside this on real pairs):

* The words looked up are the metric's lemmas of target and substitute, spaces written ``_``. A word's *synsets*
  are ``wn.synsets(word, p)`` for each POS letter ``p`` of the target's POS (ADJ: a with its satellites; a tag
  with no letter: all four), through morphy ("saw"/VERB finds *saw* and *see*: nltk 3.5's, the lemmatizer's). Its
  *senses* are the lemmas of those synsets whose ``name().lower()`` is one of its analyses.
* H(X), the direct hypernyms of synsets X: ``s.hypernyms() + s.instance_hypernyms()`` for s in X.

The relation is the first that holds, in this order (T the target's synsets, S the substitute's):

1. ``synonym``: T and S share a synset.
2. ``hypernym``: the substitute is more general: a synset of S is in H(T).
3. ``hyponym``: the substitute is more specific: a synset of T is in H(S).
4. ``co-hyponym``: H(T) and H(S) share a synset (sisters under a direct hypernym).
5. ``antonym``: a target sense's ``antonyms()`` include a sense of the substitute (under the target's POS).
6. ``derivationally related``: a target sense's ``derivationally_related_forms()`` include a lemma whose name is an
   analysis of the substitute under that lemma's own POS (decide/VERB and decision).
7. ``other``: the target and the substitute both have synsets, and none of the above holds.
8. ``not in WordNet``: none of the above, and the substitute (or the target) has no synset under the POS.
"""

from __future__ import annotations

import functools

from swords_metric.wordnet.graph import POS_LETTERS, WordNetGraph, load_wordnet_graph
from swords_metric.wordnet.lemmatizer import CACHED_LENGTH, UD_TO_WORDNET, wordnet_candidates

SYNONYM, HYPERNYM, HYPONYM, CO_HYPONYM = "synonym", "hypernym", "hyponym", "co-hyponym"
ANTONYM, DERIVATION, OTHER, NOT_IN_WORDNET = "antonym", "derivationally related", "other", "not in WordNet"
RELATIONS = (SYNONYM, HYPERNYM, HYPONYM, CO_HYPONYM, ANTONYM, DERIVATION, OTHER, NOT_IN_WORDNET)
DEPTH = 1  # hypernym pointers followed for hypernym, hyponym and co-hyponym: direct ones only
# Words and targets looked up are remembered, boundedly (CoInCo has ~15,000 targets for ~3,000 lemmas).
_REMEMBERED_WORDS = 1 << 14
_REMEMBERED_TARGETS = 256


class WordView:
    """What relations need of one word under the POS letters of a target: its analyses, synsets and their direct
    hypernyms, and, per POS letter, its senses (computed when asked)."""

    __slots__ = ("word", "graph", "forms", "synsets", "up", "_senses")

    def __init__(self, word: str, letters: tuple[str, ...], graph: WordNetGraph) -> None:
        self.word, self.graph = word, graph
        self.forms = {letter: wordnet_candidates(word, letter) for letter in letters}
        self.synsets = frozenset(
            synset for letter, forms in self.forms.items() for form in forms for synset in graph.synsets(form, letter)
        )
        self.up = _up(graph, self.synsets)
        self._senses: dict[str, frozenset[int]] = {}

    def senses(self, letter: str) -> frozenset[int]:
        """Its senses under a POS letter: those of its synsets whose word (lower-cased) is one of its analyses."""
        senses = self._senses.get(letter)
        if senses is None:
            forms = self.forms[letter] if letter in self.forms else wordnet_candidates(self.word, letter)
            senses = self._senses[letter] = frozenset(
                sense for form in forms for sense in self.graph.lemma_senses(form, letter)
            )
        return senses


def _up(graph: WordNetGraph, synsets) -> frozenset[int]:
    reached, frontier = set(), synsets
    for _ in range(DEPTH):
        frontier = {hypernym for synset in frontier for hypernym in graph.related(synset, "hypernyms")}
        reached |= frontier
    return frozenset(reached)


def word_view(lemma: str, letters: tuple[str, ...]) -> WordView:
    """The WordView of a metric lemma under POS letters; remembered if at most CACHED_LENGTH characters long."""
    view = _remembered_view if len(lemma) <= CACHED_LENGTH else _remembered_view.__wrapped__
    return view(lemma, letters)


@functools.lru_cache(maxsize=_REMEMBERED_WORDS)
def _remembered_view(lemma: str, letters: tuple[str, ...]) -> WordView:
    return WordView(lemma.replace(" ", "_"), letters, load_wordnet_graph())


class TargetRelations:
    """The relations of substitutes to one target, what depends on the target alone looked up once.

    >>> TargetRelations("bright", "ADJ").of("brilliant")
    'synonym'
    """

    def __init__(self, target_lemma: str, ud_pos: str) -> None:
        self.letters = (letter,) if (letter := UD_TO_WORDNET.get(ud_pos)) else POS_LETTERS
        target = word_view(target_lemma, self.letters)
        graph = target.graph
        self.synsets, self.hypernyms = target.synsets, target.up
        senses = [sense for letter in self.letters for sense in target.senses(letter)]
        self.antonyms = self._by_letter(graph, (a for s in senses for a in graph.sense_related(s, "antonyms")))
        self.derivations = self._by_letter(graph, (d for s in senses for d in graph.sense_related(s, "derivations")))

    @staticmethod
    def _by_letter(graph: WordNetGraph, senses) -> dict[str, frozenset[int]]:
        """Senses grouped by the POS letter of their synset."""
        letters: dict[str, set[int]] = {}
        for sense in senses:
            letters.setdefault(graph.sense_pos(sense), set()).add(sense)
        return {letter: frozenset(group) for letter, group in letters.items()}

    def of(self, lemma: str) -> str:
        """The relation (one of RELATIONS) of a substitute, given as the metric's lemma of it."""
        substitute = word_view(lemma, self.letters)
        if not substitute.synsets.isdisjoint(self.synsets):
            return SYNONYM
        if not substitute.synsets.isdisjoint(self.hypernyms):
            return HYPERNYM
        if not substitute.up.isdisjoint(self.synsets):
            return HYPONYM
        if not substitute.up.isdisjoint(self.hypernyms):
            return CO_HYPONYM
        for pointed, relation in ((self.antonyms, ANTONYM), (self.derivations, DERIVATION)):
            if any(not senses.isdisjoint(substitute.senses(letter)) for letter, senses in pointed.items()):
                return relation
        return OTHER if substitute.synsets and self.synsets else NOT_IN_WORDNET


@functools.lru_cache(maxsize=_REMEMBERED_TARGETS)
def target_relations(target_lemma: str, ud_pos: str) -> TargetRelations:
    """The TargetRelations of a target lemma under a POS, shared by the targets that have them."""
    return TargetRelations(target_lemma, ud_pos)
