"""SemEval-2007 Task 10 (the English lexical substitution task: trial and test) -> rows of the shared schema: the
tokenized sentences detokenized around their <head> target, their text repaired, the gold read with duplicates
merged."""

from __future__ import annotations

import codecs
import html
import re
from pathlib import Path

from swords_dataset.builder.errors import BuildError
from swords_dataset.builder.readers.row_fields import (
    normalize_whitespace,
    pool_with_gold,
    produced_substitutes,
    read_candidate_lists,
    schema_row,
)
from swords_dataset.schema import SEMEVAL_TO_UD, empty_provenance


def _latin1_fallback(error: UnicodeDecodeError) -> tuple[str, int]:
    # lst_all.xml is UTF-8 but for one stray Latin-1 byte; read such bytes as Latin-1.
    return error.object[error.start : error.end].decode("latin-1"), error.end


codecs.register_error("swords_latin1_fallback", _latin1_fallback)

_LEXELT = re.compile(r'<lexelt item="([^"]+)">(.*?)</lexelt>', re.DOTALL)
_INSTANCE = re.compile(r'<instance id="(\d+)">\s*<context>(.*?)</context>', re.DOTALL)
_HEAD = re.compile(r"<head>(.*?)</head>")
_PLACEHOLDER = "SWORDSHEADPLACEHOLDER"


# What ftfy cannot undo: GB2312 quotes read as Latin-1 (instance 112), and a lone "Â" left of a
# non-breaking space that the tokenizer split off (instance 89).
_LEFTOVER_MOJIBAKE = {"¡°": '"', "¡±": '"', "¡¯": "'", "Â ": ""}


def repair_text(text: str) -> str:
    """Undo the source's HTML escaping (sometimes doubled) and mojibake; straighten curly quotes."""
    import ftfy

    for _ in range(3):
        unescaped = html.unescape(text)
        if unescaped == text:
            break
        text = unescaped
    text = ftfy.fix_text(text, unescape_html=False)
    for broken, fixed in _LEFTOVER_MOJIBAKE.items():
        text = text.replace(broken, fixed)
    return text


def detokenize_with_head(tokenized: str) -> tuple[str, str, int]:
    """(sentence, head word, character offset of the head) from a tokenized sentence with one <head>."""
    from nltk.tokenize.treebank import TreebankWordDetokenizer

    heads = _HEAD.findall(tokenized)
    if len(heads) != 1:
        raise BuildError(f"expected one <head> in {tokenized[:80]!r}, found {len(heads)}")
    head = normalize_whitespace(repair_text(heads[0]))
    # A plain alphabetic placeholder keeps the detokenizer's rules from touching the head word.
    tokens = _HEAD.sub(_PLACEHOLDER, repair_text_outside_head(tokenized)).split()
    # Straight double quotes alternate opening/closing, so the detokenizer knows which way to attach them.
    quote_tokens = [i for i, token in enumerate(tokens) if token == '"']
    for n, i in enumerate(quote_tokens):
        tokens[i] = "``" if n % 2 == 0 else "''"
    sentence = TreebankWordDetokenizer().detokenize(tokens)
    if sentence.count(_PLACEHOLDER) != 1:
        raise BuildError(f"head lost while detokenizing {tokenized[:80]!r}")
    offset = sentence.index(_PLACEHOLDER)
    return sentence.replace(_PLACEHOLDER, head), head, offset


def repair_text_outside_head(tokenized: str) -> str:
    pieces = re.split(r"(<head>.*?</head>)", tokenized)
    return "".join(piece if piece.startswith("<head>") else repair_text(piece) for piece in pieces)


def read_semeval_gold(path: Path) -> dict[int, list[tuple[str, int]]]:
    """`lexelt id :: sub n;sub n;` -> instance id -> [(substitute, annotators)], duplicates merged."""
    gold = {}
    with open(path, encoding="utf-8") as f:
        for line_number, line in enumerate(f, 1):
            if not line.strip():
                continue
            head, _, answers = line.partition("::")
            fields = head.split()
            if len(fields) != 2 or not fields[1].isdigit():
                raise BuildError(f"{path}:{line_number}: expected 'lexelt id :: answers'")
            counts: dict[str, int] = {}
            for answer in answers.lstrip(":").split(";"):
                words = answer.split()
                if not words:
                    continue
                if len(words) < 2 or not words[-1].isdigit():
                    raise BuildError(f"{path}:{line_number}: answer {answer.strip()!r} has no count")
                # Whitespace variants ("garden  1" beside "garden 2") are one substitute: sum their counts.
                substitute = " ".join(words[:-1])
                counts[substitute] = counts.get(substitute, 0) + int(words[-1])
            gold[int(fields[1])] = list(counts.items())
    return gold


def _read_semeval_xml(xml_path: Path) -> str:
    return xml_path.read_bytes().decode("utf-8", errors="swords_latin1_fallback")


def semeval_instance_texts(xml_path: Path) -> dict[int, str]:
    """instance id -> its raw context: tokenized, the target in <head>, entities and mojibake untouched."""
    return {
        int(i): context
        for _, body in _LEXELT.findall(_read_semeval_xml(xml_path))
        for i, context in _INSTANCE.findall(body)
    }


def read_semeval07(
    xml_path: Path, trial_gold_path: Path, test_gold_path: Path, candidates_path: Path
) -> dict[str, list[dict]]:
    text = _read_semeval_xml(xml_path)
    gold = {"trial": read_semeval_gold(trial_gold_path), "test": read_semeval_gold(test_gold_path)}
    candidate_lists = read_candidate_lists(candidates_path)
    rows: dict[str, list[dict]] = {"trial": [], "test": []}
    for lexelt, body in _LEXELT.findall(text):
        lemma, *pos_parts = lexelt.split(".")
        # "bar.n.v": the word bar.n used as a verb; the last part is the instance's POS.
        pos = SEMEVAL_TO_UD[pos_parts[-1]]
        instances = [(int(i), context) for i, context in _INSTANCE.findall(body)]
        splits = {split for split in gold for instance_id, _ in instances if instance_id in gold[split]}
        if len(splits) != 1:
            raise BuildError(f"lexelt {lexelt}: instances in splits {sorted(splits)}")
        split = splits.pop()
        pool = candidate_lists.get(f"{lemma}.{pos_parts[0]}")
        if pool is None:
            raise BuildError(f"lexelt {lexelt}: no candidate list for {lemma}.{pos_parts[0]}")
        for instance_id, tokenized in instances:
            sentence, head, offset = detokenize_with_head(tokenized.strip())
            substitutes = produced_substitutes(gold[split].get(instance_id, []), "semeval07")
            rows[split].append(
                schema_row(
                    f"semeval07:{instance_id}",
                    "semeval07",
                    f"semeval07:{instance_id}",
                    sentence,
                    head,
                    offset,
                    substitutes,
                    pos=pos,
                    target_lemma=lemma,
                    candidates=pool_with_gold(pool, substitutes),
                    provenance=empty_provenance(semeval_lexelt=lexelt, semeval_instance=instance_id),
                )
            )
    for split in rows:
        rows[split].sort(key=lambda row: row["provenance"]["semeval_instance"])
    return rows
