"""What the shared-context pass (shared_context.py) needs of an encoder: its config and its tensors by role.

It applies to post-norm BERT-style encoders (BERT, MiniLM, RoBERTa, ELECTRA) with an exact-GELU or ReLU
feed-forward (`EncoderConfig.supported`). Their weights are read straight from the model folder's safetensors
file (:meth:`EncoderWeights.from_folder`), which spares loading the model through transformers (about 2.5 s of
imports on a 2-core CPU), or taken from a loaded transformers model (:meth:`EncoderWeights.from_network`).
"""

from __future__ import annotations

import json
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
    """An encoder's tensors by role: embeddings and, per layer, the query/key/value projections as one matrix,
    the attention output, the feed-forward and the two layer norms (each a (weight, bias) pair)."""

    config: EncoderConfig
    word: object
    position: object
    token_type: object | None
    embedding_norm: tuple
    layers: list[dict] = field(default_factory=list)

    @classmethod
    def from_folder(cls, folder: str | Path) -> EncoderWeights | None:
        """From ``config.json`` and ``model.safetensors`` in a model folder; None when the folder holds another
        kind of model or other files (the caller then loads it through transformers)."""
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
