"""Build the WordNet 3.0 data file the metric's lemmatizer ships with (wordnet-3.0-morphy.txt).

What NLTK's lemmatizer reads of WordNet: the lemma names per POS (``index.POS``) and the exception lists (``POS.exc``).
Plain text, read without JSON or gzip: after a line naming the source, sections headed ``@KIND``: ``@POS`` holds lines
``prefix<TAB>names`` (the POS's sorted lemma names without ``_`` that share their first three characters,
space-separated), ``@POS_`` the names with ``_``, one a line (the lemmatizer reads them only for a form with ``_``:
half the file), ``@POS.exc`` lines ``form<TAB>bases``.

Usage::

    python -m swords_dataset.builder.wordnet_morphy --wordnet-dir /usr/share/wordnet \\
        --output swords_metric/wordnet/wordnet-3.0-morphy.txt
"""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

from swords_dataset.builder.wordnet_files import METRIC_WORDNET, POS_FILES, extract_main, read_lines

FORMAT_VERSION = 3  # 1: gzipped JSON; 2: text, the names grouped by prefix; 3: in sections
DEFAULT_OUTPUT = METRIC_WORDNET / "wordnet-3.0-morphy.txt"


def read_lemma_index(wordnet_dir: Path) -> dict[str, list[str]]:
    """Lemma names per POS, as NLTK's reader indexes them (by the POS letter in the line, not the file's name)."""
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
    """Exception maps per POS: inflected form -> base forms, in file order. As in NLTK, a form listed twice keeps
    its *last* line (WordNet 3.0: ``involucra``, ``aurar`` in noun.exc, ``offer`` in adj.exc), and a line of one
    token maps the form to an empty list."""
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


def build(wordnet_dir: Path) -> bytes:
    """The data file's bytes (the same database, the same bytes)."""
    lines = [f"# WordNet 3.0 (Princeton University); see WORDNET-LICENSE.txt. Format {FORMAT_VERSION}."]
    lemmas = read_lemma_index(wordnet_dir)
    for pos, names in lemmas.items():
        plain = [name for name in names if "_" not in name]
        lines += [f"@{pos}", *(f"{prefix}\t{' '.join(group)}" for prefix, group in groupby(plain, key=lambda n: n[:3]))]
    for pos, names in lemmas.items():
        lines += [f"@{pos}_", *(name for name in names if "_" in name)]
    for pos, table in read_exceptions(wordnet_dir).items():
        lines += [f"@{pos}.exc", *(f"{form}\t{' '.join(bases)}" for form, bases in table.items())]
    return "\n".join([*lines, ""]).encode("ascii")


def main(argv: list[str] | None = None) -> int:
    return extract_main(__doc__.splitlines()[0], build, DEFAULT_OUTPUT, argv)


if __name__ == "__main__":
    raise SystemExit(main())
