"""A context cut into a window of word pieces around the target, as the transformer baselines feed it: each side
of the target tokenized once (many substitutes share it), a word's pieces, the sequence assembled and cut to the
model's length, and batches of sequences padded (torch is imported only there)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Window:
    """Word-piece ids of the context left and right of the target (no special tokens)."""

    left: list[int]
    right: list[int]
    space_before: bool  # whether the target followed whitespace (matters to byte-level BPE vocabularies)


def split_context(tokenizer, row: dict) -> Window:
    """The row's context tokenized on each side of the target, shared by many substitutes (split_contexts)."""
    return split_contexts(tokenizer, [row])[0]


def split_contexts(tokenizer, rows: list[dict]) -> list[Window]:
    """:func:`split_context` of many rows, in one call of the tokenizer."""
    sides = []
    for row in rows:
        start = row["offset"]
        left, right = row["context"][:start], row["context"][start + len(row["target"]) :]
        sides.append((left.rstrip() if left.strip() else "", right if right.strip() else "", left[-1:].isspace()))
    texts = [text for left, right, _ in sides for text in (left, right)]
    encoded = tokenizer(texts, add_special_tokens=False)["input_ids"] if texts else []
    return [
        Window(left=encoded[2 * i] if left else [], right=encoded[2 * i + 1] if right else [], space_before=space)
        for i, (left, right, space) in enumerate(sides)
    ]


def word_pieces(tokenizer, word: str, space_before: bool) -> list[int]:
    ids = tokenizer.encode((" " if space_before else "") + word, add_special_tokens=False)
    return ids or [tokenizer.unk_token_id]


def assemble(tokenizer, window: Window, middle: list[int], max_length: int) -> tuple[list[int], int]:
    """([CLS] left middle right [SEP] cut to max_length around the middle, the shorter side whole; its start)."""
    room = max(max_length - 2 - len(middle), 0)
    left_room = max(room // 2, room - len(window.right))
    left = window.left[len(window.left) - min(len(window.left), left_room) :]
    right = window.right[: max(room - len(left), 0)]
    cls, sep = tokenizer.cls_token_id, tokenizer.sep_token_id
    head = [cls] if cls is not None else []
    tail = [sep] if sep is not None else []
    return head + left + middle + right + tail, len(head) + len(left)


def model_max_length(tokenizer, positions: int | None, limit: int) -> int:
    """The smallest of the user's limit, the tokenizer's and the model's position table (``positions``)."""
    lengths = [limit, positions or limit]
    if 0 < getattr(tokenizer, "model_max_length", 0) < 100_000:
        lengths.append(tokenizer.model_max_length)
    return min(lengths)


def pad_batch(sequences: list[list[int]], pad_id: int):
    """(input_ids, attention_mask) tensors, right-padded."""
    import torch

    width = max(len(s) for s in sequences)
    ids = torch.full((len(sequences), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(sequences), width), dtype=torch.long)
    for i, sequence in enumerate(sequences):
        ids[i, : len(sequence)] = torch.tensor(sequence, dtype=torch.long)
        mask[i, : len(sequence)] = 1
    return ids, mask
