"""Build the compact WordNet 3.0 synonym file that the `wordnet` baseline ships with.

From a raw WordNet 3.0 database directory (Debian's ``/usr/share/wordnet``: packages ``wordnet-base`` for
``index.*``/``data.*`` and ``wordnet-sense-index`` for ``index.sense``) this extracts, and only this:

* ``index``: per POS letter (n, v, a, r), lemma -> its synsets in WordNet's sense order (``index.POS``:
  senses by decreasing SemCor tag count, untagged senses after them);
* ``synsets``: one entry per synset, in (POS file, byte offset) order, as
  ``[lemmas, tag_counts, relations]`` where ``lemmas`` keep the data file's spelling (``_`` for spaces,
  adjective markers like ``(p)`` removed), ``tag_counts[i]`` is the tag count of that word sense from
  ``index.sense`` (the same numbers as ``cntlist.rev``), and ``relations`` maps a relation name to synset
  indices: ``hypernyms`` (``@``, ``@i``), ``similar`` (``&``), ``also`` (``^``), ``verb_group`` (``$``).
  Hyponyms are the inverse of ``hypernyms`` and are derived when loading.

The output is deterministic gzipped JSON (sorted keys, no gzip file name, ``mtime=0``), so regenerating from
the same database gives identical bytes. The data is redistributed under the WordNet 3.0 license
(``swords_metric/WORDNET-LICENSE.txt``).

Usage::

    python -m swords_baselines.wordnet_synonyms --wordnet-dir /usr/share/wordnet \\
        --output baselines/wordnet-3.0-synonyms.json.gz
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from swords_dataset.wordnet_files import POS_FILES, content_lines, extract_main

FORMAT_VERSION = 1
DATA_FILE = "wordnet-3.0-synonyms.json.gz"
DEFAULT_OUTPUT = Path(__file__).with_name(DATA_FILE)
# Sense-key ss_type digit -> POS file letter (5, adjective satellite, lives in data.adj).
_SS_TYPE_POS = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}
RELATIONS: dict[str, str] = {"@": "hypernyms", "@i": "hypernyms", "&": "similar", "^": "also", "$": "verb_group"}


def _strip_marker(word: str) -> str:
    # Adjectives may carry a syntactic marker: "galore(ip)", "outback(a)", "ready_to_hand(p)".
    return word[: word.index("(")] if word.endswith(")") and "(" in word else word


def read_tag_counts(wordnet_dir: Path) -> dict[tuple[str, str, str], int]:
    """(POS letter, synset offset, lower-case lemma) -> tag count, from index.sense."""
    counts = {}
    for line in content_lines(wordnet_dir / "index.sense"):
        sense_key, offset, _sense_number, tag_count = line.split()
        lemma, rest = sense_key.split("%", 1)
        counts[(_SS_TYPE_POS[rest[0]], offset, lemma)] = int(tag_count)
    return counts


def read_synsets(wordnet_dir: Path) -> dict[tuple[str, str], tuple[list[str], list[tuple[str, str, str]]]]:
    """(POS letter, offset) -> (words, [(pointer symbol, target offset, target POS letter)])."""
    synsets = {}
    for pos, suffix in POS_FILES.items():
        for line in content_lines(wordnet_dir / f"data.{suffix}"):
            fields = line.split(" | ", 1)[0].split()
            offset, word_count = fields[0], int(fields[3], 16)
            words = [_strip_marker(fields[4 + 2 * i]) for i in range(word_count)]
            at = 4 + 2 * word_count
            pointer_count = int(fields[at])
            pointers = []
            for i in range(pointer_count):
                symbol, target, target_pos = fields[at + 1 + 4 * i : at + 4 + 4 * i]
                pointers.append((symbol, target, "a" if target_pos == "s" else target_pos))
            synsets[(pos, offset)] = (words, pointers)
    return synsets


def read_index(wordnet_dir: Path) -> dict[str, dict[str, list[str]]]:
    """POS letter -> lemma -> synset offsets in sense order (index.POS)."""
    index: dict[str, dict[str, list[str]]] = {}
    for pos, suffix in POS_FILES.items():
        table = {}
        for line in content_lines(wordnet_dir / f"index.{suffix}"):
            fields = line.split()
            lemma, synset_count, pointer_count = fields[0], int(fields[2]), int(fields[3])
            # lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
            table[lemma] = fields[4 + pointer_count + 2 :][:synset_count]
        index[pos] = table
    return index


def build_payload(wordnet_dir: Path) -> dict[str, Any]:
    wordnet_dir = Path(wordnet_dir)
    counts = read_tag_counts(wordnet_dir)
    raw = read_synsets(wordnet_dir)
    order = sorted(raw, key=lambda key: (list(POS_FILES).index(key[0]), key[1]))
    number = {key: i for i, key in enumerate(order)}
    synsets = []
    for key in order:
        words, pointers = raw[key]
        relations: dict[str, list[int]] = {}
        for symbol, target, target_pos in pointers:
            if symbol in RELATIONS:
                targets = relations.setdefault(RELATIONS[symbol], [])
                if number[(target_pos, target)] not in targets:
                    targets.append(number[(target_pos, target)])
        tag_counts = [counts.get((key[0], key[1], word.lower()), 0) for word in words]
        synsets.append([words, tag_counts, relations])
    index = {
        pos: {lemma: [number[(pos, offset)] for offset in offsets] for lemma, offsets in table.items()}
        for pos, table in read_index(wordnet_dir).items()
    }
    return {
        "format": FORMAT_VERSION,
        "source": "WordNet 3.0 (Princeton University); see swords_metric/WORDNET-LICENSE.txt",
        "index": index,
        "synsets": synsets,
    }


def main(argv: list[str] | None = None) -> int:
    return extract_main(__doc__.splitlines()[0], build_payload, DEFAULT_OUTPUT, argv)


if __name__ == "__main__":
    raise SystemExit(main())
