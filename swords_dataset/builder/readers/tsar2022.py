"""TSAR-2022 (lexical simplification; English, Spanish, Portuguese) -> rows of the shared schema.

A gold line is `sentence<TAB>complex word<TAB>annotation<TAB>annotation…`, one annotation per annotator, each only
stripped (no case folding), as tsar_eval.py reads it. The rows keep every distinct annotation with its count, the
complex word too (the scorer drops it when it scores, as the metric does).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from swords_dataset.builder.errors import BuildError
from swords_dataset.builder.readers.row_fields import checked_word, produced_substitutes, schema_row, source_text
from swords_lexsub.terminal import clipped

LANGUAGES = ("en", "es", "pt")
SPLITS = ("trial", "test")
SOURCE = "tsar2022"
LICENSE = "tsar2022/LICENSE-data-CC-BY-NC-SA-4.0"


def config_name(language: str) -> str:
    return f"tsar2022_{language}"


def gold_path(language: str, split: str) -> str:
    """A gold file's path, relative to the sources folder."""
    return f"tsar2022/{split}/tsar2022_{language}_{split}_gold.tsv"


def inputs_path(language: str, split: str) -> str:
    """The unlabelled inputs (`_none.tsv`: sentence and complex word) the task's participants received."""
    return f"tsar2022/{split}/tsar2022_{language}_{split}_none.tsv"


def row_id(config: str, split: str, line: int) -> str:
    """`tsar2022_es:test:0042`: the config, the split and the 1-based line of the gold file."""
    return f"{config}:{split}:{line:04d}"


def target_offset(sentence: str, word: str) -> int | None:
    """Where the complex word stands: its first occurrence as a whole word (not 'impeach' in 'impeachment'), else
    its first at all; None if it is not in the sentence."""
    if whole := re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", sentence):
        return whole.start()
    found = sentence.find(word)
    return None if found < 0 else found


def _lines(path: Path) -> list[str]:
    text = source_text(path)  # UTF-8, a byte-order mark dropped (it would shift the first line's offset)
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def read_tsar2022(gold: Path, inputs: Path, config: str, split: str) -> list[dict]:
    """Rows of one gold file, one per line, in file order; its `_none.tsv` inputs must match it line by line."""
    gold_lines, input_lines = _lines(gold), _lines(inputs)
    if len(gold_lines) != len(input_lines):
        raise BuildError(f"{inputs}: {len(input_lines)} lines, but {gold} has {len(gold_lines)}")
    rows = []
    for number, (line, unlabelled) in enumerate(zip(gold_lines, input_lines, strict=True), 1):
        fields = line.split("\t")
        if len(fields) < 3:
            raise BuildError(f"{gold}:{number}: expected sentence, complex word and annotations separated by tabs")
        sentence, word = fields[0], checked_word(fields[1], f"{gold}:{number}", "the complex word")
        if unlabelled.split("\t") != [sentence, word]:
            raise BuildError(f"{inputs}:{number}: its sentence and complex word differ from {gold}:{number}")
        annotations = [item.strip() for item in fields[2:]]
        if "" in annotations:
            raise BuildError(f"{gold}:{number}: an empty annotation (column {annotations.index('') + 3})")
        offset = target_offset(sentence, word)
        if offset is None:
            raise BuildError(f"{gold}:{number}: the complex word {clipped(word, quote=True)} is not in its sentence")
        identifier = row_id(config, split, number)
        # TSAR gives neither a POS nor a lemma, and no candidates (no ranking setting)
        # Each distinct annotation, most annotators first, ties in order of first appearance (a Counter keeps it).
        substitutes = produced_substitutes(list(Counter(annotations).items()), SOURCE, len(annotations))
        rows.append(
            schema_row(identifier, config, identifier, sentence, word, offset, substitutes, upstream_id=identifier)
        )
    return rows


def read_all(paths: dict[str, Path]) -> dict[str, dict[str, list[dict]]]:
    """config -> split -> rows, for every language; `paths`: the checked sources by relative path."""
    return {
        config_name(language): {
            split: read_tsar2022(
                paths[gold_path(language, split)], paths[inputs_path(language, split)], config_name(language), split
            )
            for split in SPLITS
        }
        for language in LANGUAGES
    }
