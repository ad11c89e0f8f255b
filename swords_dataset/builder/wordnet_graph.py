"""Build the WordNet 3.0 graph the metric ships (wordnet-3.0-graph.zip).

Read through ``swords_metric.WordNetGraph`` (the details' relations, the `wordnet` baseline), it keeps only:

* synsets, numbered in (POS file n, v, a, r; byte offset) order, with their database offsets;
* word senses, numbered synset by synset in the data file's word order: the word as the data file spells it
  (adjective markers such as ``(p)`` removed) and its SemCor tag count from ``index.sense``;
* per POS, the lemma index: lemma -> its synsets in WordNet's sense order, and its word senses (the senses of
  those synsets whose word, lower-cased, is the lemma: nltk's ``lemma.name().lower()``);
* pointers between synsets, without repeats: ``hypernyms`` (``@`` and ``@i``), ``similar`` (``&``), ``also``
  (``^``), ``verb_group`` (``$``), whether they link whole synsets or two of their words;
* pointers between word senses: ``antonyms`` (``!``) and ``derivations`` (``+``).

Layout: a deterministic zip of flat arrays named ``PATH.DTYPE`` (``.txt`` words joined by spaces, ``.u1``/``.u2``/
``.i4`` little-endian integers; a ragged array ``PATH/counts`` and ``PATH/values``) and ``manifest.json``. Members
load only when used: a report's relations read about 0.05 s of it, where nested JSON took over a second.

Usage::

    python -m swords_dataset.builder.wordnet_graph --wordnet-dir /usr/share/wordnet \\
        --output swords_metric/wordnet/wordnet-3.0-graph.zip
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from swords_dataset.builder.wordnet_files import (
    METRIC_WORDNET,
    POS_FILES,
    extract_main,
    read_index,
    read_synsets,
    read_tag_counts,
    serialize_archive,
)

FORMAT_VERSION = 1
DATA_FILE = "wordnet-3.0-graph.zip"
DEFAULT_OUTPUT = METRIC_WORDNET / DATA_FILE
SYNSET_POINTERS: dict[str, str] = {"@": "hypernyms", "@i": "hypernyms", "&": "similar", "^": "also", "$": "verb_group"}
SENSE_POINTERS: dict[str, str] = {"!": "antonyms", "+": "derivations"}


def _array(values, dtype: str) -> bytes:
    array = np.asarray(values, dtype=np.int64)
    if array.size and (array.min() < np.iinfo(dtype).min or array.max() > np.iinfo(dtype).max):
        raise ValueError(f"values out of range for {dtype}")
    return array.astype(f"<{dtype}").tobytes()


def _ragged(path: str, rows: list[list[int]]) -> dict[str, bytes]:
    return {
        f"{path}/counts.u1": _array([len(row) for row in rows], "u1"),
        f"{path}/values.i4": _array([value for row in rows for value in row], "i4"),
    }


def _words(words: list[str]) -> bytes:
    if any(" " in word or not word.isascii() for word in words):
        raise ValueError("a WordNet word holds a space or is not ASCII; the layout joins ASCII words with spaces")
    return " ".join(words).encode("ascii")


def build_payload(wordnet_dir: Path) -> dict[str, bytes]:
    """The archive's members: name -> bytes."""
    wordnet_dir = Path(wordnet_dir)
    raw = read_synsets(wordnet_dir)
    tag_counts = read_tag_counts(wordnet_dir)
    pos_order = list(POS_FILES)
    order = sorted(raw, key=lambda key: (pos_order.index(key[0]), int(key[1])))
    number = {key: i for i, key in enumerate(order)}
    first_sense, words, counts = [], [], []
    for pos, offset in order:
        first_sense.append(len(words))
        for word in raw[(pos, offset)][0]:
            words.append(word)
            counts.append(tag_counts.get((pos, offset, word.lower()), 0))
    synset_rows: dict[str, list[list[int]]] = {name: [[] for _ in order] for name in set(SYNSET_POINTERS.values())}
    sense_rows: dict[str, list[list[int]]] = {name: [[] for _ in words] for name in SENSE_POINTERS.values()}
    for source, key in enumerate(order):
        for pointer in raw[key][1]:
            target = number[(pointer.target_pos, pointer.target_offset)]
            if pointer.symbol in SYNSET_POINTERS:
                row = synset_rows[SYNSET_POINTERS[pointer.symbol]][source]
                if target not in row:
                    row.append(target)
            elif pointer.symbol in SENSE_POINTERS and pointer.source_word:
                row = sense_rows[SENSE_POINTERS[pointer.symbol]][first_sense[source] + pointer.source_word - 1]
                sense = first_sense[target] + pointer.target_word - 1
                if sense not in row:
                    row.append(sense)
    manifest = {
        "format": FORMAT_VERSION,
        "source": "WordNet 3.0 (Princeton University); see WORDNET-LICENSE.txt",
        "synsets_per_pos": {pos: sum(key[0] == pos for key in order) for pos in pos_order},
    }
    members = {
        "manifest.json": (json.dumps(manifest, sort_keys=True, indent=1, allow_nan=False) + "\n").encode("ascii"),
        "synsets/offsets.i4": _array([int(offset) for _, offset in order], "i4"),
        "senses/words.txt": _words(words),
        "senses/per_synset.u1": _array([len(raw[key][0]) for key in order], "u1"),
        "senses/tag_counts.u2": _array(counts, "u2"),
    }
    for pos, table in read_index(wordnet_dir).items():
        lemmas = sorted(table)
        members[f"index/{pos}/lemmas.txt"] = _words(lemmas)
        synsets = [[number[(pos, offset)] for offset in table[lemma]] for lemma in lemmas]
        members.update(_ragged(f"index/{pos}", synsets))
        members.update(
            _ragged(
                f"index_senses/{pos}",
                [
                    [
                        first_sense[synset] + i
                        for synset in row
                        for i, word in enumerate(raw[order[synset]][0])
                        if word.lower() == lemma
                    ]
                    for lemma, row in zip(lemmas, synsets, strict=True)
                ],
            )
        )
    for kind, pointers in (("synset_pointers", synset_rows), ("sense_pointers", sense_rows)):
        for name, rows in pointers.items():
            members.update(_ragged(f"{kind}/{name}", rows))
    return members


def main(argv: list[str] | None = None) -> int:
    return extract_main(
        __doc__.splitlines()[0], lambda path: serialize_archive(build_payload(path)), DEFAULT_OUTPUT, argv
    )


if __name__ == "__main__":
    raise SystemExit(main())
