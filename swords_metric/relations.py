"""A substitute's relation to its target in WordNet 3.0, as the details and the report's summary give it.

In nltk's terms (``wn`` a WordNetCorpusReader on WordNet 3.0; the tests run nltk beside this on real pairs):

* The words looked up are the metric's lemmas: the target's lemma and the substitute's lemma (lower case,
  stripped), spaces written ``_``. A word's *synsets* are ``wn.synsets(word, p)`` for each POS letter ``p``
  of the target's POS (NOUN n, VERB v, ADJ a with its satellites, ADV r; any other tag: all four). nltk
  applies morphy there (every analysis WordNet holds: "saw"/VERB finds the synsets of *saw* and of *see*);
  so does this, with nltk 3.5's morphy, the lemmatizer's. Its *senses* are the lemmas of those synsets
  whose ``name().lower()`` is one of those analyses (``wn._morphy(word, synset.pos())``).
* H(X), the direct hypernyms of synsets X: ``s.hypernyms() + s.instance_hypernyms()`` for s in X.

The relation is the first that holds, in this order (T the target's synsets, S the substitute's):

1. ``synonym``: T and S share a synset.
2. ``hypernym``: the substitute is more general: a synset of S is in H(T).
3. ``hyponym``: the substitute is more specific: a synset of T is in H(S).
4. ``co-hyponym``: H(T) and H(S) share a synset (sisters under a direct hypernym).
5. ``antonym``: a target sense's ``antonyms()`` include a sense of the substitute (under the target's POS).
6. ``derivationally related``: a target sense's ``derivationally_related_forms()`` include a lemma whose
   name is an analysis of the substitute under that lemma's own POS (derivations cross parts of speech:
   decide/VERB and decision).
7. ``other``: the target and the substitute both have synsets, and none of the above holds.
8. ``not in WordNet``: none of the above, and the substitute (or the target) has no synset under the POS.

Depth is one pointer throughout: DEPTH below is where that is chosen (2 would also count hypernyms of
hypernyms, for 2-4).
"""

from __future__ import annotations

import functools

from .lemmatizer import CACHED_LENGTH, UD_TO_WORDNET, wordnet_candidates
from .wordnet_graph import POS_LETTERS, WordNetGraph, load_wordnet_graph

SYNONYM, HYPERNYM, HYPONYM, CO_HYPONYM = "synonym", "hypernym", "hyponym", "co-hyponym"
ANTONYM, DERIVATION, OTHER, NOT_IN_WORDNET = "antonym", "derivationally related", "other", "not in WordNet"
RELATIONS = (SYNONYM, HYPERNYM, HYPONYM, CO_HYPONYM, ANTONYM, DERIVATION, OTHER, NOT_IN_WORDNET)
DEPTH = 1  # hypernym pointers followed for hypernym, hyponym and co-hyponym: direct ones only
# Memory stays bounded on any input: relations remembered per target, and targets remembered (their lemmas
# repeat across a benchmark: CoInCo has ~15,000 targets for ~3,000 lemmas).
_REMEMBERED_SUBSTITUTES = 4096
_REMEMBERED_TARGETS = 64


def _analyses(word: str, letter: str) -> tuple[str, ...]:
    """nltk's morphy of a word under a POS letter (3.5's, the lemmatizer's): every analysis WordNet holds.
    Remembered for words of at most CACHED_LENGTH characters, as the lemmatizer remembers them."""
    return _remembered_analyses(word, letter) if len(word) <= CACHED_LENGTH else wordnet_candidates(word, letter)


_remembered_analyses = functools.lru_cache(maxsize=1 << 16)(wordnet_candidates)


def _letters(ud_pos: str) -> tuple[str, ...]:
    letter = UD_TO_WORDNET.get(ud_pos)
    return (letter,) if letter else POS_LETTERS


def _key(lemma: str) -> str:
    return lemma.replace(" ", "_")


class TargetRelations:
    """The relations of substitutes to one target: what depends on the target alone is looked up once.

    >>> TargetRelations("bright", "ADJ").of("brilliant")
    'synonym'
    """

    def __init__(self, target_lemma: str, ud_pos: str, graph: WordNetGraph | None = None) -> None:
        self.graph = graph = graph or load_wordnet_graph()
        self.letters = _letters(ud_pos)
        forms = self._forms(_key(target_lemma))
        self.synsets = self._synsets(forms)
        self.hypernyms = self._up(self.synsets)
        senses = self._senses(forms)
        self.antonyms = self._by_letter(a for sense in senses for a in graph.sense_related(sense, "antonyms"))
        self.derivations = self._by_letter(d for sense in senses for d in graph.sense_related(sense, "derivations"))
        self._known: dict[str, str] = {}

    def _forms(self, word: str, letters: tuple[str, ...] | None = None) -> dict[str, tuple[str, ...]]:
        """{POS letter: the word's analyses under it} (morphy, every analysis WordNet holds)."""
        return {letter: _analyses(word, letter) for letter in letters or self.letters}

    def _synsets(self, forms: dict[str, tuple[str, ...]]) -> set[int]:
        synsets = self.graph.synsets
        return {synset for letter, analyses in forms.items() for form in analyses for synset in synsets(form, letter)}

    def _senses(self, forms: dict[str, tuple[str, ...]]) -> set[int]:
        """The word's senses: those of its synsets whose word (lower-cased) is one of its analyses."""
        senses = self.graph.lemma_senses
        return {sense for letter, analyses in forms.items() for form in analyses for sense in senses(form, letter)}

    def _up(self, synsets: set[int]) -> set[int]:
        related, reached, frontier = self.graph.related, set(), synsets
        for _ in range(DEPTH):
            frontier = {hypernym for synset in frontier for hypernym in related(synset, "hypernyms")}
            reached |= frontier
        return reached

    def _by_letter(self, senses) -> dict[str, frozenset[int]]:
        """Senses grouped by the POS letter of their synset."""
        letters: dict[str, set[int]] = {}
        for sense in senses:
            letters.setdefault(self.graph.sense_pos(sense), set()).add(sense)
        return {letter: frozenset(group) for letter, group in letters.items()}

    def _reaches(self, pointed: dict[str, frozenset[int]], forms: dict[str, tuple[str, ...]], substitute: str) -> bool:
        """Whether senses the target points to (by POS letter) include a sense of the substitute under that
        POS (`forms`: its analyses found so far, by letter; completed as needed)."""
        for letter, senses in pointed.items():
            if letter not in forms:
                forms.update(self._forms(substitute, (letter,)))
            if not senses.isdisjoint(self._senses({letter: forms[letter]})):
                return True
        return False

    def of(self, lemma: str) -> str:
        """The relation (one of RELATIONS) of a substitute, given as the metric's lemma of it."""
        known = self._known.get(lemma)
        if known is None:
            if len(self._known) >= _REMEMBERED_SUBSTITUTES:
                self._known.clear()
            known = self._known[lemma] = self._relation(_key(lemma))
        return known

    def _relation(self, substitute: str) -> str:
        forms = self._forms(substitute)
        synsets = self._synsets(forms)
        if synsets & self.synsets:
            return SYNONYM
        if synsets & self.hypernyms:
            return HYPERNYM
        above = self._up(synsets)
        if above & self.synsets:
            return HYPONYM
        if above & self.hypernyms:
            return CO_HYPONYM
        if self._reaches(self.antonyms, forms, substitute):
            return ANTONYM
        if self._reaches(self.derivations, forms, substitute):
            return DERIVATION
        return OTHER if synsets and self.synsets else NOT_IN_WORDNET


@functools.lru_cache(maxsize=_REMEMBERED_TARGETS)
def target_relations(target_lemma: str, ud_pos: str) -> TargetRelations:
    """The TargetRelations of a target lemma under a POS, shared by the targets that have them."""
    return TargetRelations(target_lemma, ud_pos)
