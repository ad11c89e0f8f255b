"""Build the compact WordNet 3.0 data file that :mod:`swords_metric.lemmatizer` ships with.

NLTK's lemmatizer only needs two things from WordNet: which lemma names exist for each part of speech
(``index.{noun,verb,adj,adv}``) and the irregular-form exception lists (``{noun,verb,adj,adv}.exc``).
This module extracts exactly those from a raw WordNet 3.0 database directory (e.g. Debian's
``/usr/share/wordnet`` from the ``wordnet-base`` package) and writes them as deterministic gzipped JSON:
sorted keys, no gzip file name and ``mtime=0``, so regenerating from the same database yields identical
bytes.

Usage::

    python -m swords_metric.wordnet_data --wordnet-dir /usr/share/wordnet \\
        --output swords_metric/wordnet-3.0-morphy.json.gz
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
from pathlib import Path
from typing import Any

#: Format version of the JSON payload; bump it if the layout changes.
FORMAT_VERSION = 1

#: WordNet part-of-speech letter -> file suffix, as in the WordNet database (and NLTK's ``_FILEMAP``).
POS_FILES: dict[str, str] = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}

DEFAULT_OUTPUT = Path(__file__).with_name("wordnet-3.0-morphy.json.gz")


def _read_lines(path: Path) -> list[str]:
    # The WordNet 3.0 database is pure ASCII; NLTK opens it as UTF-8, so do the same.
    return path.read_text(encoding="utf-8").splitlines()


def read_lemma_index(wordnet_dir: Path) -> dict[str, list[str]]:
    """Lemma names per POS, as NLTK's reader indexes them.

    NLTK skips the license header (lines starting with a space) and keys each entry by its first
    token (the lemma) and its second token (the POS letter written in the line, not the file name).
    """
    lemmas: dict[str, set[str]] = {pos: set() for pos in POS_FILES}
    for suffix in POS_FILES.values():
        for line in _read_lines(wordnet_dir / f"index.{suffix}"):
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
        for line in _read_lines(wordnet_dir / f"{suffix}.exc"):
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


def serialize(payload: dict[str, Any]) -> bytes:
    """Deterministic gzipped JSON: sorted keys, compact separators, empty gzip name, mtime 0."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True) + "\n"
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as gz:
        gz.write(text.encode("ascii"))
    return buffer.getvalue()


def write_data_file(wordnet_dir: Path, output: Path) -> bytes:
    """Generate the data file from ``wordnet_dir`` into ``output``; returns the bytes written."""
    data = serialize(build_payload(Path(wordnet_dir)))
    Path(output).write_bytes(data)
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--wordnet-dir",
        type=Path,
        default=Path("/usr/share/wordnet"),
        help="raw WordNet 3.0 database directory (index.* and *.exc files); default: %(default)s",
    )
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="default: %(default)s")
    args = parser.parse_args(argv)
    data = write_data_file(args.wordnet_dir, args.output)
    print(f"wrote {args.output} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
