"""The shared-context forward pass without the dense attention matrix and without padding.

The generic pass runs the shared-context layout (:mod:`swords_baselines.neural.encoder`) on padded rows with a 4-D
mask: every layer multiplies the padding and builds a length² attention matrix almost all masked. This one computes
the same function with the encoder's weights: token-wise parts on the real tokens only, attention in small dense
blocks. For post-norm BERT-style encoders (BERT, MiniLM, RoBERTa, ELECTRA) with an exact-GELU or ReLU feed-forward;
tested against transformers' own forward.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from swords_baselines.neural.encoder_weights import EncoderWeights


@dataclass
class PackedRow:
    """One row: context pieces with their positions, then words of pieces at the target's positions (from ``gap``)."""

    context: list[int]
    positions: list[int]
    gap: int
    words: list[list[int]]


class SharedContextPass:
    """Each word's mean last-layer piece vector (the target first), as the generic pass gives it. Attention runs in
    two batches of dense blocks: each row's context on itself, and blocks of whole words (up to ``block`` pieces) on
    their row's context and the block, masked to their own word: pieces × (context + block) scores a block, where the
    generic pass pays pieces × (context + all pieces)."""

    def __init__(self, weights: EncoderWeights, block: int = 32) -> None:
        import torch

        self.torch = torch
        self.weights = weights
        self.offset = weights.config.position_offset
        self.last_position = weights.config.max_positions - 1
        self.block = block
        self.heads = weights.config.heads
        self.head_size = weights.config.hidden_size // self.heads
        self.activation = torch.nn.functional.gelu if weights.config.activation == "gelu" else torch.relu

    def word_vectors(self, rows: Sequence[PackedRow]):
        """A (words in all rows, hidden) tensor: each row's words in order, rows one after another."""
        torch = self.torch
        functional = torch.nn.functional
        weights, eps = self.weights, self.weights.config.layer_norm_eps
        layout = self._layout(rows)
        with torch.inference_mode():
            hidden = (
                weights.word[torch.tensor(layout.ids)] + weights.position[torch.tensor(layout.positions) + self.offset]
            )
            if weights.token_type is not None:
                hidden = hidden + weights.token_type[0]
            hidden = functional.layer_norm(hidden, hidden.shape[-1:], *weights.embedding_norm, eps)
            for number, layer in enumerate(weights.layers):
                attended = self._attention(layer, hidden, layout)
                if number == len(weights.layers) - 1:  # only the word pieces' last states are used
                    attended, hidden = attended[layout.flat_pieces], hidden[layout.flat_pieces]
                hidden = functional.layer_norm(
                    functional.linear(attended, *layer["attention_out"]) + hidden,
                    hidden.shape[-1:],
                    *layer["attention_norm"],
                    eps,
                )
                inner = self.activation(functional.linear(hidden, *layer["intermediate"]))
                hidden = functional.layer_norm(
                    functional.linear(inner, *layer["output"]) + hidden, hidden.shape[-1:], *layer["output_norm"], eps
                )
            words = layout.word_of_piece
            sums = torch.zeros((layout.words, hidden.shape[-1])).index_add_(0, words, hidden)
            counts = torch.zeros(layout.words).index_add_(0, words, torch.ones(len(words)))
            return sums / counts.unsqueeze(1)

    def _layout(self, rows: Sequence[PackedRow]) -> _Layout:
        torch = self.torch
        ids: list[int] = []
        positions: list[int] = []
        contexts: list[list[int]] = []  # per row, flat indices of its context pieces
        blocks: list[list[int]] = []  # per block, flat indices of its pieces
        block_words: list[list[int]] = []  # per block, each piece's word number within the block
        block_rows: list[int] = []
        word_of_piece: list[int] = []
        words = 0
        for number, row in enumerate(rows):
            start = len(ids)
            ids.extend(row.context)
            positions.extend(row.positions)
            contexts.append(list(range(start, len(ids))))
            for k, pieces in enumerate(row.words):
                if k == 0 or len(blocks[-1]) + len(pieces) > self.block:
                    blocks.append([])
                    block_words.append([])
                    block_rows.append(number)
                first = len(ids)
                ids.extend(pieces)
                positions.extend(min(row.gap + j, self.last_position) for j in range(len(pieces)))
                blocks[-1].extend(range(first, len(ids)))
                block_words[-1].extend([k] * len(pieces))
                word_of_piece.extend([words] * len(pieces))
                words += 1
        total = len(ids)  # index `total` is a zero row that padding points at
        context_index, context_valid = _pad(contexts, total)
        block_index, block_valid = _pad(blocks, total)
        word_in_block, _ = _pad(block_words, -1)
        # A block's piece sees its row's real context and the pieces of its own word.
        same_word = (word_in_block.unsqueeze(2) == word_in_block.unsqueeze(1)) & block_valid.unsqueeze(2)
        block_rows_tensor = torch.tensor(block_rows, dtype=torch.long)
        sees = torch.cat(
            [context_valid[block_rows_tensor].unsqueeze(1).expand(-1, block_index.shape[1], -1), same_word], dim=2
        )
        sees[~block_valid] = True  # padding queries see everything (no empty softmax); their output is dropped
        return _Layout(
            ids,
            positions,
            context_index,
            context_valid,
            block_index,
            block_valid,
            block_rows_tensor,
            sees.unsqueeze(1),
            torch.tensor(word_of_piece, dtype=torch.long),
        )

    def _attention(self, layer: dict, hidden, layout: _Layout):
        """The layer's self-attention output for every token (before its output projection), flat."""
        torch = self.torch
        heads, size = self.heads, self.head_size
        # (tokens + 1 zero row, query/key/value, heads, size)
        projected = torch.nn.functional.linear(hidden, *layer["qkv"]).view(-1, 3, heads, size)
        projected = torch.cat([projected, projected.new_zeros((1, 3, heads, size))])
        sdpa = torch.nn.functional.scaled_dot_product_attention
        contexts = projected[layout.context_index].permute(2, 0, 3, 1, 4)  # (3, rows, heads, context, size)
        blocks = projected[layout.block_index].permute(2, 0, 3, 1, 4)  # (3, blocks, heads, block, size)
        context_out = sdpa(contexts[0], contexts[1], contexts[2], attn_mask=layout.context_sees)
        own = layout.block_rows
        block_out = sdpa(
            blocks[0],
            torch.cat([contexts[1][own], blocks[1]], dim=2),
            torch.cat([contexts[2][own], blocks[2]], dim=2),
            attn_mask=layout.sees,
        )
        out = hidden.new_empty((hidden.shape[0], heads * size))
        out[layout.flat_contexts] = context_out.transpose(1, 2)[layout.context_valid].reshape(-1, heads * size)
        out[layout.flat_pieces] = block_out.transpose(1, 2)[layout.block_valid].reshape(-1, heads * size)
        return out


@dataclass
class _Layout:
    """Contexts (rows × width) and word blocks (blocks × width) as flat indices (padding: a zero row), what each
    block's pieces may see, and each piece's word."""

    ids: list[int]
    positions: list[int]
    context_index: object
    context_valid: object
    block_index: object
    block_valid: object
    block_rows: object
    sees: object
    word_of_piece: object

    def __post_init__(self) -> None:
        self.flat_contexts = self.context_index[self.context_valid]
        self.flat_pieces = self.block_index[self.block_valid]
        self.words = int(self.word_of_piece[-1]) + 1 if len(self.word_of_piece) else 0
        valid = self.context_valid
        # Real context tokens see each other; padding queries see everything (their output is dropped).
        self.context_sees = (valid.unsqueeze(1) | ~valid.unsqueeze(2)).unsqueeze(1)


def _pad(lists: Sequence[list], filler):
    """Right-padded long tensor of ``lists`` and the mask of real entries."""
    import torch

    width = max((len(items) for items in lists), default=0)
    padded = [list(items) + [filler] * (width - len(items)) for items in lists]
    valid = [[True] * len(items) + [False] * (width - len(items)) for items in lists]
    return torch.tensor(padded, dtype=torch.long), torch.tensor(valid, dtype=torch.bool).reshape(len(lists), width)
