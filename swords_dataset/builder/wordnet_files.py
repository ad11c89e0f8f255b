"""The raw WordNet 3.0 database read line by line (the one reader of `index.POS`, `data.POS` and `index.sense`), and
the extracts the packages ship written deterministically, the same database giving the same bytes: text (the
lemmatizer's tables) or a zip archive of arrays (the metric's graph). Each extract's builder states what it keeps."""

from __future__ import annotations

import argparse
import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: WordNet part-of-speech letter -> file suffix, as in the database (and NLTK's ``_FILEMAP``).
POS_FILES: dict[str, str] = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
DEBIAN_WORDNET = Path("/usr/share/wordnet")  # Debian's wordnet-base (index.*, data.*, *.exc)
METRIC_WORDNET = Path(__file__).parents[2] / "swords_metric" / "wordnet"  # where the extracts ship
# Sense-key ss_type digit -> POS file letter (5, adjective satellite, lives in data.adj).
_SS_TYPE_POS = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}


@dataclass(frozen=True)
class Pointer:
    """One pointer of a synset's line in data.POS: its symbol (``@`` hypernym, ``!`` antonym, …), the synset it points
    to, and the word numbers it links (1-based; 0 and 0 between whole synsets, else between two word senses)."""

    symbol: str
    target_pos: str  # the target's POS file letter: n, v, a (satellites included) or r
    target_offset: str
    source_word: int
    target_word: int


def read_lines(path: Path) -> list[str]:
    # The WordNet 3.0 database is pure ASCII; NLTK opens it as UTF-8, so do the same.
    return path.read_text(encoding="utf-8").splitlines()


def content_lines(path: Path) -> list[str]:
    """The lines of a database file without its license header (every line of it starts with a space)."""
    return [line for line in read_lines(path) if line and not line.startswith(" ")]


def _strip_marker(word: str) -> str:
    # Adjectives may carry a syntactic marker: "galore(ip)", "outback(a)", "ready_to_hand(p)".
    return word[: word.index("(")] if word.endswith(")") and "(" in word else word


def read_synsets(wordnet_dir: Path) -> dict[tuple[str, str], tuple[list[str], list[Pointer]]]:
    """(POS letter, offset) -> (words as the data file spells them, markers removed; pointers in file order),
    for every synset of data.{noun,verb,adj,adv}."""
    synsets = {}
    for pos, suffix in POS_FILES.items():
        for line in content_lines(Path(wordnet_dir) / f"data.{suffix}"):
            fields = line.split(" | ", 1)[0].split()
            offset, word_count = fields[0], int(fields[3], 16)
            words = [_strip_marker(fields[4 + 2 * i]) for i in range(word_count)]
            at = 4 + 2 * word_count
            pointers = []
            for i in range(int(fields[at])):
                symbol, target, target_pos, words_linked = fields[at + 1 + 4 * i : at + 5 + 4 * i]
                pointers.append(
                    Pointer(
                        symbol,
                        "a" if target_pos == "s" else target_pos,
                        target,
                        int(words_linked[:2], 16),
                        int(words_linked[2:], 16),
                    )
                )
            synsets[(pos, offset)] = (words, pointers)
    return synsets


def read_index(wordnet_dir: Path) -> dict[str, dict[str, list[str]]]:
    """POS letter -> lemma -> synset offsets in sense order (index.POS: by decreasing tag count of the sense)."""
    index: dict[str, dict[str, list[str]]] = {}
    for pos, suffix in POS_FILES.items():
        table = {}
        for line in content_lines(Path(wordnet_dir) / f"index.{suffix}"):
            fields = line.split()
            lemma, synset_count, pointer_count = fields[0], int(fields[2]), int(fields[3])
            # lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
            table[lemma] = fields[4 + pointer_count + 2 :][:synset_count]
        index[pos] = table
    return index


def read_tag_counts(wordnet_dir: Path) -> dict[tuple[str, str, str], int]:
    """(POS letter, synset offset, lower-case lemma) -> the word sense's SemCor tag count, from index.sense (the
    numbers of cntlist.rev)."""
    counts = {}
    for line in content_lines(Path(wordnet_dir) / "index.sense"):
        sense_key, offset, _sense_number, tag_count = line.split()
        lemma, rest = sense_key.split("%", 1)
        counts[(_SS_TYPE_POS[rest[0]], offset, lemma)] = int(tag_count)
    return counts


def serialize_archive(members: dict[str, bytes]) -> bytes:
    """A deterministic zip archive of named byte strings: sorted, deflated at level 9, fixed date and attributes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, on every platform
            info.external_attr = 0o644 << 16
            archive.writestr(info, members[name], compresslevel=9)
    return buffer.getvalue()


def extract_main(
    description: str,
    build: Callable[[Path], bytes],
    default_output: Path,
    argv: list[str] | None = None,
) -> int:
    """The command line of an extract's builder: --wordnet-dir and --output (the extract written there)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--wordnet-dir",
        type=Path,
        default=DEBIAN_WORDNET,
        help="raw WordNet 3.0 database directory; default: %(default)s",
    )
    parser.add_argument("--output", type=Path, default=default_output, help="default: %(default)s")
    args = parser.parse_args(argv)
    data = build(args.wordnet_dir)
    args.output.write_bytes(data)
    print(f"wrote {args.output} ({len(data)} bytes)")
    return 0
