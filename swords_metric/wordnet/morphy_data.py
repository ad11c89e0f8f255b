"""Build the compact WordNet 3.0 data file that :mod:`swords_metric.wordnet.lemmatizer` ships with.

NLTK's lemmatizer only needs two things from WordNet: which lemma names exist for each part of speech
(``index.{noun,verb,adj,adv}``) and the irregular-form exception lists (``{noun,verb,adj,adv}.exc``).
This module extracts exactly those from a raw WordNet 3.0 database directory (e.g. Debian's
``/usr/share/wordnet`` from the ``wordnet-base`` package) and writes them as deterministic gzipped JSON:
sorted keys, no gzip file name and ``mtime=0``, so regenerating from the same database yields identical
bytes.

Usage::

    python -m swords_metric.wordnet.morphy_data --wordnet-dir /usr/share/wordnet \\
        --output swords_metric/wordnet/wordnet-3.0-morphy.json.gz
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from swords_dataset.builder.wordnet_files import POS_FILES, extract_main, read_lines

#: Format version of the JSON payload; bump it if the layout changes.
FORMAT_VERSION = 1

DEFAULT_OUTPUT = Path(__file__).with_name("wordnet-3.0-morphy.json.gz")


def read_lemma_index(wordnet_dir: Path) -> dict[str, list[str]]:
    """Lemma names per POS, as NLTK's reader indexes them.

    NLTK skips the license header (lines starting with a space) and keys each entry by its first
    token (the lemma) and its second token (the POS letter written in the line, not the file name).
    """
    lemmas: dict[str, set[str]] = {pos: set() for pos in POS_FILES}
    for suffix in POS_FILES.values():
        for line in read_lines(wordnet_dir / f"index.{suffix}"):
            if line.startswith(" "):
                continue
            fields = line.split()
            if len(fields) < 2:
                raise ValueError(f"index.{suffix}: malformed line {line!r}")
            lemma, pos = fields[0], fields[1]
            if pos not in lemmas:
                raise ValueError(f"index.{suffix}: unexpected POS {pos!r} in line {line!r}")
            lemmas[pos].add(lemma)
    return {pos: sorted(names) for pos, names in lemmas.items()}


def read_exceptions(wordnet_dir: Path) -> dict[str, dict[str, list[str]]]:
    """Exception maps per POS: inflected form -> base forms, in file order.

    As in NLTK, a form listed on several lines keeps only its *last* line (WordNet 3.0 has a few such
    duplicates, e.g. ``involucra`` and ``aurar`` in noun.exc, ``offer`` in adj.exc), and a line with a
    single token maps the form to an empty list.
    """
    exceptions: dict[str, dict[str, list[str]]] = {}
    for pos, suffix in POS_FILES.items():
        table: dict[str, list[str]] = {}
        for line in read_lines(wordnet_dir / f"{suffix}.exc"):
            terms = line.split()
            if not terms:
                # NLTK would crash on a blank line; a real WordNet 3.0 file has none.
                raise ValueError(f"{suffix}.exc: blank line")
            table[terms[0]] = terms[1:]
        exceptions[pos] = table
    return exceptions


def build_payload(wordnet_dir: Path) -> dict[str, Any]:
    """Everything the lemmatizer needs, as a JSON-serialisable dict."""
    return {
        "format": FORMAT_VERSION,
        "source": "WordNet 3.0 (Princeton University); see WORDNET-LICENSE.txt",
        "lemmas": read_lemma_index(wordnet_dir),
        "exceptions": read_exceptions(wordnet_dir),
    }


def main(argv: list[str] | None = None) -> int:
    return extract_main(__doc__.splitlines()[0], build_payload, DEFAULT_OUTPUT, argv)


if __name__ == "__main__":
    raise SystemExit(main())
