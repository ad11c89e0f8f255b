"""Readers that turn each raw upstream source into rows of the shared schema."""

from __future__ import annotations

import codecs
import gzip
import html
import json
import re
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

from swords_dataset.schema import PTB_TO_UD, SEMEVAL_TO_UD, empty_provenance, sort_substitutes, sorted_candidates
from swords_lexsub.errors import SwordsError


class BuildError(SwordsError):
    """The sources contradict an assumption of the build (offsets, ids, splits)."""


def normalize_whitespace(text: str) -> str:
    return " ".join(text.split())


def check_offset(row: dict) -> None:
    start = row["offset"]
    if row["context"][start : start + len(row["target"])] != row["target"]:
        raise BuildError(f"{row['id']}: target {row['target']!r} is not at offset {start} of its context")


# --- SWORDS -----------------------------------------------------------------------------------------


def read_swords(path: Path, benchmark: str) -> list[dict]:
    """Rows of an upstream SWORDS JSON file, ids unchanged, in the file's target order."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        raw = json.load(f)
    substitutes_by_target = defaultdict(list)
    for substitute_id, substitute in raw["substitutes"].items():
        labels = raw["substitute_labels"][substitute_id]
        positive = labels.count("TRUE")
        substitutes_by_target[substitute["target_id"]].append(
            {
                "substitute": substitute["substitute"],
                "score": positive / len(labels),
                "votes_positive": positive,
                "votes_total": len(labels),
                "labels": list(labels),
                "sources": list(substitute["extra"]["sources"]),
                "cefr": None,
            }
        )
    rows = []
    for target_id, target in raw["targets"].items():
        context = raw["contexts"][target["context_id"]]
        substitutes = sort_substitutes(substitutes_by_target[target_id])
        provenance = empty_provenance()
        provenance["coinco_token_ids"] = list(target["extra"]["coinco_ids"])
        provenance["masc_sentences"] = list(context["extra"]["coinco_ids"])
        row = {
            "id": target_id,
            "benchmark": benchmark,
            "context_id": target["context_id"],
            "context": context["context"],
            "target": target["target"],
            "offset": target["offset"],
            "pos": target["pos"],
            "target_lemma": target["extra"]["coinco_lemma"],
            "target_cefr": None,
            "substitutes": substitutes,
            "candidates": sorted_candidates([s["substitute"] for s in substitutes]),
            "provenance": provenance,
        }
        check_offset(row)
        rows.append(row)
    return rows


def swords_documents(paths: list[Path]) -> set[str]:
    """The MASC documents that SWORDS contexts were drawn from."""
    documents = set()
    for path in paths:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            raw = json.load(f)
        for context in raw["contexts"].values():
            documents.update(masc_id.split(":", 1)[0] for masc_id in context["extra"]["coinco_ids"])
    return documents


# --- CoInCo and SemEval-2007: substitutes produced by annotators ------------------------------------


def produced_substitutes(answers: list[tuple[str, int]], source: str) -> list[dict]:
    """(substitute, number of annotators who gave it) -> schema substitutes, most frequent first. These
    sources record no per-annotator judgements: every vote is positive and `labels` stays empty."""
    return sort_substitutes(
        [
            {
                "substitute": text,
                "score": float(count),
                "votes_positive": count,
                "votes_total": count,
                "labels": [],
                "sources": [source],
                "cefr": None,
            }
            for text, count in answers
        ]
    )


# --- CoInCo -----------------------------------------------------------------------------------------


def read_candidate_lists(path: Path) -> dict[str, list[str]]:
    """`lemma.POS::cand;cand;…` lines (Latin-1, as upstream) -> candidates in file order."""
    lists = {}
    with open(path, encoding="latin-1") as f:
        for line_number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                continue
            if "::" not in line:
                raise BuildError(f"{path}:{line_number}: no '::' separator")
            key, candidates = line.split("::", 1)
            words = [normalize_whitespace(c) for c in candidates.split(";")]
            lists[key.strip()] = [w for w in words if w]
    return lists


def coinco_test_documents(swords_dev_documents: set[str], swords_test_documents: set[str]) -> set[str]:
    """CoInCo's official split is by MASC document, and SWORDS dev/test were drawn from CoInCo dev/test:
    a document seen in SWORDS test is CoInCo test; every other one (SWORDS dev, or neither) is dev."""
    overlap = swords_dev_documents & swords_test_documents
    if overlap:
        raise BuildError(f"MASC documents in both SWORDS dev and test: {sorted(overlap)}")
    return set(swords_test_documents)


def read_coinco(xml_path: Path, candidates_path: Path, test_documents: set[str]) -> dict[str, list[dict]]:
    """CoInCo rows by split. Context = pre-context, target sentence and post-context, whitespace-normalised
    and joined by one space (the layout of the SWORDS release)."""
    candidate_lists = read_candidate_lists(candidates_path)
    with gzip.open(xml_path, "rb") as f:
        root = ElementTree.parse(f).getroot()
    rows: dict[str, list[dict]] = {"dev": [], "test": []}
    for sentence in root.iter("sent"):
        document, sentence_id = sentence.get("MASCfile"), sentence.get("MASCsentID")
        split = "test" if document in test_documents else "dev"
        parts = [
            normalize_whitespace(sentence.findtext(tag) or "")
            for tag in ("precontext", "targetsentence", "postcontext")
        ]
        pre, region, _ = parts
        context = " ".join(p for p in parts if p)
        region_start = len(pre) + 1 if pre else 0
        context_id = f"coinco:{document}:{sentence_id}"
        cursor = 0  # tokens are located left to right in the target sentence
        for token in sentence.iter("token"):
            wordform = token.get("wordform").strip()
            found = region.find(wordform, cursor)
            if found >= 0:
                cursor = found + len(wordform)
            if token.get("posMASC") == "XXX":  # not a target: CoInCo only annotated content words
                continue
            token_id = token.get("id")
            if found < 0:
                raise BuildError(f"CoInCo token {token_id} {wordform!r} not found in its sentence {context_id}")
            substitutes = produced_substitutes(
                [(normalize_whitespace(subst.get("lemma")), int(subst.get("freq"))) for subst in token.iter("subst")],
                "coinco",
            )
            lemma = token.get("lemma").strip()
            pos_tag = token.get("posMASC").strip()
            pos = PTB_TO_UD[pos_tag[0]]
            pool = candidate_lists.get(f"{lemma}.{pos_tag[0]}", [])
            provenance = empty_provenance()
            provenance["coinco_token_ids"] = [token_id]
            provenance["masc_sentences"] = [f"{document}:{sentence_id}"]
            provenance["coinco_problematic"] = token.get("problematic", "no").strip().lower() == "yes"
            row = {
                "id": f"coinco:{token_id}",
                "benchmark": "coinco",
                "context_id": context_id,
                "context": context,
                "target": wordform,
                "offset": region_start + found,
                "pos": pos,
                "target_lemma": lemma,
                "target_cefr": None,
                "substitutes": substitutes,
                # The lemma.POS list, plus the gold substitutes it lacks, so a ranker can rank every gold item.
                "candidates": sorted_candidates(pool + [s["substitute"] for s in substitutes]),
                "provenance": provenance,
            }
            check_offset(row)
            rows[split].append(row)
    return rows


# --- SemEval-2007 Task 10 ---------------------------------------------------------------------------


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
            provenance = empty_provenance()
            provenance["semeval_lexelt"] = lexelt
            provenance["semeval_instance"] = instance_id
            row = {
                "id": f"semeval07:{instance_id}",
                "benchmark": "semeval07",
                "context_id": f"semeval07:{instance_id}",
                "context": sentence,
                "target": head,
                "offset": offset,
                "pos": pos,
                "target_lemma": lemma,
                "target_cefr": None,
                "substitutes": substitutes,
                "candidates": sorted_candidates(pool + [s["substitute"] for s in substitutes]),
                "provenance": provenance,
            }
            check_offset(row)
            rows[split].append(row)
    for split in rows:
        rows[split].sort(key=lambda row: row["provenance"]["semeval_instance"])
    return rows
