"""The `wordnet` baseline: WordNet 3.0 synonyms of the target lemma under the target's POS, most frequent first.

With ``c(w, s)`` the SemCor tag count of word ``w`` in synset ``s`` (``cntlist.rev``): the lemma's synsets are
taken in WordNet's sense order (``index.POS``); synonyms sense by sense, within a sense by decreasing ``c(w, s)``
(ties in the synset's order), a word keeping its first place; then the words of the ``--relations``, relation by
relation in the order given, ranked the same way. The word in place ``i`` (0-based) scores ``1 / (i + 1)``, a prior
for a reranker; the target lemma is dropped, and a form whose lemma an earlier word has (as the metric lemmatizes).
The data is the metric's WordNet 3.0 graph, one WordNet for the baseline and the metric's details.

It is the reference without context the rerankers are measured against, not a reproduction of a published baseline
(SemEval-2007's, McCarthy and Navigli 2009, Sect. 2.5, ranked WordNet 2.1 synonyms by BNC frequency);
``wordnet+embedding``'s filters are :func:`wordnet_pool`'s options. SWORDS test (lenient F@10 A / C / GAP): synonyms
only 15.54 / 29.45 / 6.07; with similar 16.98 / 32.95 / 6.69; with similar,hypernyms 18.66 / 40.50 / 8.15.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

from swords_baselines.lemmas import one_form_per_lemma
from swords_baselines.options import Option
from swords_baselines.system import Prediction, System
from swords_metric import UD_TO_WORDNET, WordNetGraph, lemmatize, load_wordnet_graph

RELATION_NAMES = ("similar", "also", "verb_group", "hypernyms", "hyponyms", "sisters")
_PIECE_SEPARATORS = re.compile(r"[\s_\-]+")


class WordNetSynonyms:
    """The baseline's view of the metric's WordNet graph: synsets, related synsets, their words ranked."""

    def __init__(self, graph: WordNetGraph) -> None:
        self.graph = graph

    def synsets(self, lemma: str, wn_pos: str) -> list[int]:
        return self.graph.synsets(lemma, wn_pos)

    def lookup_key(self, target: str, target_lemma: str, wn_pos: str) -> str | None:
        """The WordNet index entry for a target: its lemma, else the word form as written (e.g. CoInCo's
        lemma "fourth quarter" of "fourth-quarter"), else None."""
        for form in (target_lemma, target):
            key = form.strip().lower().replace(" ", "_")
            if self.graph.has_lemma(key, wn_pos):
                return key
        return None

    def related(self, synset: int, relation: str) -> list[int]:
        if relation == "sisters":  # co-hyponyms: the other hyponyms of the synset's hypernyms
            return [
                sister
                for hypernym in self.graph.related(synset, "hypernyms")
                for sister in self.graph.related(hypernym, "hyponyms")
                if sister != synset
            ]
        return self.graph.related(synset, relation)

    def ranked_with_groups(self, lemma: str, wn_pos: str, relations: Sequence[str] = ()) -> list[tuple[str, str]]:
        """(word, "synonym" or the relation that brought it), in the module docstring's order."""
        senses = self.synsets(lemma, wn_pos)
        related = [(relation, [r for s in senses for r in self.related(s, relation)]) for relation in relations]
        return self._words([("synonym", senses), *related], {lemma})

    def wider(self, lemma: str, wn_pos: str, relations: Sequence[str], step: int) -> list[tuple[str, str]]:
        """(word, "wider") of the synsets `step` steps (`relations`, then the words' other senses) beyond the nearer."""
        senses = self.synsets(lemma, wn_pos)
        frontier = list(
            dict.fromkeys([*senses, *(r for s in senses for rel in relations for r in self.related(s, rel))])
        )
        near = set(frontier)
        for _ in range(step):
            reached = [
                other for synset in frontier for relation in relations for other in self.related(synset, relation)
            ]
            reached += [
                other
                for synset in frontier
                for word in self.graph.words(synset)
                for other in self.synsets(word.lower(), wn_pos)
            ]
            frontier = [other for other in dict.fromkeys(reached) if other not in near]
            near.update(frontier)
        return self._words([("wider", frontier)], {lemma})

    def _words(self, groups: list[tuple[str, list[int]]], seen: set[str]) -> list[tuple[str, str]]:
        ranked = []
        for group, synsets in groups:
            for synset in synsets:
                words, counts = self.graph.words(synset), self.graph.tag_counts(synset)
                for position in sorted(range(len(words)), key=lambda i: -counts[i]):
                    key = words[position].lower()
                    if key not in seen:
                        seen.add(key)
                        ranked.append((words[position].replace("_", " "), group))
        return ranked

    def ranked(self, lemma: str, wn_pos: str, relations: Sequence[str] = ()) -> list[str]:
        return [word for word, _ in self.ranked_with_groups(lemma, wn_pos, relations)]

    def antonyms(self, lemma: str, wn_pos: str) -> set[str]:
        """The lemma's antonyms (lower case, spaces), for an adjective also WordNet's indirect ones (through the
        heads it is similar to: "amazing" ~ "impressive", whose antonym is "unimpressive")."""
        graph, opposites = self.graph, set()
        for synset in self.synsets(lemma, wn_pos):
            heads = self.related(synset, "similar") if wn_pos == "a" else []
            for source in (synset, *heads):
                for sense in graph.senses(source):
                    for opposite in graph.sense_related(sense, "antonyms"):
                        for word in graph.words(graph.sense_synset(opposite)):
                            opposites.add(word.lower().replace("_", " "))
        return opposites


@lru_cache(maxsize=1)
def load_wordnet() -> WordNetSynonyms:
    return WordNetSynonyms(load_wordnet_graph())


def parse_relations(text: str | None) -> tuple[str, ...]:
    """The relation names of a comma-separated list ("hypernyms,similar"); unknown names are an error."""
    from swords_lexsub.errors import SwordsError

    names = tuple(name.strip() for name in (text or "").split(",") if name.strip())
    unknown = [name for name in names if name not in RELATION_NAMES]
    if unknown:
        raise SwordsError(f"unknown WordNet relation(s) {unknown}; choose from {', '.join(RELATION_NAMES)}")
    return names


def target_readings(row: dict) -> list[tuple[str, str]]:
    """(WordNet index entry, WordNet POS) of a row's target under its POS; without one (ProLex, TSAR-2022 English),
    every POS WordNet has it under (lemmatized by the metric), most senses first (then noun, verb, adj., adverb)."""
    wordnet = load_wordnet()
    if row.get("pos"):
        wn_pos = UD_TO_WORDNET.get(row["pos"])
        key = wordnet.lookup_key(row["target"], row["target_lemma"], wn_pos) if wn_pos else None
        return [] if key is None else [(key, wn_pos)]
    readings = []
    for ud_pos, wn_pos in UD_TO_WORDNET.items():
        key = wordnet.lookup_key(row["target"], lemmatize(row["target"], ud_pos), wn_pos)
        if key is not None:
            readings.append((key, wn_pos))
    order = "nvar"
    return sorted(readings, key=lambda reading: (-len(wordnet.synsets(*reading)), order.index(reading[1])))


def _pieces(text: str) -> tuple[str, ...]:
    return tuple(piece for piece in _PIECE_SEPARATORS.split(text.lower()) if piece)


def holds_target(word: str, forms: Sequence[str]) -> bool:
    """Whether `word` is a longer expression holding one of the target's `forms` as a part, word for word
    ("printing press" and "press-up" hold "press"; "pressure" and "pressing" do not)."""
    pieces = _pieces(word)
    parts = [part for part in map(_pieces, forms) if part and len(pieces) > len(part)]
    return any(pieces[i : i + len(part)] == part for part in parts for i in range(len(pieces) - len(part) + 1))


WIDER_STEPS = 2  # beyond two steps WordNet adds next to nothing for the targets still short (SWORDS test)


def wordnet_pool(
    row: dict, relations: Sequence[str] = (), exclude: bool = False, least: int = 0, then: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """(word, "synonym" or relation) for a row, best first, each reading's words in turn; the target's own form
    left out. With `exclude`, also the words holding the target as a part and its antonyms, by form or lemma
    ("older" for "young"). While fewer than `least` are kept, words one step further follow (group "wider"), up to
    WIDER_STEPS, then the target's words under its other POS; last the words of `then` (group "neighbour")."""
    wordnet = load_wordnet()
    readings = target_readings(row)
    forms = [row["target"], row.get("target_lemma") or "", *(key for key, _ in readings)]
    unwanted = {word for key, wn_pos in readings for word in wordnet.antonyms(key, wn_pos)} if exclude else set()
    unwanted.update(form.strip().lower().replace("_", " ") for form in forms)
    pool, seen = [], set()
    ud_pos = {wn_pos: ud for ud, wn_pos in UD_TO_WORDNET.items()}
    lemma_pos = [ud_pos[wn_pos] for _, wn_pos in readings] if exclude else []

    def take(words: Iterable[tuple[str, str]]) -> None:
        for word, group in words:
            lowered = word.lower()
            if lowered not in seen and lowered not in unwanted:
                seen.add(lowered)
                if exclude and (
                    holds_target(word, forms) or any(lemmatize(lowered, pos) in unwanted for pos in lemma_pos)
                ):
                    continue
                pool.append((word, group))

    for key, wn_pos in readings:
        take(wordnet.ranked_with_groups(key, wn_pos, relations))
    for step in range(1, WIDER_STEPS + 1):
        if len(pool) >= least:
            break
        for key, wn_pos in readings:
            take(wordnet.wider(key, wn_pos, relations, step))
    if len(pool) < least and readings:  # e.g. "most" tagged ADJ, whose WordNet words are the adverb's
        for ud_pos, other_pos in UD_TO_WORDNET.items():
            if other_pos not in {wn_pos for _, wn_pos in readings}:
                key = wordnet.lookup_key(row["target"], lemmatize(row["target"], ud_pos), other_pos)
                if key is not None:
                    take([(word, "wider") for word, _ in wordnet.ranked_with_groups(key, other_pos, relations)])
    take((word, "neighbour") for word in then)
    return pool


def wordnet_substitutes(row: dict, relations: Sequence[str] = ()) -> Prediction:
    """Ranked (word, 1 / rank) for a dataset row (see :func:`wordnet_pool`), one word per lemma."""
    words = one_form_per_lemma(wordnet_pool(row, relations), row.get("pos"))
    return [(word, 1.0 / (rank + 1)) for rank, (word, _) in enumerate(words)]


class WordNet(System):
    name = "wordnet"
    needs = "nothing: the WordNet 3.0 data ship with the package"
    description = (
        "WordNet 3.0 synonyms of the target lemma under its POS (a benchmark without POS, ProLex or TSAR-2022 "
        "English: under every POS, the one with most senses first): senses in WordNet's frequency order, words by "
        "their own tag counts (optionally then hypernyms, similar-to, ...); English only; offline"
    )
    options = (
        Option(
            "relations",
            "comma-separated related synsets whose words follow the synonyms: " + ", ".join(RELATION_NAMES),
            default="",
        ),
    )
    batch_size = 256
    english_only = True
    substitutes_lemmatized = True  # WordNet lemmas, not inflected to the target's form

    def __init__(self, relations: str = "", **options) -> None:
        super().__init__(**options)
        self.relations = parse_relations(relations)

    def predict(self, rows: Sequence[dict]) -> Iterator[tuple[str, Prediction]]:
        for row in rows:
            yield row["id"], wordnet_substitutes(row, self.relations)
