"""WordNet 3.0 as a graph of numbered synsets and word senses, read from the archive the package ships
(``wordnet-3.0-graph.zip``; swords_dataset/builder/wordnet_graph.py says what it holds), for the details' relations
and the `wordnet` baseline. Each member is decompressed when first used, so a caller pays only for what it reads.
"""

from __future__ import annotations

import bisect
import functools
import io
import json
import zipfile
from importlib import resources

import numpy as np

FORMAT_VERSION = 1
DATA_FILE = "wordnet-3.0-graph.zip"
POS_LETTERS = ("n", "v", "a", "r")
SYNSET_RELATIONS = ("hypernyms", "hyponyms", "similar", "also", "verb_group")
SENSE_RELATIONS = ("antonyms", "derivations")


class WordNetGraph:
    """WordNet 3.0's lemma index, synsets, word senses and pointers (hypernyms incl. instance hypernyms, hyponyms,
    similar-to, also-see, verb groups between synsets; antonyms and derivationally related forms between senses).

    >>> graph = load_wordnet_graph()
    >>> [graph.words(s) for s in graph.synsets("bank", "n")[:2]]
    """

    def __init__(self, data: bytes) -> None:
        self._archive = zipfile.ZipFile(io.BytesIO(data))
        manifest = json.loads(self._archive.read("manifest.json"))
        if manifest.get("format") != FORMAT_VERSION:
            raise ValueError(f"{DATA_FILE}: format {manifest.get('format')!r}, expected {FORMAT_VERSION}")
        per_pos = [manifest["synsets_per_pos"][pos] for pos in POS_LETTERS]
        self.size = sum(per_pos)
        self._pos_ends = np.cumsum(per_pos).tolist()  # synset numbers of POS_LETTERS[i] end before _pos_ends[i]
        self._members: dict[str, object] = {}

    def _member(self, name: str):
        value = self._members.get(name)
        if value is None:
            raw = self._archive.read(name)
            kind = name.rsplit(".", 1)[1]
            value = raw.decode("ascii").split(" ") if kind == "txt" else np.frombuffer(raw, dtype=f"<{kind}")
            self._members[name] = value
        return value

    def _ragged(self, path: str) -> tuple[list[int], list[int]]:
        """(start of each row, and the end; the flat values) of a ragged member, as lists (a list slice is far
        cheaper than a numpy one for a row's few values)."""
        key = f"{path}/"
        value = self._members.get(key)
        if value is None:
            counts = self._member(f"{path}/counts.u1")
            starts = np.zeros(len(counts) + 1, dtype=np.int64)
            np.cumsum(counts, out=starts[1:])
            value = self._members[key] = (starts.tolist(), self._member(f"{path}/values.i4").tolist())
        return value

    def _row(self, path: str, number: int) -> list[int]:
        starts, values = self._ragged(path)
        return values[starts[number] : starts[number + 1]]

    @functools.cached_property
    def _first_sense(self) -> list[int]:
        per_synset = self._member("senses/per_synset.u1")
        starts = np.zeros(len(per_synset) + 1, dtype=np.int64)
        np.cumsum(per_synset, out=starts[1:])
        return starts.tolist()

    @functools.cached_property
    def _hyponyms(self) -> tuple[list[int], list[int]]:
        """Hyponymy, the inverse of the hypernym pointers: each synset's hyponyms in ascending order."""
        starts, _ = self._ragged("synset_pointers/hypernyms")
        hypernyms = self._member("synset_pointers/hypernyms/values.i4")
        sources = np.repeat(np.arange(self.size, dtype=np.int32), np.diff(starts))
        order = np.lexsort((sources, hypernyms))
        counts = np.bincount(hypernyms, minlength=self.size)
        first = np.zeros(self.size + 1, dtype=np.int64)
        np.cumsum(counts, out=first[1:])
        return first.tolist(), sources[order].tolist()

    def synsets(self, lemma: str, pos: str) -> list[int]:
        """The synsets of a lemma as WordNet's index lists it (lower case, ``_`` for spaces; no morphology)
        under a POS letter (n, v, a with satellites, r), in WordNet's sense order; [] if it has none."""
        number = self._lemma_number(lemma, pos)
        return [] if number is None else self._row(f"index/{pos}", number)

    def _lemma_number(self, lemma: str, pos: str) -> int | None:
        if pos not in POS_LETTERS:
            return None
        lemmas = self._member(f"index/{pos}/lemmas.txt")
        i = bisect.bisect_left(lemmas, lemma)
        return i if i < len(lemmas) and lemmas[i] == lemma else None

    def lemmas(self, pos: str) -> list[str]:
        """Every lemma WordNet's index lists under a POS letter (n, v, a, r), sorted (lower case, ``_`` for spaces)."""
        return list(self._member(f"index/{pos}/lemmas.txt")) if pos in POS_LETTERS else []

    def lemma_senses(self, lemma: str, pos: str) -> list[int]:
        """The word senses of a lemma under a POS letter: the senses of its synsets whose word is the lemma
        (lower-cased; nltk: ``[l for s in wn.synsets(lemma, pos) for l in s.lemmas() if l.name().lower() ==
        lemma]`` without morphy). [] if it has none."""
        number = self._lemma_number(lemma, pos)
        return [] if number is None else self._row(f"index_senses/{pos}", number)

    def has_lemma(self, lemma: str, pos: str) -> bool:
        return bool(self.synsets(lemma, pos))

    def pos(self, synset: int) -> str:
        """The synset's POS letter (its data file's: satellites are "a")."""
        return POS_LETTERS[bisect.bisect_right(self._pos_ends, synset)]

    def offset(self, synset: int) -> int:
        """The synset's byte offset in its data file (nltk: ``wn.synset_from_pos_and_offset(pos, offset)``)."""
        return int(self._member("synsets/offsets.i4")[synset])

    def words(self, synset: int) -> list[str]:
        """The synset's words as the data file spells them (``_`` for spaces, case kept), in its order."""
        first = self._first_sense
        return self._member("senses/words.txt")[first[synset] : first[synset + 1]]

    def tag_counts(self, synset: int) -> list[int]:
        """SemCor tag count of each of the synset's word senses (index.sense), in the order of words()."""
        first = self._first_sense
        return self._member("senses/tag_counts.u2")[first[synset] : first[synset + 1]].tolist()

    def related(self, synset: int, relation: str) -> list[int]:
        """Synsets the synset points to by a relation of SYNSET_RELATIONS, in its data file order (hyponyms: sorted)."""
        if relation == "hyponyms":
            starts, values = self._hyponyms
            return values[starts[synset] : starts[synset + 1]]
        if relation not in SYNSET_RELATIONS:
            raise ValueError(f"unknown synset relation {relation!r}; choose from {', '.join(SYNSET_RELATIONS)}")
        return self._row(f"synset_pointers/{relation}", synset)

    def senses(self, synset: int) -> range:
        """The numbers of the synset's word senses."""
        return range(self._first_sense[synset], self._first_sense[synset + 1])

    def sense_word(self, sense: int) -> str:
        return self._member("senses/words.txt")[sense]

    def sense_synset(self, sense: int) -> int:
        return bisect.bisect_right(self._first_sense, sense) - 1

    def sense_pos(self, sense: int) -> str:
        """The POS letter of a sense's synset (its data file's: satellites are "a")."""
        return self.pos(self.sense_synset(sense))

    def sense_related(self, sense: int, relation: str) -> list[int]:
        """Word senses the sense points to by a relation of SENSE_RELATIONS (antonyms, derivations)."""
        if relation not in SENSE_RELATIONS:
            raise ValueError(f"unknown sense relation {relation!r}; choose from {', '.join(SENSE_RELATIONS)}")
        return self._row(f"sense_pointers/{relation}", sense)


@functools.cache
def load_wordnet_graph() -> WordNetGraph:
    """The WordNet 3.0 graph shipped with the package, loaded once per process (members on first use)."""
    return WordNetGraph(resources.files(__package__).joinpath(DATA_FILE).read_bytes())
