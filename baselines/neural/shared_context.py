"""The shared-context forward pass without the dense attention matrix and without padding, and what it reads of an
encoder (its config and its tensors by role).

The generic pass runs the shared-context layout (:mod:`swords_baselines.neural.encoder`) on padded rows with a 4-D
mask: every layer multiplies the padding and builds a length² attention matrix almost all masked. This one computes
the same function with the encoder's weights: token-wise parts on the real tokens only, attention in small dense
blocks. For post-norm BERT-style encoders (BERT, MiniLM, RoBERTa, ELECTRA) with an exact-GELU or ReLU feed-forward
(`EncoderConfig.supported`); tested against transformers' own forward. The weights are read straight from the
folder's safetensors file, which spares loading the model through transformers (about 2.5 s of imports on 2 cores).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

MODEL_TYPES = ("bert", "roberta", "electra", "xlm-roberta", "camembert")
ACTIVATIONS = ("gelu", "relu")


@dataclass
class EncoderConfig:
    """What the pass needs from a model's config.json."""

    model_type: str
    hidden_size: int
    heads: int
    layers: int
    max_positions: int
    pad_token_id: int
    layer_norm_eps: float
    activation: str
    supported: bool

    @classmethod
    def from_dict(cls, config: dict) -> EncoderConfig:
        """Raises KeyError or TypeError when a size is missing."""
        model_type = config.get("model_type", "")
        activation = config.get("hidden_act", "")
        return cls(
            model_type=model_type,
            hidden_size=int(config["hidden_size"]),
            heads=int(config["num_attention_heads"]),
            layers=int(config["num_hidden_layers"]),
            max_positions=int(config.get("max_position_embeddings", 512)),
            pad_token_id=int(config.get("pad_token_id") or 0),
            layer_norm_eps=float(config.get("layer_norm_eps", 1e-12)),
            activation=activation,
            supported=(
                model_type in MODEL_TYPES
                and activation in ACTIVATIONS
                and config.get("position_embedding_type", "absolute") == "absolute"
                and not config.get("is_decoder", False)
                and int(config["hidden_size"]) % int(config["num_attention_heads"]) == 0
            ),
        )

    @classmethod
    def from_folder(cls, folder: str | Path) -> EncoderConfig | None:
        try:
            return cls.from_dict(json.loads((Path(folder) / "config.json").read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    @property
    def position_offset(self) -> int:
        """Where position ids start: after the padding index for RoBERTa-style encoders, else 0."""
        return self.pad_token_id + 1 if self.model_type in ("roberta", "xlm-roberta", "camembert") else 0


@dataclass
class EncoderWeights:
    """An encoder's tensors by role: embeddings; per layer, query/key/value as one matrix, attention out, feed-forward,
    norms (each a (weight, bias) pair)."""

    config: EncoderConfig
    word: object
    position: object
    token_type: object | None
    embedding_norm: tuple
    layers: list[dict] = field(default_factory=list)

    @classmethod
    def from_folder(cls, folder: str | Path) -> EncoderWeights | None:
        """From a folder's ``config.json`` and ``model.safetensors``; None for any other (transformers loads it)."""
        config = EncoderConfig.from_folder(folder)
        weights_file = Path(folder) / "model.safetensors"
        if config is None or not config.supported or not weights_file.is_file():
            return None
        from safetensors.torch import load_file

        try:
            tensors = load_file(str(weights_file))
        except Exception:  # a file safetensors cannot read: transformers will say what is wrong with it
            return None
        # Saved from the bare encoder ("embeddings.…") or from a model with a head ("bert.embeddings.…").
        anchor = "embeddings.word_embeddings.weight"
        prefixes = {name[: -len(anchor)] for name in tensors if name.endswith(anchor)}
        if len(prefixes) != 1:
            return None
        prefix = prefixes.pop()
        return cls._assemble(config, {name[len(prefix) :]: t for name, t in tensors.items() if name.startswith(prefix)})

    @classmethod
    def from_network(cls, network) -> EncoderWeights | None:
        """From a loaded transformers encoder; None if it is not one this pass reproduces."""
        try:
            config = EncoderConfig.from_dict(network.config.to_dict())
        except (KeyError, TypeError):
            return None
        if not config.supported:
            return None
        return cls._assemble(config, {name: t.detach() for name, t in network.state_dict().items()})

    @classmethod
    def _assemble(cls, config: EncoderConfig, tensors: dict) -> EncoderWeights | None:
        import torch

        def pair(name: str) -> tuple:
            return tensors[f"{name}.weight"], tensors[f"{name}.bias"]

        try:
            layers = []
            for number in range(config.layers):
                base = f"encoder.layer.{number}."
                parts = [pair(base + f"attention.self.{part}") for part in ("query", "key", "value")]
                layers.append(
                    {
                        "qkv": (torch.cat([w for w, _ in parts]), torch.cat([b for _, b in parts])),
                        "attention_out": pair(base + "attention.output.dense"),
                        "attention_norm": pair(base + "attention.output.LayerNorm"),
                        "intermediate": pair(base + "intermediate.dense"),
                        "output": pair(base + "output.dense"),
                        "output_norm": pair(base + "output.LayerNorm"),
                    }
                )
            return cls(
                config=config,
                word=tensors["embeddings.word_embeddings.weight"],
                position=tensors["embeddings.position_embeddings.weight"],
                token_type=tensors.get("embeddings.token_type_embeddings.weight"),
                embedding_norm=pair("embeddings.LayerNorm"),
                layers=layers,
            )
        except KeyError:
            return None


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
