"""The raw WordNet 3.0 database read line by line, and the compact extracts the packages ship written
deterministically (gzipped JSON, sorted keys, no gzip file name, mtime 0: the same database gives the
same bytes). Each extract's builder (the lemmatizer's, the thesaurus baseline's) states what it keeps."""

from __future__ import annotations

import argparse
import gzip
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: WordNet part-of-speech letter -> file suffix, as in the database (and NLTK's ``_FILEMAP``).
POS_FILES: dict[str, str] = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
DEBIAN_WORDNET = Path("/usr/share/wordnet")  # Debian's wordnet-base (index.*, data.*, *.exc)


def read_lines(path: Path) -> list[str]:
    # The WordNet 3.0 database is pure ASCII; NLTK opens it as UTF-8, so do the same.
    return path.read_text(encoding="utf-8").splitlines()


def content_lines(path: Path) -> list[str]:
    """The lines of a database file without its license header (every line of it starts with a space)."""
    return [line for line in read_lines(path) if line and not line.startswith(" ")]


def serialize(payload: dict[str, Any]) -> bytes:
    """Deterministic gzipped JSON: sorted keys, compact separators, empty gzip name, mtime 0."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True) + "\n"
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as gz:
        gz.write(text.encode("ascii"))
    return buffer.getvalue()


def write_extract(build_payload: Callable[[Path], dict[str, Any]], wordnet_dir: Path, output: Path) -> bytes:
    """Build an extract from ``wordnet_dir`` into ``output``; returns the bytes written."""
    data = serialize(build_payload(Path(wordnet_dir)))
    Path(output).write_bytes(data)
    return data


def extract_main(description: str, build_payload: Callable[[Path], dict[str, Any]], default_output: Path,
                 argv: list[str] | None = None) -> int:
    """The command line of an extract's builder: --wordnet-dir and --output."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--wordnet-dir", type=Path, default=DEBIAN_WORDNET,
                        help="raw WordNet 3.0 database directory; default: %(default)s")
    parser.add_argument("--output", type=Path, default=default_output, help="default: %(default)s")
    args = parser.parse_args(argv)
    data = write_extract(build_payload, args.wordnet_dir, args.output)
    print(f"wrote {args.output} ({len(data)} bytes)")
    return 0
